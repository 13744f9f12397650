#include "TileSparseClaims.h"

#include "MlaWorkload.h"
#include "TileSparseKeys.h"
#include "core/Numeric.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <exception>
#include <limits>
#include <thread>

namespace pl::tilesparse {

namespace {
namespace C = tilesparse::keys::claim;
} // namespace

namespace {

constexpr double kClaimBudget = 0.05;
constexpr double kGainRatio = 1.2;
constexpr double kNoGainPoints = 0.02;
constexpr double kMlaIntensity = 483.6;
constexpr double kErrorGain = 0.05; // relative output-error reduction that counts as "lower"

} // namespace

Claim oracleClaim(const StudyResult& r) {
    Claim c;
    c.id = C::kC1Oracle2dDominates;
    c.statement =
        "With exact (oracle) importance, QK-2D global keeps at least as much attention mass as K-only at "
        "every budget, and uniform QK-2D keeps at least as much as K-only in every head group.";
    c.observed = std::min(r.c1GlobalMargin, r.c1GroupMargin);
    c.threshold = -1e-12;
    c.holds = c.observed >= c.threshold;
    c.detail = "Smallest margin over the swept budgets on the first held-out step: global minus K-only "
               "retained mass " +
               formatNumber("%.3g", r.c1GlobalMargin) +
               " (mean per row), uniform-2D minus K-only per group " + formatNumber("%.3g", r.c1GroupMargin) +
               " (summed over the group's rows). Forced sink/recent blocks count "
               "against the budget for all methods.";
    return c;
}

HeadSparsityOutcome headSparsityTrial(double specialisation, int seeds, const Poll& poll, int threads) {
    HeadSparsityOutcome out;
    out.budgets = {kClaimBudget, 0.10, 0.20};
    const size_t nB = out.budgets.size();
    out.errKOnly.assign(nB, 0.0);
    out.errQk2d.assign(nB, 0.0);
    std::vector<StudyResult> results(size_t(std::max(seeds, 0)));
    auto one = [&](int seed) {
        WorkloadSpec ws;
        ws.context = 2048;
        ws.specialisation = specialisation;
        ws.steps = 6;
        const Rng rng{static_cast<uint64_t>(seed)};
        Workload w = generateWorkload(ws, rng.fork("workload"));
        StudyInput in;
        in.K = std::move(w.K);
        in.V = std::move(w.V);
        in.calibQ = {w.Q[0], w.Q[1]};
        in.evalQ = {w.Q[2], w.Q[3], w.Q[4], w.Q[5]};
        in.heads = w.heads;
        in.mtpTokens = w.mtpTokens;
        StudySettings s;
        s.estimator = Estimator::Indexer;
        s.indexerRank = 16;
        s.budgets = out.budgets;
        s.displayBudget = kClaimBudget;
        s.oracleCheck = false;
        s.heldOutGrid = false;
        s.top1AllBudgets = false; // C2 reads top-1 agreement at 5 % only
        s.methods = {"k_only", "qk2d", "tiered"};
        results[size_t(seed - 1)] = runStudy(in, s, rng.fork("study"), poll);
    };
    // Seeds are independent studies; a worker pool only changes who computes which seed.
    const int nThreads = std::clamp(threads, 1, std::max(seeds, 1));
    if (nThreads <= 1) {
        for (int seed = 1; seed <= seeds; ++seed)
            one(seed);
    } else {
        std::atomic<int> next{1};
        std::vector<std::exception_ptr> errors(static_cast<size_t>(nThreads));
        std::vector<std::thread> pool;
        for (int t = 0; t < nThreads; ++t)
            pool.emplace_back([&, t] {
                try {
                    for (int seed = next++; seed <= seeds; seed = next++)
                        one(seed);
                } catch (...) {
                    errors[size_t(t)] = std::current_exception();
                    next = seeds + 1;
                }
            });
        for (auto& th : pool)
            th.join();
        for (const auto& e : errors)
            if (e)
                std::rethrow_exception(e);
    }
    for (const StudyResult& r : results) {
        for (size_t i = 0; i < nB; ++i) {
            out.errKOnly[i] += r.curves.at("k_only").error[i] / seeds;
            out.errQk2d[i] += r.curves.at("qk2d").error[i] / seeds;
        }
        out.tiered += r.curves.at("tiered").top1[0] / seeds;
        out.kOnly += r.curves.at("k_only").top1[0] / seeds;
        out.errTiered += r.curves.at("tiered").error[0] / seeds;
    }
    return out;
}

namespace {

/// 1 - err(QK-2D) / err(K-only) per claim budget.
std::vector<double> errorReduction(const HeadSparsityOutcome& o) {
    std::vector<double> r;
    for (size_t i = 0; i < o.budgets.size(); ++i)
        r.push_back(o.errKOnly[i] > 0 ? 1.0 - o.errQk2d[i] / o.errKOnly[i] : 0.0);
    return r;
}

std::string errorTable(const HeadSparsityOutcome& o) {
    std::string t;
    const auto red = errorReduction(o);
    for (size_t i = 0; i < o.budgets.size(); ++i)
        t += (i ? "; " : "") + formatNumber("%.0f %%: ", 100 * o.budgets[i]) + "K-only " +
             formatNumber("%.3f", o.errKOnly[i]) + ", QK-2D " + formatNumber("%.3f", o.errQk2d[i]) + " (" +
             formatNumber("%+.1f", -100 * red[i]) + " %)";
    return t;
}

} // namespace

std::vector<Claim> headSparsityClaims(int seeds, const Poll& poll, int threads) {
    const HeadSparsityOutcome hi = headSparsityTrial(0.8, seeds, poll, threads);
    const HeadSparsityOutcome lo = headSparsityTrial(0.0, seeds, poll, threads);
    const std::string setup =
        "Synthetic MLA workload H = 32, T_q = 2, N = 2048, d = 64, indexer r = 16, seeds 1.." +
        std::to_string(seeds) + " (4 held-out decode steps each, autotuner calibrated on 2 earlier steps). ";
    Claim a;
    a.id = C::kC2TieredGainWithHeadSparsity;
    a.statement =
        "Under a tight compute budget (5 %) with specialised heads (s = 0.8), tiered QK-2D with the "
        "autotuner reaches at least 1.2x the top-1 agreement of K-only selection.";
    a.threshold = kGainRatio;
    // K-only agreement floored at one token in 40 so that the ratio stays finite (a lower bound).
    a.observed = hi.tiered / std::max(hi.kOnly, 1.0 / (8.0 * seeds));
    a.holds = a.observed >= kGainRatio;
    a.detail = setup +
               "5 % of the head-group x key-block tiles. Top-1 agreement with dense attention: tiered " +
               formatNumber("%.3f", hi.tiered) + ", K-only " + formatNumber("%.3f", hi.kOnly) +
               "; relative output error tiered " + formatNumber("%.3f", hi.errTiered) + ", K-only " +
               formatNumber("%.3f", hi.errKOnly[0]) + ". Direction of the paper's gain, not its magnitude.";
    Claim b;
    b.id = C::kC2NoGainWithoutHeadSparsity;
    b.statement =
        "Without head specialisation (s = 0) the top-1 gap between tiered QK-2D and K-only is at most 2 "
        "points: the gain comes from head sparsity.";
    b.threshold = kNoGainPoints;
    b.observed = std::abs(lo.tiered - lo.kOnly);
    b.holds = b.observed <= kNoGainPoints;
    b.detail = setup + "5 % of the tiles, s = 0: top-1 agreement tiered " + formatNumber("%.3f", lo.tiered) +
               ", K-only " + formatNumber("%.3f", lo.kOnly) + "; relative output error tiered " +
               formatNumber("%.3f", lo.errTiered) + ", K-only " + formatNumber("%.3f", lo.errKOnly[0]) + ".";
    const auto redHi = errorReduction(hi), redLo = errorReduction(lo);
    Claim e;
    e.id = C::kQk2dLowerErrorWithHeadSpecialisation;
    e.statement =
        "At equal compute budget (5, 10 and 20 % of the head-group x key-block tiles), QK-2D selection "
        "(each head group its own top-k key blocks) has lower output error than K-only top-k on "
        "head-specialised attention (s = 0.8): at least 5 % lower relative output error at every "
        "budget.";
    e.threshold = kErrorGain;
    e.observed = *std::min_element(redHi.begin(), redHi.end());
    e.holds = e.observed >= kErrorGain;
    e.detail = setup +
               "Observed = smallest relative error reduction 1 - err(QK-2D)/err(K-only) over the "
               "budgets. Mean relative output error at s = 0.8: " +
               errorTable(hi) + ".";
    Claim f;
    f.id = C::kQk2dNoGainWithoutHeadSpecialisation;
    f.statement =
        "With head specialisation switched off (the same workload and seeds regenerated with s = 0), "
        "QK-2D does not have lower output error than K-only at equal compute: the relative error "
        "reduction stays below 5 % at every budget (5, 10, 20 %).";
    f.threshold = kErrorGain;
    f.observed = *std::max_element(redLo.begin(), redLo.end());
    f.holds = f.observed < kErrorGain;
    f.detail = setup +
               "Observed = largest relative error reduction over the budgets. Mean relative output "
               "error at s = 0 (re-run): " +
               errorTable(lo) + ".";
    return {a, b, e, f};
}

Claim autotunerClaim(const StudyResult& r) {
    Claim c;
    c.id = C::kAutotunerNeverWorseThanFixed;
    c.statement =
        "On the held-out decode steps, the autotuner's tiered pattern (chosen per budget on the "
        "calibration steps) never keeps less true attention mass than the best fixed pattern of its "
        "grid (one tier configuration used at every budget, picked in hindsight on the held-out "
        "steps).";
    c.threshold = 0.0;
    const auto& H = r.heldOutMass;
    if (H.empty() || r.tunerGrid.empty()) {
        c.observed = kNaN;
        c.holds = false;
        c.detail = "Not evaluated (no held-out scores).";
        return c;
    }
    size_t bestF = 0;
    double bestSum = -1;
    for (size_t f = 0; f < r.tunerGrid.size(); ++f) {
        double s = 0;
        for (const auto& row : H)
            s += row[f];
        if (s > bestSum + 1e-15) {
            bestSum = s;
            bestF = f;
        }
    }
    double minMargin = std::numeric_limits<double>::infinity(), minHindsight = minMargin;
    int worse = 0;
    size_t worstI = 0;
    for (size_t i = 0; i < H.size(); ++i) {
        const double tuned = H[i][size_t(r.chosenIndex[i])];
        const double margin = tuned - H[i][bestF];
        if (margin < minMargin) {
            minMargin = margin;
            worstI = i;
        }
        minHindsight = std::min(minHindsight, tuned - *std::max_element(H[i].begin(), H[i].end()));
        worse += margin < -1e-12 ? 1 : 0;
    }
    c.observed = minMargin;
    c.holds = worse == 0;
    const auto& tiered = r.curves.at("tiered").tileFraction;
    c.detail =
        "Held-out true retained mass (mean per row) of the autotuner's pick minus that of the best fixed "
        "configuration (" +
        r.tunerGrid[bestF].label() + ", " + std::to_string(r.tunerGrid.size()) +
        " configurations considered): smallest margin " + formatNumber("%.4g", minMargin) + " at budget " +
        formatNumber("%.3g", worstI < tiered.size() ? tiered[worstI] : 0.0) + "; worse at " +
        std::to_string(worse) + " of " + std::to_string(H.size()) +
        " budgets. Against the best configuration per budget in hindsight the smallest margin is " +
        formatNumber("%.4g", minHindsight) +
        " (the autotuner picks on the calibration steps by the exact mass its estimator-driven selections "
        "keep there; the held-out steps differ).";
    return c;
}

Claim intensityClaim(const Hardware& hw, double elemBytes, int mtpTokens, double crossoverBudget) {
    const double mla = denseIntensity(presetShape("mla_mtp2", mtpTokens, elemBytes));
    const double gqa = denseIntensity(presetShape("gqa", mtpTokens, elemBytes));
    Claim c;
    c.id = C::kC3MlaComputeBound;
    c.statement =
        "Dense MLA decoding with 2-token MTP has arithmetic intensity about 483.6 FLOP/byte (bf16), above "
        "the ridge point: it is compute-bound, while GQA (4 query heads per KV head) stays memory-bound "
        "at 4 T_q FLOP/byte.";
    c.threshold = kMlaIntensity;
    c.observed = mla;
    c.holds = std::abs(mla - kMlaIntensity) < 0.5 && mla > hw.ridge() && gqa < hw.ridge();
    c.detail =
        "Closed form R 2 (d_k + d_v) / (bytes per key): MLA+MTP2 " + formatNumber("%.1f", mla) + ", GQA " +
        formatNumber("%.1f", gqa) + " FLOP/byte (e = " + formatNumber("%.0f", elemBytes) + " bytes), ridge " +
        formatNumber("%.1f", hw.ridge()) +
        " FLOP/byte. In the selected cost preset, QK-2D (uniform) is compute-bound "
        "(modelled time equal to K-only's) from a budget of " +
        (std::isfinite(crossoverBudget) ? formatNumber("%.3g", crossoverBudget) : std::string("- (never)")) +
        " of the tiles upward.";
    return c;
}

} // namespace pl::tilesparse
