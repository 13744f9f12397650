#include "FtrlDynamics.h"

#include "Simplex.h"
#include "core/Errors.h"
#include "core/Numeric.h"
#include "core/Rng.h"
#include "core/RunContext.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace pl::games {

FtrlDynamicsKind parseFtrlDynamics(const std::string& text) {
    if (text == "ftrl_entropic")
        return FtrlDynamicsKind::Entropic;
    if (text == "ftrl_euclidean")
        return FtrlDynamicsKind::Euclidean;
    if (text == "mwu")
        return FtrlDynamicsKind::Mwu;
    if (text == "fictitious_play")
        return FtrlDynamicsKind::FictitiousPlay;
    throw UsageError("dynamics must be one of ftrl_entropic|ftrl_euclidean|mwu|fictitious_play, got '" +
                     text + "'");
}

FtrlUpdate parseFtrlUpdate(const std::string& text) {
    if (text == "simultaneous")
        return FtrlUpdate::Simultaneous;
    if (text == "alternating")
        return FtrlUpdate::Alternating;
    throw UsageError("update must be one of simultaneous|alternating, got '" + text + "'");
}

FtrlSchedule parseFtrlSchedule(const std::string& text) {
    if (text == "constant")
        return FtrlSchedule::Constant;
    if (text == "vanishing")
        return FtrlSchedule::Vanishing;
    throw UsageError("schedule must be one of constant|vanishing, got '" + text + "'");
}

double nashGapFromProducts(const Eigen::VectorXd& x, const Eigen::VectorXd& y, const Eigen::VectorXd& Ay,
                           const Eigen::VectorXd& BtX) {
    const double gx = Ay.maxCoeff() - x.dot(Ay);
    const double gy = BtX.maxCoeff() - y.dot(BtX);
    return std::max(0.0, std::max(gx, gy));
}

namespace {

/// out = softmax(scale * v), stable; entries whose exponent is below -300 (relative weight
/// < 1e-130) are set to exactly 0 (avoids slow denormal arithmetic further on).
void softmaxInto(const double* v, int n, double scale, double* out) {
    double m = v[0];
    for (int k = 1; k < n; ++k)
        m = v[k] > m ? v[k] : m;
    double sum = 0;
    for (int k = 0; k < n; ++k) {
        const double z = scale * (v[k] - m);
        const double e = z < -300.0 ? 0.0 : std::exp(z);
        out[k] = e;
        sum += e;
    }
    const double inv = 1.0 / sum;
    for (int k = 0; k < n; ++k)
        out[k] *= inv;
}

/// out = M v for a column-major rows x cols matrix: plain loops for tiny matrices (a library
/// call costs more than the work there), Eigen's vectorised kernel from 64 entries on.
void gemvInto(const double* M, int rows, int cols, const double* v, double* out) {
    if (rows * cols >= 64) {
        Eigen::Map<Eigen::VectorXd>(out, rows).noalias() =
            Eigen::Map<const Eigen::MatrixXd>(M, rows, cols) * Eigen::Map<const Eigen::VectorXd>(v, cols);
        return;
    }
    for (int i = 0; i < rows; ++i)
        out[i] = 0;
    for (int j = 0; j < cols; ++j) {
        const double vj = v[j];
        if (vj == 0.0)
            continue;
        const double* col = M + size_t(j) * size_t(rows);
        for (int i = 0; i < rows; ++i)
            out[i] += col[i] * vj;
    }
}

/// max_k u_k - p . u
double regret(const double* p, const double* u, int n) {
    double best = u[0], val = 0;
    for (int k = 0; k < n; ++k) {
        best = u[k] > best ? u[k] : best;
        val += p[k] * u[k];
    }
    return best - val;
}

/// Best response under a tie rule: scan in priority order (strict improvement), or draw among
/// the maximisers (Random). Same rule as the exact simulators in FictitiousPlay.h.
int chooseBest(const Eigen::VectorXd& v, const std::vector<int>& order, TieBreak rule, Rng& rng) {
    const int n = int(v.size());
    if (rule != TieBreak::Random) {
        int best = order[0];
        for (int t = 1; t < n; ++t)
            if (v(order[size_t(t)]) > v(best))
                best = order[size_t(t)];
        return best;
    }
    int best = 0, ties = 1;
    for (int k = 1; k < n; ++k) {
        if (v(k) > v(best)) {
            best = k;
            ties = 1;
        } else if (v(k) == v(best)) {
            ++ties;
        }
    }
    if (ties == 1)
        return best;
    uint64_t pick = rng.uniformInt(uint64_t(ties));
    for (int k = best; k < n; ++k)
        if (v(k) == v(best) && pick-- == 0)
            return k;
    return best;
}

/// Polling interval (a power of two minus one) so that about 2^20 flops pass between polls.
int64_t pollMask(int64_t flopsPerStep) {
    int64_t steps = std::max<int64_t>(1, (int64_t(1) << 20) / std::max<int64_t>(1, flopsPerStep));
    int64_t mask = 1;
    while (mask * 2 <= steps)
        mask *= 2;
    return mask - 1;
}

class Recorder {
public:
    Recorder(const FtrlGame& g, const FtrlConfig& c, const Eigen::MatrixXd* phi, FtrlTrace& tr)
        : m_game(g), m_cfg(c), m_phi(phi), m_trace(tr),
          m_keepFull(g.rows() <= c.maxRecordedStrategies && g.cols() <= c.maxRecordedStrategies),
          m_factor(std::pow(10.0, 1.0 / std::max(1, c.pointsPerDecade))) {}

