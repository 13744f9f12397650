#include "SsnNash.h"

#include "DrsOperator.h"
#include "PrmPlus.h"
#include "core/Errors.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>

namespace pl::games {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

/// Log-spaced record points: every iteration up to 10, then about 20 per decade.
class RecordSchedule {
public:
    bool due(int64_t t) const { return t >= m_next; }
    void advance(int64_t t) { m_next = std::max<int64_t>(t + 1, int64_t(std::ceil(double(t) * 1.12))); }

private:
    int64_t m_next = 1;
};

/// The best certified point seen so far.
struct Best {
    Eigen::VectorXd x, y;
    ZeroSumCertificate cert;
    double gap = kInf;
    void offer(const Eigen::VectorXd& xx, const Eigen::VectorXd& yy, const ZeroSumCertificate& c) {
        if (c.gap() < gap) {
            x = xx;
            y = yy;
            cert = c;
            gap = c.gap();
        }
    }
};

/// State shared by the phases of one solve.
struct SolveState {
    const Eigen::MatrixXd& A;
    const ZeroSumSolverOptions& opt;
    SolveMonitor& monitor;
    SolverWork work;
    ZeroSumSolution sol;
    Best best;
    double firstGap = -1;

    SolveState(const Eigen::MatrixXd& a, const ZeroSumSolverOptions& o, SolveMonitor& m)
        : A(a), opt(o), monitor(m) {
        work.rows = a.rows();
        work.cols = a.cols();
    }

