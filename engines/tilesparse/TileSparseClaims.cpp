#include "TileSparseClaims.h"

#include "MlaWorkload.h"

#include <cmath>
#include <cstdio>

namespace pl::tilesparse {

namespace {

std::string fmt(const char* f, double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, f, v);
    return buf;
}

constexpr double kClaimBudget = 0.05;
constexpr double kGainRatio = 1.2;
constexpr double kNoGainPoints = 0.02;
constexpr double kMlaIntensity = 483.6;

} // namespace

Claim oracleClaim(const StudyResult& r) {
    Claim c;
    c.id = "c1-oracle-2d-dominates";
    c.statement =
        "With exact (oracle) importance, QK-2D global keeps at least as much attention mass as K-only at "
        "every budget, and uniform QK-2D keeps at least as much as K-only in every head group.";
    c.observed = std::min(r.c1GlobalMargin, r.c1GroupMargin);
    c.threshold = -1e-12;
    c.holds = c.observed >= c.threshold;
    c.detail = "Smallest margin over the swept budgets on the first held-out step: global minus K-only "
               "retained mass " +
               fmt("%.3g", r.c1GlobalMargin) + " (mean per row), uniform-2D minus K-only per group " +
               fmt("%.3g", r.c1GroupMargin) +
               " (summed over the group's rows). Forced sink/recent blocks count "
               "against the budget for all methods.";
    return c;
}

HeadSparsityOutcome headSparsityTrial(double specialisation, int seeds, const Poll& poll) {
    HeadSparsityOutcome out;
    for (int seed = 1; seed <= seeds; ++seed) {
        WorkloadSpec ws;
        ws.context = 2048;
        ws.specialisation = specialisation;
        ws.steps = 6;
        const Rng rng{static_cast<uint64_t>(seed)};
        Workload w = generateWorkload(ws, rng.fork("workload"));
        StudyInput in;
        in.K = w.K;
        in.V = w.V;
        in.calibQ = {w.Q[0], w.Q[1]};
        in.evalQ = {w.Q[2], w.Q[3], w.Q[4], w.Q[5]};
        in.heads = w.heads;
        in.mtpTokens = w.mtpTokens;
        StudySettings s;
        s.estimator = Estimator::Indexer;
        s.indexerRank = 16;
        s.budgets = {kClaimBudget};
        s.displayBudget = kClaimBudget;
        s.oracleCheck = false;
        const StudyResult r = runStudy(in, s, rng.fork("study"), poll);
        out.tiered += r.curves.at("tiered").top1[0] / seeds;
        out.kOnly += r.curves.at("k_only").top1[0] / seeds;
        out.errTiered += r.curves.at("tiered").error[0] / seeds;
        out.errKOnly += r.curves.at("k_only").error[0] / seeds;
    }
    return out;
}

std::vector<Claim> headSparsityClaims(int seeds, const Poll& poll) {
    const HeadSparsityOutcome hi = headSparsityTrial(0.8, seeds, poll);
    const HeadSparsityOutcome lo = headSparsityTrial(0.0, seeds, poll);
    const std::string setup =
        "Synthetic MLA workload H = 32, T_q = 2, N = 2048, d = 64, indexer r = 16, 5 % of the "
        "head-group x key-block tiles, seeds 1.." +
        std::to_string(seeds) + " (4 held-out decode steps each, autotuner calibrated on 2 earlier steps). ";
    Claim a;
    a.id = "c2-tiered-gain-with-head-sparsity";
    a.statement =
        "Under a tight compute budget (5 %) with specialised heads (s = 0.8), tiered QK-2D with the "
        "autotuner reaches at least 1.2x the top-1 agreement of K-only selection.";
    a.threshold = kGainRatio;
    // K-only agreement floored at one token in 40 so that the ratio stays finite (a lower bound).
    a.observed = hi.tiered / std::max(hi.kOnly, 1.0 / (8.0 * seeds));
    a.holds = a.observed >= kGainRatio;
    a.detail = setup + "Top-1 agreement with dense attention: tiered " + fmt("%.3f", hi.tiered) +
               ", K-only " + fmt("%.3f", hi.kOnly) + "; relative output error tiered " +
               fmt("%.3f", hi.errTiered) + ", K-only " + fmt("%.3f", hi.errKOnly) +
               ". Direction of the paper's gain, not its magnitude.";
    Claim b;
    b.id = "c2-no-gain-without-head-sparsity";
    b.statement =
        "Without head specialisation (s = 0) the top-1 gap between tiered QK-2D and K-only is at most 2 "
        "points: the gain comes from head sparsity.";
    b.threshold = kNoGainPoints;
    b.observed = std::abs(lo.tiered - lo.kOnly);
    b.holds = b.observed <= kNoGainPoints;
    b.detail = setup + "s = 0: top-1 agreement tiered " + fmt("%.3f", lo.tiered) + ", K-only " +
               fmt("%.3f", lo.kOnly) + "; relative output error tiered " + fmt("%.3f", lo.errTiered) +
               ", K-only " + fmt("%.3f", lo.errKOnly) + ".";
    return {a, b};
}

Claim intensityClaim(const Hardware& hw, double elemBytes, int mtpTokens, double crossoverBudget) {
    const double mla = denseIntensity(presetShape("mla_mtp2", mtpTokens, elemBytes));
    const double gqa = denseIntensity(presetShape("gqa", mtpTokens, elemBytes));
    Claim c;
    c.id = "c3-mla-compute-bound";
    c.statement =
        "Dense MLA decoding with 2-token MTP has arithmetic intensity about 483.6 FLOP/byte (bf16), above "
        "the ridge point: it is compute-bound, while GQA (4 query heads per KV head) stays memory-bound "
        "at 4 T_q FLOP/byte.";
    c.threshold = kMlaIntensity;
    c.observed = mla;
    c.holds = std::abs(mla - kMlaIntensity) < 0.5 && mla > hw.ridge() && gqa < hw.ridge();
    c.detail = "Closed form R 2 (d_k + d_v) / (bytes per key): MLA+MTP2 " + fmt("%.1f", mla) + ", GQA " +
               fmt("%.1f", gqa) + " FLOP/byte (e = " + fmt("%.0f", elemBytes) + " bytes), ridge " +
               fmt("%.1f", hw.ridge()) +
               " FLOP/byte. In the selected cost preset, QK-2D (uniform) is compute-bound "
               "(modelled time equal to K-only's) from a budget of " +
               (std::isfinite(crossoverBudget) ? fmt("%.3g", crossoverBudget) : std::string("- (never)")) +
               " of the tiles upward.";
    return c;
}

} // namespace pl::tilesparse