    bool due(int64_t t) const { return m_cfg.record && t == m_next; }

    void record(int64_t t, const Eigen::VectorXd& x, const Eigen::VectorXd& y, double gap,
                const Eigen::VectorXd& xAvg, const Eigen::VectorXd& yAvg) {
        m_next = t < 10 ? t + 1 : std::max<int64_t>(t + 1, int64_t(std::floor(double(t) * m_factor)));
        if (!m_cfg.record || (!m_trace.step.empty() && m_trace.step.back() == double(t)))
            return;
        FtrlTrace& tr = m_trace;
        tr.step.push_back(double(t));
        tr.gap.push_back(gap);
        const Eigen::VectorXd Ay = m_game.A * yAvg;
        const Eigen::VectorXd BtX = m_game.B.transpose() * xAvg;
        tr.gapAverage.push_back(nashGapFromProducts(xAvg, yAvg, Ay, BtX));
        tr.potential.push_back(m_phi ? x.dot(*m_phi * y) : kNaN);
        const bool hasTarget = m_game.targetRow >= 0 && m_game.targetCol >= 0;
        tr.massTarget.push_back(hasTarget ? x(m_game.targetRow) * y(m_game.targetCol) : kNaN);
        tr.trajX.push_back(projected(x));
        tr.trajY.push_back(projected(y));
        Eigen::Index i = 0, j = 0;
        const double mx = x.maxCoeff(&i), my = y.maxCoeff(&j);
        tr.period.push_back(mx * my >= 1.0 - m_cfg.tau ? int64_t(i) * m_game.cols() + int64_t(j) : -1);
        if (m_keepFull) {
            tr.xs.push_back(x);
            tr.ys.push_back(y);
        }
    }

private:
    static double projected(const Eigen::VectorXd& p) {
        const Eigen::Index n = p.size();
        if (n < 2)
            return 1.0;
        double mean = 0;
        for (Eigen::Index k = 0; k < n; ++k)
            mean += double(k) * p(k);
        return 1.0 - mean / double(n - 1);
    }

