#include "FictitiousPlay.h"

#include "core/Errors.h"
#include "core/Rng.h"
#include "core/RunContext.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace pl::games {

namespace detail {
void checkOptions(const ExactPayoffs& g, const FpOptions& o);
}

namespace {

constexpr UInt128 kNever = ~UInt128(0);


/// Number of further plays of the current best response `cur` (payoff column `pay`, utilities U)
/// after which another strategy would be chosen (or, for Random, would tie). kNever if none.
UInt128 stretchLength(const std::vector<Int128>& U, const Int128* pay, int cur, const std::vector<int>& rank,
                      TieBreak rule) {
    UInt128 best = kNever;
    const int n = int(U.size());
    for (int k = 0; k < n; ++k) {
        if (k == cur)
            continue;
        const Int128 D = U[size_t(cur)] - U[size_t(k)]; // >= 0: cur is a maximiser
        const Int128 r = pay[k] - pay[cur];
        UInt128 steps;
        if (rule == TieBreak::Random) {
            if (r > 0)
                steps = UInt128(D <= 0 ? 1 : (D + r - 1) / r);
            else if (r == 0 && D == 0)
                steps = 1;
            else
                continue;
        } else {
            if (r <= 0)
                continue;
            const bool winsTies = rank[size_t(k)] < rank[size_t(cur)];
            steps = winsTies ? UInt128((D + r - 1) / r) : UInt128(D / r + 1);
            if (steps == 0)
                steps = 1;
        }
        if (steps < best)
            best = steps;
    }
    return best;
}

/// True when adding K * pay (|pay| <= payMax) to utilities bounded by `bound` (a running upper
/// bound on max |U|) stays below 2^123, far below the Int128 maximum. Checked in doubles with a
/// wide margin, so no 128-bit division or conversion per entry is needed.
bool fits(UInt128 K, double payMax, double bound) {
    return double(K) * payMax + bound < 1.0e37;
}

void addScaled(std::vector<Int128>& U, const Int128* pay, UInt128 K) {
    for (size_t i = 0; i < U.size(); ++i)
        U[i] += Int128(K) * pay[i];
}

} // namespace

FpResult runFictitiousPlayEvents(const ExactPayoffs& g, const FpOptions& o, RunContext* ctx) {
    detail::checkOptions(g, o);
    const int n = g.rows, m = g.cols;
    // colsOfA[j*n + i] = a(i,j): the row player's gain per play of column j; rowsOfB[i*m + j] =
    // b(i,j): the column player's gain per play of row i. colMaxA / rowMaxB: their largest |entry|.
    std::vector<Int128> colsOfA(size_t(n) * size_t(m)), rowsOfB(size_t(n) * size_t(m));
    std::vector<double> colMaxA(static_cast<size_t>(m), 0.0), rowMaxB(static_cast<size_t>(n), 0.0);
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < m; ++j) {
            colsOfA[size_t(j) * size_t(n) + size_t(i)] = g.aAt(i, j);
            rowsOfB[size_t(i) * size_t(m) + size_t(j)] = g.bAt(i, j);
            colMaxA[size_t(j)] = std::max(colMaxA[size_t(j)], std::abs(double(g.aAt(i, j))));
            rowMaxB[size_t(i)] = std::max(rowMaxB[size_t(i)], std::abs(double(g.bAt(i, j))));
        }
    auto colA = [&](int j) { return &colsOfA[size_t(j) * size_t(n)]; };
    auto rowB = [&](int i) { return &rowsOfB[size_t(i) * size_t(m)]; };
    double boundX = 0, boundY = 0; // upper bounds on max |Ux|, max |Uy|
    const std::vector<int> orderX = detail::tiePriorityOrder(n, o.targetRow, o.tieBreak);
    const std::vector<int> orderY = detail::tiePriorityOrder(m, o.targetCol, o.tieBreak);
    std::vector<int> rankX(static_cast<size_t>(n)), rankY(static_cast<size_t>(m));
    for (int t = 0; t < n; ++t)
        rankX[size_t(orderX[size_t(t)])] = t;
    for (int t = 0; t < m; ++t)
        rankY[size_t(orderY[size_t(t)])] = t;

    Rng rng(o.seed);
    std::vector<Int128> Ux(size_t(n), 0), Uy(size_t(m), 0);
    FpResult res;
    int i = o.firstRow, j = o.firstCol;
    UInt128 s = 0; // index of the current play
    FpPeriod cur{i, j, 0, 0};
    auto closePeriod = [&](UInt128 end) {
        cur.length = end - cur.start;
        if (res.periods.size() < o.maxPeriods)
            res.periods.push_back(cur);
        ++res.numPeriods;
    };
    const UInt128 maxSteps = o.maxSteps < (UInt128(1) << 126) ? o.maxSteps : (UInt128(1) << 126);
    const double logMax = double(maxSteps) + 1.0;
    for (;;) {
        if (i == o.targetRow && j == o.targetCol) {
            res.reached = true;
            res.steps = s;
            break;
        }
        ++res.stretches;
        if (ctx && (res.stretches & 0x3FF) == 0) {
            ctx->throwIfCancelled();
            ctx->progress(double(s) / logMax, "fictitious play (event driven)");
        }
        // Plays s, s+1, ..., s+K-1 are (i, j); play s+K is chosen afresh.
        UInt128 K;
        if (s == 0) {
            K = 1; // play 0 is given, not a best response
        } else {
            const UInt128 kx = stretchLength(Ux, colA(j), i, rankX, o.tieBreak);
            const UInt128 ky = stretchLength(Uy, rowB(i), j, rankY, o.tieBreak);
            K = kx < ky ? kx : ky;
        }
        const UInt128 remaining = maxSteps - s + 1; // plays s..maxSteps
        bool last = false;
        if (K >= remaining) {
            res.absorbing = (K == kNever);
            K = remaining;
            last = true;
        }
        if (!fits(K, colMaxA[size_t(j)], boundX) || !fits(K, rowMaxB[size_t(i)], boundY)) {
            res.overflow = true;
            res.steps = s;
            closePeriod(s);
            break;
        }
        addScaled(Ux, colA(j), K);
        addScaled(Uy, rowB(i), K);
        boundX += double(K) * colMaxA[size_t(j)];
        boundY += double(K) * rowMaxB[size_t(i)];
        s += K;
        if (last) {
            res.steps = maxSteps;
            closePeriod(s);
            break;
        }
        const int ni = detail::chooseBestResponse(Ux, orderX, o.tieBreak, rng);
        const int nj = detail::chooseBestResponse(Uy, orderY, o.tieBreak, rng);
        if (ni != i || nj != j) {
            closePeriod(s);
            cur = FpPeriod{ni, nj, s, 0};
            i = ni;
            j = nj;
        }
    }
    res.finalUx = Ux;
    res.finalUy = Uy;
    return res;
}

} // namespace pl::games