    void noteGap(double gap) {
        if (firstGap < 0)
            firstGap = std::max(gap, opt.targetGap * 10);
        if (gap <= opt.targetGap && sol.iterationsToTarget < 0)
            sol.iterationsToTarget = sol.iterations;
    }
    void record(double gap, double lastGap = std::numeric_limits<double>::quiet_NaN()) {
        noteGap(gap);
        if (!opt.recordTrace)
            return;
        sol.trace.iteration.push_back(double(sol.iterations));
        sol.trace.gap.push_back(gap);
        sol.trace.work.push_back(work.matvecEquivalents());
        sol.trace.lastIterateGap.push_back(lastGap);
    }
    void progress(double gap, int64_t done, int64_t cap) {
        double f = cap > 0 ? double(done) / double(cap) : 0;
        if (firstGap > 0 && gap > 0 && firstGap > opt.targetGap)
            f = std::max(f, std::log(firstGap / gap) / std::log(firstGap / opt.targetGap));
        monitor.progress(f);
    }
    ZeroSumCertificate certify(const Eigen::VectorXd& x, const Eigen::VectorXd& y) {
        work.matvec();
        work.matvec();
        return zeroSumCertificate(A, x, y);
    }
    ZeroSumSolution finish() {
        sol.x = best.x;
        sol.y = best.y;
        sol.certificate = best.cert;
        sol.converged = best.gap <= opt.targetGap;
        sol.matvecs = work.matvecs;
        sol.matvecEquivalents = work.matvecEquivalents();
        return std::move(sol);
    }
};

/// Runs PRM+ until the averaged strategies' gap is <= stopGap (after at least minIterations
/// of this phase) or the total PRM+ cap is hit. Returns the exact certificate at the end.
ZeroSumCertificate runPrmPhase(SolveState& s, PrmPlus& prm, RecordSchedule& schedule, double stopGap,
                               int64_t minIterations) {
    const int64_t phaseStart = prm.iteration();
    ZeroSumCertificate cert;
    bool haveCert = false;
    while (true) {
        if (prm.iteration() >= s.opt.maxPrmIterations) {
            if (!haveCert)
                cert = prm.exactAverageCertificate();
            break;
        }
        prm.step();
        ++s.sol.iterations;
        ++s.sol.prmIterations;
        haveCert = false;
        const bool minDone = prm.iteration() - phaseStart >= minIterations;
        const double est = prm.averageGapEstimate();
        const bool recordNow = schedule.due(prm.iteration());
        if (recordNow || est <= stopGap || est <= s.opt.targetGap) {
            cert = prm.exactAverageCertificate();
            haveCert = true;
            if (recordNow) {
                schedule.advance(prm.iteration());
                s.record(cert.gap(), prm.lastIterateGap());
            } else {
                s.noteGap(cert.gap());
            }
            if (cert.gap() <= s.opt.targetGap || (minDone && cert.gap() <= stopGap))
                break;
        }
        s.monitor.checkEvery(s.work);
        if ((prm.iteration() & 255) == 0)
            s.progress(est, prm.iteration(), s.opt.maxPrmIterations);
    }
    // Make sure the trace ends at the phase's final point.
    if (s.opt.recordTrace &&
        (s.sol.trace.iteration.empty() || s.sol.trace.iteration.back() != double(s.sol.iterations)))
        s.record(cert.gap(), prm.lastIterateGap());
    s.best.offer(prm.averageX(), prm.averageY(), cert);
    return cert;
}

enum class PhaseEnd { Converged, Stalled, Budget };

/// Semi-smooth Newton with DRS globalisation from w; at most `budget` iterations; stops after
/// nStall consecutive rejected Newton steps when nStall > 0. Ratios of this phase replace
/// those of earlier phases in the solution.
PhaseEnd runNewtonPhase(SolveState& s, DrsOperator& drs, Eigen::VectorXd w, int64_t budget, int nStall) {
    const Eigen::Index n = s.A.rows();
    const Eigen::Index m = s.A.cols();
    Eigen::VectorXd z, R, zTrial, RTrial, d;
    double rnorm = drs.residual(w, z, R);
    ZeroSumCertificate cert = s.certify(z.head(n), z.tail(m));
    s.best.offer(z.head(n), z.tail(m), cert);
    s.record(cert.gap());
    s.sol.ratioIteration.clear();
    s.sol.residualRatio.clear();
    s.sol.gapRatio.clear();
    s.sol.ratioNewton.clear();
    int stall = 0;
    PhaseEnd end = PhaseEnd::Budget;
    for (int64_t k = 0;; ++k) {
        if (cert.gap() <= s.opt.targetGap) {
            end = PhaseEnd::Converged;
            break;
        }
        if (k >= budget || rnorm == 0)
            break;
        s.monitor.check();
        const double mu = std::min(s.opt.muMax, rnorm);
        bool accepted = false;
        double rTrial = kInf;
        if (drs.newtonDirection(z, R, mu, d)) {
            rTrial = drs.residual(w + d, zTrial, RTrial);
            accepted = rTrial <= s.opt.acceptRatio * rnorm;
        }
        if (accepted) {
            w += d;
            ++s.sol.newtonSteps;
            stall = 0;
        } else {
            w -= R; // Douglas-Rachford step
            rTrial = drs.residual(w, zTrial, RTrial);
            ++s.sol.drsSteps;
            ++stall;
        }
        ++s.sol.iterations;
        const double ratio = rTrial / rnorm;
        z.swap(zTrial);
        R.swap(RTrial);
        rnorm = rTrial;
        const double prevGap = cert.gap();
        cert = s.certify(z.head(n), z.tail(m));
        s.best.offer(z.head(n), z.tail(m), cert);
        s.record(cert.gap());
        s.sol.ratioIteration.push_back(double(s.sol.iterations));
        s.sol.residualRatio.push_back(ratio);
        s.sol.gapRatio.push_back(prevGap > 0 ? cert.gap() / prevGap : 0.0);
        s.sol.ratioNewton.push_back(accepted ? 1 : 0);
        s.progress(cert.gap(), k, budget);
        if (nStall > 0 && stall >= nStall) {
            end = PhaseEnd::Stalled;
            break;
        }
    }
    s.sol.finalResidual = rnorm;
    s.sol.lastW = w;
    return end;
}

/// Records iteration 0 (the uniform strategies PRM+ starts from); true when it already meets
/// the target gap.
bool recordUniformStart(SolveState& s, const PrmPlus& prm, double targetGap) {
    const ZeroSumCertificate c0 = s.certify(prm.averageX(), prm.averageY());
    s.record(c0.gap(), c0.gap());
    s.best.offer(prm.averageX(), prm.averageY(), c0);
    return c0.gap() <= targetGap;
}

} // namespace