    const FtrlGame& m_game;
    const FtrlConfig& m_cfg;
    const Eigen::MatrixXd* m_phi;
    FtrlTrace& m_trace;
    bool m_keepFull;
    double m_factor;
    int64_t m_next = 0;
};

void checkConfig(const FtrlGame& g, const FtrlConfig& c, const Eigen::MatrixXd* phi) {
    if (g.rows() < 1 || g.cols() < 1 || g.A.rows() != g.B.rows() || g.A.cols() != g.B.cols())
        throw EngineError("ftrl: malformed game");
    if (!(c.eta > 0) || !std::isfinite(c.eta))
        throw UsageError("ftrl: eta must be positive and finite");
    if (c.maxSteps < 0)
        throw UsageError("ftrl: max_steps must be >= 0");
    if (c.firstRow < 0 || c.firstRow >= g.rows() || c.firstCol < 0 || c.firstCol >= g.cols())
        throw UsageError("ftrl: the first play is outside the game");
    if (phi && (phi->rows() != g.rows() || phi->cols() != g.cols()))
        throw EngineError("ftrl: potential has the wrong shape");
}

/// Fictitious play on pure plays: O(rows + cols) per step, exact for integer payoffs.
FtrlTrace runFictitious(const FtrlGame& g, const FtrlConfig& c, const Eigen::MatrixXd* phi, RunContext* ctx) {
    const int n = g.rows(), m = g.cols();
    // Utilities accumulate integers when the payoffs are exact and small enough (exact in doubles).
    Eigen::MatrixXd Au = g.A, Bu = g.B;
    if (g.exact && (double(c.maxSteps) + 2) * double(std::max<int64_t>(1, g.exact->maxAbs())) < 9.0e15)
        for (int i = 0; i < n; ++i)
            for (int j = 0; j < m; ++j) {
                Au(i, j) = double(g.exact->aAt(i, j));
                Bu(i, j) = double(g.exact->bAt(i, j));
            }
    const Eigen::MatrixXd AuT = Au.transpose(); // row j = column j of A: contiguous
    const Eigen::VectorXd colMaxA = g.A.colwise().maxCoeff().transpose();
    const Eigen::VectorXd rowMaxB = g.B.rowwise().maxCoeff();
    FtrlTrace tr;
    Recorder rec(g, c, phi, tr);
    Eigen::VectorXd Ux = Eigen::VectorXd::Zero(n), Uy = Eigen::VectorXd::Zero(m);
    std::vector<int64_t> countX(size_t(n), 0), countY(size_t(m), 0);
    int i = c.firstRow, j = c.firstCol;
    const int64_t mask = pollMask(4 * (n + m));
    const std::vector<int> orderX = detail::tiePriorityOrder(n, g.targetRow, c.tieBreak);
    const std::vector<int> orderY = detail::tiePriorityOrder(m, g.targetCol, c.tieBreak);
    Rng rng(c.seed);
    auto mixed = [](int k, int size) {
        Eigen::VectorXd v = Eigen::VectorXd::Zero(size);
        v(k) = 1.0;
        return v;
    };
    auto averages = [&](int64_t t, Eigen::VectorXd& xa, Eigen::VectorXd& ya) {
        xa.resize(n);
        ya.resize(m);
        for (int k = 0; k < n; ++k)
            xa(k) = double(countX[size_t(k)]) / double(t + 1);
        for (int k = 0; k < m; ++k)
            ya(k) = double(countY[size_t(k)]) / double(t + 1);
    };
    double gap = 0;
    int64_t t = 0;
    for (;; ++t) {
        ++countX[size_t(i)];
        ++countY[size_t(j)];
        gap = std::max(colMaxA(j) - g.A(i, j), rowMaxB(i) - g.B(i, j));
        if (gap <= c.epsilon && tr.firstEpsilonStep < 0)
            tr.firstEpsilonStep = t;
        if (i == g.targetRow && j == g.targetCol && tr.firstTargetStep < 0)
            tr.firstTargetStep = t;
        const bool last = t == c.maxSteps || (c.stopAtTarget && tr.firstTargetStep >= 0);
        if (rec.due(t) || (last && c.record)) {
            Eigen::VectorXd xa, ya;
            averages(t, xa, ya);
            rec.record(t, mixed(i, n), mixed(j, m), gap, xa, ya);
        }
        if (last)
            break;
        if ((t & mask) == 0 && ctx) {
            ctx->throwIfCancelled();
            ctx->progress(double(t) / double(c.maxSteps), "fictitious play");
        }
        Ux += AuT.row(j).transpose();
        const int ni = chooseBest(Ux, orderX, c.tieBreak, rng);
        if (c.update == FtrlUpdate::Alternating) {
            Uy += Bu.row(ni).transpose();
        } else {
            Uy += Bu.row(i).transpose();
        }
        j = chooseBest(Uy, orderY, c.tieBreak, rng);
        i = ni;
    }
    tr.stepsRun = t;
    tr.x = mixed(i, n);
    tr.y = mixed(j, m);
    averages(t, tr.xAverage, tr.yAverage);
    tr.finalGap = gap;
    const Eigen::VectorXd Ay = g.A * tr.yAverage;
    const Eigen::VectorXd BtX = g.B.transpose() * tr.xAverage;
    tr.finalGapAverage = nashGapFromProducts(tr.xAverage, tr.yAverage, Ay, BtX);
    return tr;
}

} // namespace

