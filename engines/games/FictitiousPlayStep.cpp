#include "FictitiousPlay.h"

#include "core/Errors.h"
#include "core/Rng.h"
#include "core/RunContext.h"

#include <algorithm>
#include <cstdlib>
#include <numeric>

namespace pl::games {

TieBreak parseTieBreak(const std::string& text) {
    if (text == "lowest")
        return TieBreak::Lowest;
    if (text == "random")
        return TieBreak::Random;
    if (text == "adversarial")
        return TieBreak::Adversarial;
    throw UsageError("tie_break must be one of lowest|random|adversarial, got '" + text + "'");
}

namespace detail {

std::vector<int> tiePriorityOrder(int n, int target, TieBreak rule) {
    std::vector<int> order(static_cast<size_t>(n));
    std::iota(order.begin(), order.end(), 0);
    if (rule == TieBreak::Adversarial && target >= 0)
        std::stable_sort(order.begin(), order.end(),
                         [target](int a, int b) { return std::abs(a - target) > std::abs(b - target); });
    return order;
}

void checkOptions(const ExactPayoffs& g, const FpOptions& o) {
    if (g.rows < 1 || g.cols < 1 || g.a.size() != size_t(g.rows) * size_t(g.cols) || g.b.size() != g.a.size())
        throw EngineError("fictitious play: malformed payoff tables");
    if (o.firstRow < 0 || o.firstRow >= g.rows || o.firstCol < 0 || o.firstCol >= g.cols)
        throw UsageError("fictitious play: the first play is outside the game");
}

} // namespace detail

namespace {


template <class Acc> FpResult simulate(const ExactPayoffs& g, const FpOptions& o, RunContext* ctx) {
    const int n = g.rows, m = g.cols;
    // Row player's utility vector gains column j of a; the column player's gains row i of b.
    std::vector<Acc> colsOfA(size_t(n) * size_t(m)), rowsOfB(size_t(n) * size_t(m));
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < m; ++j) {
            colsOfA[size_t(j) * size_t(n) + size_t(i)] = Acc(g.aAt(i, j));
            rowsOfB[size_t(i) * size_t(m) + size_t(j)] = Acc(g.bAt(i, j));
        }
    const std::vector<int> orderX = detail::tiePriorityOrder(n, o.targetRow, o.tieBreak);
    const std::vector<int> orderY = detail::tiePriorityOrder(m, o.targetCol, o.tieBreak);
    Rng rng(o.seed);
    std::vector<Acc> Ux(static_cast<size_t>(n), Acc(0)), Uy(static_cast<size_t>(m), Acc(0));
    FpResult res;
    int i = o.firstRow, j = o.firstCol;
    FpPeriod cur{i, j, 0, 0};
    auto closePeriod = [&](UInt128 end) {
        cur.length = end - cur.start;
        if (res.periods.size() < o.maxPeriods)
            res.periods.push_back(cur);
        ++res.numPeriods;
    };
    const uint64_t maxSteps = uint64_t(o.maxSteps);
    uint64_t s = 0;
    for (;;) {
        if (i == o.targetRow && j == o.targetCol) {
            res.reached = true;
            break;
        }
        if (s == maxSteps) { // play s was the last one examined: count it and stop
            const Acc* ca = &colsOfA[size_t(j) * size_t(n)];
            const Acc* rb = &rowsOfB[size_t(i) * size_t(m)];
            for (int k = 0; k < n; ++k)
                Ux[size_t(k)] += ca[k];
            for (int k = 0; k < m; ++k)
                Uy[size_t(k)] += rb[k];
            ++s;
            break;
        }
        {
            const Acc* ca = &colsOfA[size_t(j) * size_t(n)];
            const Acc* rb = &rowsOfB[size_t(i) * size_t(m)];
            for (int k = 0; k < n; ++k)
                Ux[size_t(k)] += ca[k];
            for (int k = 0; k < m; ++k)
                Uy[size_t(k)] += rb[k];
        }
        ++s;
        if (ctx && (s & 0x3FFF) == 0) {
            ctx->throwIfCancelled();
            ctx->progress(double(s) / double(maxSteps), "fictitious play (step by step)");
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
    res.stretches = s;
    if (res.reached) {
        res.steps = s;
    } else {
        closePeriod(s);
        res.steps = maxSteps;
    }
    res.finalUx.assign(Ux.begin(), Ux.end());
    res.finalUy.assign(Uy.begin(), Uy.end());
    return res;
}

} // namespace

FpResult runFictitiousPlayStep(const ExactPayoffs& game, const FpOptions& opt, RunContext* ctx) {
    detail::checkOptions(game, opt);
    if (opt.maxSteps > UInt128(uint64_t(1) << 62))
        throw UsageError("step-by-step fictitious play: at most 2^62 steps");
    const double bound = (double(opt.maxSteps) + 2.0) * double(std::max<int64_t>(1, game.maxAbs()));
    if (bound < 4.0e18)
        return simulate<int64_t>(game, opt, ctx);
    return simulate<Int128>(game, opt, ctx);
}

} // namespace pl::games
