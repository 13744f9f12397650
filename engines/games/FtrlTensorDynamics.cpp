#include "FtrlTensorDynamics.h"

#include "Simplex.h"
#include "core/Errors.h"
#include "core/Numeric.h"
#include "core/RunContext.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace pl::games {

namespace {

struct Layout {
    int N = 0;
    int64_t P = 0;
    std::vector<int> n;
    std::vector<int64_t> stride;
    int strategy(int64_t a, int p) const { return int((a / stride[size_t(p)]) % n[size_t(p)]); }
};

/// u[p][k] = expected payoff of player p's strategy k against sigma_{-p}, for the players in `who`.
void utilities(const NormalFormGame& g, const Layout& L, const std::vector<Eigen::VectorXd>& sigma,
               const std::vector<int>& who, std::vector<Eigen::VectorXd>& u, const RunContext* ctx) {
    for (int p : who)
        u[size_t(p)].setZero();
    std::vector<int> a(size_t(L.N), 0);
    for (int64_t idx = 0; idx < L.P; ++idx) {
        if (ctx && (idx & 0xFFFFF) == 0xFFFFF)
            ctx->throwIfCancelled();
        for (int p : who) {
            double w = 1.0;
            for (int q = 0; q < L.N && w != 0.0; ++q)
                if (q != p)
                    w *= sigma[size_t(q)](a[size_t(q)]);
            if (w != 0.0)
                u[size_t(p)](a[size_t(p)]) += w * g.payoffs[size_t(p)][size_t(idx)];
        }
        for (int q = 0; q < L.N; ++q) { // odometer, player 0 fastest
            if (++a[size_t(q)] < L.n[size_t(q)])
                break;
            a[size_t(q)] = 0;
        }
    }
}

double expectedOver(const std::vector<double>& values, const Layout& L,
                    const std::vector<Eigen::VectorXd>& sigma) {
    double total = 0;
    std::vector<int> a(size_t(L.N), 0);
    for (int64_t idx = 0; idx < L.P; ++idx) {
        double w = 1.0;
        for (int q = 0; q < L.N && w != 0.0; ++q)
            w *= sigma[size_t(q)](a[size_t(q)]);
        total += w * values[size_t(idx)];
        for (int q = 0; q < L.N; ++q) {
            if (++a[size_t(q)] < L.n[size_t(q)])
                break;
            a[size_t(q)] = 0;
        }
    }
    return total;
}

void softmaxScaled(const Eigen::VectorXd& U, double scale, Eigen::VectorXd& out) {
    const double m = U.maxCoeff();
    double sum = 0;
    for (Eigen::Index k = 0; k < U.size(); ++k) {
        const double z = scale * (U(k) - m);
        out(k) = z < -300.0 ? 0.0 : std::exp(z);
        sum += out(k);
    }
    out /= sum;
}

Layout layoutOf(const NormalFormGame& g) {
    Layout L;
    L.N = g.numPlayers();
    L.n = g.numStrategies;
    L.stride.assign(size_t(L.N) + 1, 1);
    for (int p = 0; p < L.N; ++p)
        L.stride[size_t(p) + 1] = L.stride[size_t(p)] * L.n[size_t(p)];
    L.P = L.stride[size_t(L.N)];
    return L;
}

/// The players' strategies, cumulative and current utilities, and time averages.
struct TensorState {
    std::vector<Eigen::VectorXd> sigma, U, u, avg;
};

TensorState initialState(const Layout& L, const FtrlConfig& c) {
    TensorState st;
    st.sigma.resize(size_t(L.N));
    st.U.resize(size_t(L.N));
    st.u.resize(size_t(L.N));
    st.avg.resize(size_t(L.N));
    for (int p = 0; p < L.N; ++p) {
        const int np = L.n[size_t(p)];
        st.sigma[size_t(p)] = Eigen::VectorXd::Zero(np);
        if (c.startPure) {
            const int first = p == 0 ? c.firstRow : (p == 1 ? c.firstCol : 0);
            st.sigma[size_t(p)](std::clamp(first, 0, np - 1)) = 1.0;
        } else {
            st.sigma[size_t(p)].setConstant(1.0 / np);
        }
        st.U[size_t(p)] = Eigen::VectorXd::Zero(np);
        st.u[size_t(p)] = Eigen::VectorXd::Zero(np);
        st.avg[size_t(p)] = Eigen::VectorXd::Zero(np);
    }
    return st;
}

/// One player's FTRL update of strategy \a s from cumulative utility \a U and this step's \a u.
void updatePlayer(const FtrlConfig& c, Eigen::VectorXd& U, const Eigen::VectorXd& u, Eigen::VectorXd& s,
                  double eta) {
    switch (c.dynamics) {
    case FtrlDynamicsKind::Entropic:
        U += u;
        softmaxScaled(U, eta, s);
        break;
    case FtrlDynamicsKind::Mwu:
        U += eta * u;
        softmaxScaled(U, 1.0, s);
        break;
    case FtrlDynamicsKind::Euclidean: {
        U += u;
        const Eigen::VectorXd v = eta * (U.array() - U.maxCoeff()).matrix();
        projectSimplex(v, s);
        break;
    }
    case FtrlDynamicsKind::FictitiousPlay: {
        U += u;
        int k = 0; // lowest index among the maximisers
        for (int j = 1; j < int(s.size()); ++j)
            if (U(j) > U(k))
                k = j;
        s.setZero();
        s(k) = 1.0;
        break;
    }
    }
}

/// Appends step \a t to the trace: gap, potential, target mass, projected strategies and period.
void recordStep(FtrlTensorTrace& tr, const Layout& L, const FtrlConfig& c, const TensorState& st,
                const std::vector<double>* phiFlat, bool hasTarget, double mass, double gap, int64_t t) {
    tr.step.push_back(double(t));
    tr.gap.push_back(gap);
    tr.potential.push_back(phiFlat ? expectedOver(*phiFlat, L, st.sigma) : kNaN);
    tr.massTarget.push_back(hasTarget ? mass : kNaN);
    double top = 1.0;
    int64_t flat = 0;
    for (int p = 0; p < L.N; ++p) {
        Eigen::Index k = 0;
        top *= st.sigma[size_t(p)].maxCoeff(&k);
        flat += int64_t(k) * L.stride[size_t(p)];
        const int np = L.n[size_t(p)];
        double mean = 0;
        for (int s = 0; s < np; ++s)
            mean += double(s) * st.sigma[size_t(p)](s);
        tr.projected[size_t(p)].push_back(np < 2 ? 1.0 : 1.0 - mean / double(np - 1));
    }
    tr.period.push_back(top >= 1.0 - c.tau ? flat : -1);
}

} // namespace

