#include "FairRun.h"

#include "FairLinearBanditsKeys.h"
#include "FairProblem.h"
#include "PMean.h"

#include "core/Numeric.h"
#include "core/ResultBuilders.h"

#include <cmath>

namespace pl::bandits {

namespace K = fair::keys;
using LA = LinearAlgorithm;

namespace {
const std::vector<double> kSweepP{-2, -1, 0, 0.5, 1};
const std::vector<double> kSlowT{1000, 3000, 10000, 30000, 100000};
/// The horizons of the T sweep: T/16, T/8, T/4, T/2, T (at least 100).
std::vector<int64_t> sweepHorizons(int64_t T) {
    std::vector<int64_t> out;
    for (int k = 4; k >= 0; --k)
        out.push_back(std::max<int64_t>(100, T >> k));
    return out;
}
bool isFair(LA a) {
    return a == LA::FairLinUcb || a == LA::FairLinPe;
}
} // namespace

FairRun::FairRun(const ParamSet& p, RunContext& ctx, ResultDocument& doc) : m_p(p), m_ctx(ctx), m_doc(doc) {
    m_s.T = p.getInt(K::param::kT);
    m_s.p = p.getDouble(K::param::kP);
    m_s.c1 = p.getDouble(K::param::kC1);
    m_s.delta = p.getDouble(K::param::kDelta);
    m_s.designEps = p.getDouble(K::param::kDesignEps);
    m_s.reward = p.getString(K::param::kReward) == "beta" ? RewardModel::Beta : RewardModel::Bernoulli;
    m_runs = int(p.getInt(K::param::kRuns));
    double horizons = 0;
    for (int64_t t : sweepHorizons(m_s.T))
        horizons += double(t);
    m_totalWork = double(m_runs) * (7.0 * (double(m_s.T) + horizons) + 4.0 * double(m_s.T));
    if (p.getBool(K::param::kSlow))
        m_totalWork += double(m_runs) * 5 * 144000;
}

void FairRun::step(const std::string& status) {
    m_ctx.throwIfCancelled();
    m_ctx.progress(std::min(0.99, m_work / m_totalWork), status);
}

void FairRun::buildProblem(const InputList& inputs) {
    step("arms");
    FairProblemSpec spec;
    spec.d = int(m_p.getInt(K::param::kD));
    spec.K = int(m_p.getInt(K::param::kK));
    spec.muMin = m_p.getDouble(K::param::kMuMin);
    spec.p = m_s.p;
    m_P = buildFairProblem(inputs, spec, m_ctx.seed(), m_doc.notes);
}

void FairRun::computeDesigns() {
    step("G-optimal design (Frank-Wolfe)");
    m_P.design = gOptimalDesign(m_P.X, m_s.designEps, {}, 100000, [this] { m_ctx.throwIfCancelled(); });
    step("floor design (CLP)");
    m_P.floor = floorDesign(m_P.X);
}

std::vector<double> FairRun::expectedReward(LA alg, int64_t T, double p, Eigen::VectorXd* pulls) {
    LinearSettings s = m_s;
    s.T = T;
    s.p = p;
    std::vector<double> sum(size_t(T), 0.0);
    Eigen::VectorXd count = Eigen::VectorXd::Zero(m_P.X.rows());
    const Rng root(m_ctx.seed());
    const auto poll = [this] { m_ctx.throwIfCancelled(); };
    for (int r = 0; r < m_runs; ++r) {
        // Paired runs: run r of every algorithm uses the same stream.
        Rng rng = root.fork("run" + std::to_string(r));
        simulateRun(m_P, alg, s, rng, sum, count, poll);
        m_work += double(T);
        step(algorithmName(alg) + ", T = " + std::to_string(T));
    }
    for (double& v : sum)
        v /= m_runs;
    if (pulls)
        *pulls = count / m_runs;
    return sum;
}

void FairRun::simulateMain() {
    for (LA a : allLinearAlgorithms())
        m_reward[a] = expectedReward(a, m_s.T, m_s.p, &m_pulls[a]);
}

void FairRun::sweepP() {
    m_sweepPs = kSweepP;
    const auto c1Of = [](double p) { return 1.0 + std::max(0.0, -p); };
    for (LA a : allLinearAlgorithms()) {
        std::vector<double>& out = m_regretVsP[a];
        std::map<double, std::vector<double>> byC1; // FairLin curves per c₁(p) factor
        for (double p : kSweepP) {
            const std::vector<double>* y = &m_reward[a];
            if (isFair(a) && c1Of(p) != c1Of(m_s.p)) {
                auto it = byC1.find(c1Of(p));
                if (it == byC1.end())
                    it = byC1.emplace(c1Of(p), expectedReward(a, m_s.T, p, nullptr)).first;
                y = &it->second;
            }
            out.push_back(m_P.muStar - pMean(*y, p));
        }
    }
}

void FairRun::sweepT() {
    for (LA a : allLinearAlgorithms()) {
        Series s = emptySeries("horizon T (rounds)", "p-mean regret R_p");
        for (int64_t T : sweepHorizons(m_s.T)) {
            const std::vector<double> y = T == m_s.T ? m_reward[a] : expectedReward(a, T, m_s.p, nullptr);
            addPoint(s, double(T), m_P.muStar - pMean(y, m_s.p));
        }
        m_doc.series[K::key(K::series::kRegretVsTPrefix, algorithmKey(a))] = s;
    }
}

void FairRun::slowSlope() {
    if (!m_p.getBool(K::param::kSlow))
        return;
    m_slowTs = kSlowT;
    for (size_t k = 0; k < kSweepP.size(); ++k)
        for (double T : kSlowT) {
            const std::vector<double> y = expectedReward(LA::FairLinPe, int64_t(T), kSweepP[k], nullptr);
            m_slowRegret[k].push_back(m_P.muStar - pMean(y, kSweepP[k]));
        }
}

void FairRun::packResults() {
    step("result");
    const int Karms = int(m_P.X.rows());
    m_doc.vectors[K::vector::kDesignWeights] = toStd(m_P.design.weights);
    m_doc.vectors[K::vector::kFloorWeights] = toStd(m_P.floor.weights);
    m_doc.vectors[K::vector::kArmMu] = toStd(m_P.mu);
    m_doc.metrics[K::metric::kDesignGmax] = m_P.design.gmax;
    m_doc.metrics[K::metric::kDesignIterations] = m_P.design.iterations;
    m_doc.metrics[K::metric::kFairFloor] = m_P.floor.floor;
    m_doc.metrics[K::metric::kMuStar] = m_P.muStar;
    m_doc.metrics[K::metric::kPhase1Length] =
        double(fairPhaseLength(m_s.T, int(m_P.X.cols()), Karms, m_s.c1, m_s.p));
    Series conv = emptySeries("Frank-Wolfe iteration", "g / d - 1");
    for (size_t i = 0; i < m_P.design.gOverRank.size(); ++i)
        addPoint(conv, double(i), m_P.design.gOverRank[i] - 1);
    m_doc.series[K::series::kDesignConvergence] = conv;
    // Arm cloud: the first three principal components of the centred arms (zeros past d).
    const Eigen::RowVectorXd mean = m_P.X.colwise().mean();
    const Eigen::MatrixXd C = m_P.X.rowwise() - mean;
    const Eigen::MatrixXd axes = spanBasis(C);
    const int nc = std::min<int>(3, int(axes.cols()));
    Eigen::MatrixXd coords = Eigen::MatrixXd::Zero(Karms, 3), fc = Eigen::MatrixXd::Zero(1, 3);
    coords.leftCols(nc) = C * axes.leftCols(nc);
    const Eigen::RowVectorXd floorArm = m_P.floor.weights.transpose() * m_P.X;
    fc.leftCols(nc) = (floorArm - mean) * axes.leftCols(nc);
    m_doc.matrices[K::matrix::kArmCoords] =
        matrixOf(coords, numberedLabels("arm ", Karms), {"pc1", "pc2", "pc3"});
    m_doc.matrices[K::matrix::kFloorCoords] = matrixOf(fc, {"floor design mean"}, {"pc1", "pc2", "pc3"});
    for (LA a : allLinearAlgorithms()) {
        const std::string k = algorithmKey(a);
        const std::vector<double>& y = m_reward[a];
        std::vector<double> t(y.size());
        for (size_t i = 0; i < t.size(); ++i)
            t[i] = double(i + 1);
        m_doc.series[K::key(K::series::kExpectedRewardPrefix, k)] =
            seriesOf(t, y, "round t", "expected reward E[mu(x_t)]");
        m_doc.metrics[K::key(K::metric::kRegretPrefix, k)] = m_P.muStar - pMean(y, m_s.p);
        m_doc.series[K::key(K::series::kRegretVsPPrefix, k)] =
            seriesOf(m_sweepPs, m_regretVsP[a], "p", "p-mean regret R_p");
        m_doc.vectors[K::key(K::vector::kPullsPrefix, k)] = toStd(m_pulls[a]);
    }
    if (!m_slowTs.empty()) {
        Series s = seriesOf(m_slowTs, m_slowRegret[2], "horizon T (rounds)", "R_0 of FairLin-PE");
        m_doc.series[K::series::kSlowRegretVsT] = s;
    }
}

void FairRun::checkClaims() {
    const int r = m_P.design.rank;
    const double bound = r * (1 + m_s.designEps);
    m_doc.claims.push_back(
        claimOf(K::claim::kDesignOptimal, "Frank-Wolfe reaches a G-optimal design: g_max <= d(1 + eps).",
                m_P.design.gmax <= bound, m_P.design.gmax, bound,
                "max_i x_i^T V(lambda)^-1 x_i after " + std::to_string(m_P.design.iterations) +
                    " Frank-Wolfe steps, against d(1 + design_eps) with d = " + std::to_string(r)));
    const auto at = [this](LA a, double p) {
        for (size_t i = 0; i < m_sweepPs.size(); ++i)
            if (m_sweepPs[i] == p)
                return m_regretVsP[a][i];
        return kNaN;
    };
    // 1: p ∈ {0, −1}: FairLin-UCB ≤ LinUCB, FairLin-PE ≤ 1.05 LinNash (worst ratio over the two p).
    double worstUcb = 0, worstPe = 0;
    std::string detailUcb, detailPe;
    for (double p : {0.0, -1.0}) {
        const double u = at(LA::FairLinUcb, p) / at(LA::LinUcb, p);
        const double e = at(LA::FairLinPe, p) / at(LA::LinNash, p);
        worstUcb = std::max(worstUcb, u);
        worstPe = std::max(worstPe, e);
        detailUcb += "p = " + formatSignificant(p, 2) + ": " + formatSignificant(at(LA::FairLinUcb, p), 4) +
                     " vs " + formatSignificant(at(LA::LinUcb, p), 4) + "; ";
        detailPe += "p = " + formatSignificant(p, 2) + ": " + formatSignificant(at(LA::FairLinPe, p), 4) +
                    " vs " + formatSignificant(at(LA::LinNash, p), 4) + "; ";
    }
    const std::string runsText = std::to_string(m_runs) + " paired runs, T = " + std::to_string(m_s.T);
    m_doc.claims.push_back(claimOf(K::claim::kFairUcbBeatsUcb,
                                   "For p in {0, -1}, FairLin-UCB's p-mean regret is at most LinUCB's.",
                                   worstUcb <= 1.0, worstUcb, 1.0,
                                   "largest ratio R_p(FairLin-UCB)/R_p(LinUCB): " + detailUcb + runsText));
    m_doc.claims.push_back(
        claimOf(K::claim::kFairPeVsLinNash,
                "For p in {0, -1}, FairLin-PE's p-mean regret is at most 1.05 x LinNash's.", worstPe <= 1.05,
                worstPe, 1.05, "largest ratio R_p(FairLin-PE)/R_p(LinNash): " + detailPe + runsText));
    const double pu = at(LA::FairLinUcb, 1.0) / at(LA::LinUcb, 1.0);
    const double pp = at(LA::FairLinPe, 1.0) / at(LA::LinUcb, 1.0);
    m_doc.claims.push_back(claimOf(K::claim::kSmallPrice,
                                   "At p = 1 (average regret) FairLin costs at most 1.3 x LinUCB's regret.",
                                   std::max(pu, pp) <= 1.3, std::max(pu, pp), 1.3,
                                   "R_1 ratios to LinUCB: FairLin-UCB " + formatSignificant(pu, 3) +
                                       ", FairLin-PE " + formatSignificant(pp, 3) + "; " + runsText));
    if (!m_slowTs.empty()) {
        double worst = -1e300;
        std::string detail;
        for (size_t k = 0; k < kSweepP.size(); ++k) {
            const double sl = logLogSlope(m_slowTs, m_slowRegret[k]);
            worst = std::max(worst, std::isnan(sl) ? 1e300 : sl);
            detail += "p = " + formatSignificant(kSweepP[k], 2) + ": " + formatSignificant(sl, 3) + "; ";
        }
        m_doc.metrics[K::metric::kSlopeFairlinPe] = worst;
        m_doc.claims.push_back(
            claimOf(K::claim::kSublinear,
                    "FairLin-PE's p-mean regret grows sublinearly: log-log slope over T in "
                    "[1e3, 1e5] is at most 0.75 for every p.",
                    worst <= 0.75, worst, 0.75,
                    "largest least-squares slope of log R_p against log T: " + detail +
                        std::to_string(m_runs) + " runs per point"));
    }
}

} // namespace pl::bandits