ZeroSumSolution solvePrmPlus(const Eigen::MatrixXd& A, const ZeroSumSolverOptions& opt,
                             SolveMonitor& monitor) {
    SolveState s(A, opt, monitor);
    PrmPlus prm(A, opt.alternating, opt.averagingPower, s.work);
    RecordSchedule schedule;
    if (recordUniformStart(s, prm, opt.targetGap))
        return s.finish();
    runPrmPhase(s, prm, schedule, opt.targetGap, 0);
    return s.finish();
}

ZeroSumSolution solveSsn(const Eigen::MatrixXd& A, const ZeroSumSolverOptions& opt, SolveMonitor& monitor) {
    SolveState s(A, opt, monitor);
    DrsOperator drs(A, opt.gamma, s.work, [&monitor] { monitor.check(); });
    const Eigen::VectorXd x0 = Eigen::VectorXd::Constant(A.rows(), 1.0 / double(A.rows()));
    const Eigen::VectorXd y0 = Eigen::VectorXd::Constant(A.cols(), 1.0 / double(A.cols()));
    s.sol.switchIteration = 0;
    runNewtonPhase(s, drs, drs.lift(x0, y0), opt.maxSsnIterations, 0);
    return s.finish();
}

ZeroSumSolution solveHybrid(const Eigen::MatrixXd& A, const ZeroSumSolverOptions& opt,
                            SolveMonitor& monitor) {
    SolveState s(A, opt, monitor);
    PrmPlus prm(A, opt.alternating, opt.averagingPower, s.work);
    RecordSchedule schedule;
    if (recordUniformStart(s, prm, opt.targetGap))
        return s.finish();
    std::unique_ptr<DrsOperator> drs; // factored at the first switch
    double tau = std::max(opt.switchGap, opt.targetGap);
    int64_t minPhase = 0;
    while (true) {
        const int64_t phaseStart = prm.iteration();
        const ZeroSumCertificate cert = runPrmPhase(s, prm, schedule, tau, minPhase);
        if (cert.gap() <= opt.targetGap || prm.iteration() >= opt.maxPrmIterations)
            break;
        if (!drs)
            drs = std::make_unique<DrsOperator>(A, opt.gamma, s.work, [&monitor] { monitor.check(); });
        if (s.sol.switchIteration < 0)
            s.sol.switchIteration = s.sol.iterations;
        // Warm start from the PRM+ average: w0 = z - gamma F(z), F(z) = (-A y, A^T x); the
        // products are those of the exact certificate just computed.
        Eigen::VectorXd w0(A.rows() + A.cols());
        w0.head(A.rows()) = prm.averageX() + opt.gamma * prm.averageAy();
        w0.tail(A.cols()) = prm.averageY() - opt.gamma * prm.averageAtx();
        const PhaseEnd end = runNewtonPhase(s, *drs, w0, opt.maxNewton, opt.nStall);
        if (end == PhaseEnd::Converged)
            break;
        // Newton stalled or ran out of iterations: back to PRM+ (its state is kept) for at least
        // twice as many iterations as its last phase, then switch again below half the threshold.
        ++s.sol.fallbacks;
        minPhase = std::max<int64_t>(1, 2 * (prm.iteration() - phaseStart));
        tau = std::max(tau / 2, opt.targetGap);
    }
    return s.finish();
}

double autoGamma(const Eigen::MatrixXd& A, const CheckFn& check) {
    if (A.size() == 0 || A.cwiseAbs().maxCoeff() == 0)
        return 1.0;
    // Power iteration on A^T A from a fixed, non-symmetric start vector.
    Eigen::VectorXd v(A.cols());
    for (Eigen::Index j = 0; j < v.size(); ++j)
        v[j] = 1.0 + 0.1 * double(j % 7);
    v.normalize();
    double sigma2 = 0;
    for (int it = 0; it < 200; ++it) {
        if (check && it % 8 == 0)
            check();
        Eigen::VectorXd u = A.transpose() * (A * v);
        const double next = u.norm();
        if (next == 0)
            break;
        v = u / next;
        if (std::abs(next - sigma2) <= 1e-10 * next) {
            sigma2 = next;
            break;
        }
        sigma2 = next;
    }
    return sigma2 > 0 ? 1.0 / std::sqrt(sigma2) : 1.0;
}

} // namespace pl::games