FtrlTrace runFtrl(const FtrlGame& g, const FtrlConfig& c, const Eigen::MatrixXd* phi, RunContext* ctx) {
    checkConfig(g, c, phi);
    if (c.dynamics == FtrlDynamicsKind::FictitiousPlay)
        return runFictitious(g, c, phi, ctx);
    const int n = g.rows(), m = g.cols();
    const Eigen::MatrixXd& A = g.A;
    const Eigen::MatrixXd Bt = g.B.transpose();
    FtrlTrace tr;
    Recorder rec(g, c, phi, tr);
    Eigen::VectorXd x = Eigen::VectorXd::Zero(n), y = Eigen::VectorXd::Zero(m);
    if (c.startPure) {
        x(c.firstRow) = 1;
        y(c.firstCol) = 1;
    } else {
        x.setConstant(1.0 / n);
        y.setConstant(1.0 / m);
    }
    // Cumulative utilities (or eta-weighted sums for MWU), current payoff vectors, scratch.
    Eigen::VectorXd Ux = Eigen::VectorXd::Zero(n), Uy = Eigen::VectorXd::Zero(m);
    Eigen::VectorXd Ay(n), BtX(m), tmp(std::max(n, m));
    gemvInto(A.data(), n, m, y.data(), Ay.data());
    gemvInto(Bt.data(), m, n, x.data(), BtX.data());
    Eigen::VectorXd xAvg = Eigen::VectorXd::Zero(n), yAvg = Eigen::VectorXd::Zero(m);
    const bool hasTarget = g.targetRow >= 0 && g.targetCol >= 0;
    const int64_t mask = pollMask(4 * int64_t(n) * m + 40 * (n + m));

    auto update = [&](Eigen::VectorXd& U, const Eigen::VectorXd& u, double eta, Eigen::VectorXd& p) {
        const int k = int(U.size());
        switch (c.dynamics) {
        case FtrlDynamicsKind::Entropic:
            U += u;
            softmaxInto(U.data(), k, eta, p.data());
            break;
        case FtrlDynamicsKind::Mwu:
            U += eta * u;
            softmaxInto(U.data(), k, 1.0, p.data());
            break;
        case FtrlDynamicsKind::Euclidean: {
            U += u;
            const double mx = U.maxCoeff();
            auto t = tmp.head(k);
            t = eta * (U.array() - mx).matrix();
            projectSimplex(t, p);
            break;
        }
        case FtrlDynamicsKind::FictitiousPlay:
            break;
        }
    };

    double gap = 0;
    int64_t t = 0;
    for (;; ++t) {
        gap = std::max(0.0, std::max(regret(x.data(), Ay.data(), n), regret(y.data(), BtX.data(), m)));
        const double inv = 1.0 / double(t + 1);
        xAvg += (x - xAvg) * inv;
        yAvg += (y - yAvg) * inv;
        if (gap <= c.epsilon && tr.firstEpsilonStep < 0)
            tr.firstEpsilonStep = t;
        if (hasTarget && tr.firstTargetStep < 0 && x(g.targetRow) * y(g.targetCol) >= 1.0 - c.tau)
            tr.firstTargetStep = t;
        const bool last = t == c.maxSteps || (c.stopAtTarget && tr.firstTargetStep >= 0);
        if (rec.due(t) || (last && c.record))
            rec.record(t, x, y, gap, xAvg, yAvg);
        if (last)
            break;
        if ((t & mask) == 0 && ctx) {
            ctx->throwIfCancelled();
            ctx->progress(double(t) / double(c.maxSteps), "FTRL");
        }
        const double eta = c.schedule == FtrlSchedule::Constant ? c.eta : c.eta / std::sqrt(double(t + 1));
        if (c.update == FtrlUpdate::Simultaneous) {
            update(Ux, Ay, eta, x);
            update(Uy, BtX, eta, y);
            gemvInto(Bt.data(), m, n, x.data(), BtX.data());
            gemvInto(A.data(), n, m, y.data(), Ay.data());
        } else {
            update(Ux, Ay, eta, x);
            gemvInto(Bt.data(), m, n, x.data(), BtX.data());
            update(Uy, BtX, eta, y);
            gemvInto(A.data(), n, m, y.data(), Ay.data());
        }
    }
    tr.stepsRun = t;
    tr.x = x;
    tr.y = y;
    tr.xAverage = xAvg;
    tr.yAverage = yAvg;
    tr.finalGap = gap;
    const Eigen::VectorXd Aya = A * yAvg, BtXa = Bt * xAvg;
    tr.finalGapAverage = nashGapFromProducts(xAvg, yAvg, Aya, BtXa);
    return tr;
}

} // namespace pl::games