std::vector<int> bestPureNashTensor(const NormalFormGame& g) {
    const Layout L = layoutOf(g);
    int64_t best = -1;
    double bestSum = -std::numeric_limits<double>::infinity();
    for (int64_t a = 0; a < L.P; ++a) {
        bool ne = true;
        for (int p = 0; p < L.N && ne; ++p) {
            const int ap = L.strategy(a, p);
            const int64_t base = a - int64_t(ap) * L.stride[size_t(p)];
            for (int k = 0; k < L.n[size_t(p)] && ne; ++k)
                ne = g.payoffs[size_t(p)][size_t(base + k * L.stride[size_t(p)])] <=
                     g.payoffs[size_t(p)][size_t(a)];
        }
        if (!ne)
            continue;
        double s = 0;
        for (int p = 0; p < L.N; ++p)
            s += g.payoffs[size_t(p)][size_t(a)];
        if (s > bestSum) {
            bestSum = s;
            best = a;
        }
    }
    if (best < 0)
        return {};
    std::vector<int> prof(size_t(L.N));
    for (int p = 0; p < L.N; ++p)
        prof[size_t(p)] = L.strategy(best, p);
    return prof;
}

FtrlTensorTrace runFtrlTensor(const NormalFormGame& g, const FtrlConfig& c,
                              const std::vector<double>* phiFlat, const std::vector<int>* target,
                              RunContext* ctx) {
    if (g.numPlayers() < 2)
        throw UsageError("ftrl: a game needs at least two players");
    const Layout L = layoutOf(g);
    if (phiFlat && int64_t(phiFlat->size()) != L.P)
        throw EngineError("ftrl: potential has the wrong size");
    if (!(c.eta > 0) || c.maxSteps < 0)
        throw UsageError("ftrl: eta must be positive and max_steps >= 0");
    const bool hasTarget = target && int(target->size()) == L.N;

    TensorState st = initialState(L, c);
    std::vector<Eigen::VectorXd>& sigma = st.sigma;
    std::vector<Eigen::VectorXd>& u = st.u;
    std::vector<Eigen::VectorXd>& avg = st.avg;
    std::vector<int> everyone(size_t(L.N));
    for (int p = 0; p < L.N; ++p)
        everyone[size_t(p)] = p;

    FtrlTensorTrace tr;
    tr.projected.assign(size_t(L.N), {});
    const double factor = std::pow(10.0, 1.0 / std::max(1, c.pointsPerDecade));
    int64_t nextRecord = 0;
    const double flops = double(L.N) * double(L.N) * double(L.P) * 2.0;
    int64_t mask = 1;
    while (mask * 2 <= std::max<int64_t>(1, int64_t(double(1 << 20) / flops)))
        mask *= 2;
    --mask;
    auto update = [&](int p, double eta) {
        updatePlayer(c, st.U[size_t(p)], u[size_t(p)], sigma[size_t(p)], eta);
    };

    double gap = 0;
    int64_t t = 0;
    for (;; ++t) {
        utilities(g, L, sigma, everyone, u, ctx);
        gap = 0;
        for (int p = 0; p < L.N; ++p)
            gap = std::max(gap, u[size_t(p)].maxCoeff() - sigma[size_t(p)].dot(u[size_t(p)]));
        double mass = 1.0;
        for (int p = 0; p < L.N; ++p) {
            avg[size_t(p)] += (sigma[size_t(p)] - avg[size_t(p)]) / double(t + 1);
            if (hasTarget)
                mass *= sigma[size_t(p)]((*target)[size_t(p)]);
        }
        if (gap <= c.epsilon && tr.firstEpsilonStep < 0)
            tr.firstEpsilonStep = t;
        if (hasTarget && mass >= 1.0 - c.tau && tr.firstTargetStep < 0)
            tr.firstTargetStep = t;
        const bool last = t == c.maxSteps || (c.stopAtTarget && tr.firstTargetStep >= 0);
        if (c.record && (t == nextRecord || last)) {
            nextRecord = t < 10 ? t + 1 : std::max<int64_t>(t + 1, int64_t(std::floor(double(t) * factor)));
            recordStep(tr, L, c, st, phiFlat, hasTarget, mass, gap, t);
        }
        if (last)
            break;
        if (ctx && (t & mask) == 0) {
            ctx->throwIfCancelled();
            ctx->progress(double(t) / double(std::max<int64_t>(1, c.maxSteps)), "FTRL (N players)");
        }
        const double eta = c.schedule == FtrlSchedule::Constant ? c.eta : c.eta / std::sqrt(double(t + 1));
        if (c.update == FtrlUpdate::Simultaneous) {
            for (int p = 0; p < L.N; ++p)
                update(p, eta);
        } else {
            for (int p = 0; p < L.N; ++p) {
                if (p > 0)
                    utilities(g, L, sigma, std::vector<int>{p}, u, ctx);
                update(p, eta);
            }
        }
    }
    tr.stepsRun = t;
    tr.finalGap = gap;
    tr.final = sigma;
    tr.average = avg;
    return tr;
}

} // namespace pl::games
