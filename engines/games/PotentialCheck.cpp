#include "PotentialCheck.h"

#include "core/Errors.h"
#include "core/RunContext.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace pl::games {

double potentialTolerance(double maxAbsPayoff, double relTol) {
    return relTol * std::max(1.0, maxAbsPayoff);
}

PotentialReport checkPotential(const Eigen::MatrixXd& A, const Eigen::MatrixXd& B, double relTol) {
    if (A.rows() != B.rows() || A.cols() != B.cols() || A.size() == 0)
        throw EngineError("potential test: payoff matrices must be non-empty and of equal shape");
    const int n = int(A.rows()), m = int(A.cols());
    std::vector<int> ns{n, m};
    std::vector<std::vector<double>> pay(2, std::vector<double>(size_t(n) * size_t(m)));
    for (int j = 0; j < m; ++j)
        for (int i = 0; i < n; ++i) {
            pay[0][size_t(i) + size_t(n) * size_t(j)] = A(i, j);
            pay[1][size_t(i) + size_t(n) * size_t(j)] = B(i, j);
        }
    PotentialReport r = checkPotential(ns, pay, relTol);
    if (r.isPotential) {
        r.phi.resize(n, m);
        for (int j = 0; j < m; ++j)
            for (int i = 0; i < n; ++i)
                r.phi(i, j) = r.phiFlat[size_t(i) + size_t(n) * size_t(j)];
    }
    return r;
}

PotentialReport checkPotential(const std::vector<int>& numStrategies,
                               const std::vector<std::vector<double>>& payoffs, double relTol,
                               const RunContext* ctx) {
    const int N = int(numStrategies.size());
    if (N < 1 || int(payoffs.size()) != N)
        throw EngineError("potential test: one payoff table per player is needed");
    std::vector<int64_t> stride(size_t(N) + 1, 1);
    for (int p = 0; p < N; ++p) {
        if (numStrategies[size_t(p)] < 1)
            throw EngineError("potential test: every player needs a strategy");
        stride[size_t(p) + 1] = stride[size_t(p)] * numStrategies[size_t(p)];
    }
    const int64_t P = stride[size_t(N)];
    double maxAbs = 0;
    for (const auto& u : payoffs) {
        if (int64_t(u.size()) != P)
            throw EngineError("potential test: payoff table size does not match the strategy counts");
        for (double v : u) {
            if (!std::isfinite(v))
                throw EngineError("potential test: non-finite payoff");
            maxAbs = std::max(maxAbs, std::abs(v));
        }
    }
    PotentialReport r;
    r.tolerance = potentialTolerance(maxAbs, relTol);
    auto strategyOf = [&](int64_t a, int p) {
        return int((a / stride[size_t(p)]) % numStrategies[size_t(p)]);
    };

    // Basis 4-cycles: for players p < q and a profile a with a_p, a_q >= 1, the cycle through
    // (0,0), (a_p,0), (a_p,a_q), (0,a_q) (others fixed) sums to the interaction contrast of
    // D = u_q - u_p. All of them vanish iff every 4-cycle does (iff an exact potential exists).
    int64_t worstProfile = -1;
    int worstP = -1, worstQ = -1;
    for (int p = 0; p < N; ++p)
        for (int q = p + 1; q < N; ++q) {
            const auto& up = payoffs[size_t(p)];
            const auto& uq = payoffs[size_t(q)];
            auto D = [&](int64_t a) { return uq[size_t(a)] - up[size_t(a)]; };
            for (int64_t a = 0; a < P; ++a) {
                if (ctx && (a & 0xFFFFF) == 0)
                    ctx->throwIfCancelled();
                const int ap = strategyOf(a, p), aq = strategyOf(a, q);
                if (ap == 0 || aq == 0)
                    continue;
                const int64_t a0q = a - int64_t(aq) * stride[size_t(q)]; // a_q -> 0
                const int64_t ap0 = a - int64_t(ap) * stride[size_t(p)]; // a_p -> 0
                const int64_t a00 = ap0 - int64_t(aq) * stride[size_t(q)];
                const double c = D(a) - D(a0q) - D(ap0) + D(a00);
                if (std::abs(c) > r.maxContrast) {
                    r.maxContrast = std::abs(c);
                    worstProfile = a;
                    worstP = p;
                    worstQ = q;
                }
            }
        }
    r.isPotential = r.maxContrast <= r.tolerance;
    char buf[320];
    if (!r.isPotential) {
        std::snprintf(
            buf, sizeof buf,
            "not an exact potential game: the 4-cycle of players %d and %d through strategies (1,1) and "
            "(%d,%d) sums to %.6g (tolerance %.3g)",
            worstP + 1, worstQ + 1, strategyOf(worstProfile, worstP) + 1,
            strategyOf(worstProfile, worstQ) + 1, r.maxContrast, r.tolerance);
        r.detail = buf;
        return r;
    }
    // Phi(a) = u_0(0) + sum_k [u_k(a_<=k, 0_>k) - u_k(a_<k, 0_>=k)]: Phi = u for identical interest.
    r.phiFlat.assign(size_t(P), 0.0);
    for (int64_t a = 0; a < P; ++a) {
        int64_t prefix = 0; // profile with a_<k and zeros from k on
        double phi = payoffs[0][0];
        for (int k = 0; k < N; ++k) {
            const int64_t next = prefix + int64_t(strategyOf(a, k)) * stride[size_t(k)];
            phi += payoffs[size_t(k)][size_t(next)] - payoffs[size_t(k)][size_t(prefix)];
            prefix = next;
        }
        r.phiFlat[size_t(a)] = phi;
    }
    // Direct check of the constructed potential on every unilateral deviation to strategy 0.
    for (int64_t a = 0; a < P; ++a)
        for (int k = 0; k < N; ++k) {
            const int ak = strategyOf(a, k);
            if (ak == 0)
                continue;
            const int64_t b = a - int64_t(ak) * stride[size_t(k)];
            const double du = payoffs[size_t(k)][size_t(a)] - payoffs[size_t(k)][size_t(b)];
            const double dphi = r.phiFlat[size_t(a)] - r.phiFlat[size_t(b)];
            r.maxDeviation = std::max(r.maxDeviation, std::abs(du - dphi));
        }
    std::snprintf(
        buf, sizeof buf,
        "exact potential game: every 4-cycle of unilateral deviations sums to at most %.3g (tolerance "
        "%.3g); the constructed potential matches every deviation within %.3g",
        r.maxContrast, r.tolerance, r.maxDeviation);
    r.detail = buf;
    return r;
}

} // namespace pl::games
