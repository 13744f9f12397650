#pragma once
/// The paper's claims as evaluated by the tilesparse engine (spec section 1.5). Pure functions.

#include "TileCostModel.h"
#include "TileSparseStudy.h"

#include "core/ResultDocument.h"
#include "core/RunContext.h"

namespace pl::tilesparse {

/// C1 from an oracle-checked study.
Claim oracleClaim(const StudyResult& r);

/// The fixed claim workload (H = 32, T_q = 2, N = 2048, d = 64, indexer r = 16, 2 calibration
/// and 4 held-out steps) at one specialisation, seeds 1..seeds, at the claim budgets 5, 10 and
/// 20 % of the tiles; means over the seeds. Runs the seeds on up to `threads` threads (results
/// do not depend on it).
struct HeadSparsityOutcome {
    std::vector<double> budgets;           ///< requested tile fractions
    std::vector<double> errKOnly, errQk2d; ///< relative output error per budget
    double tiered = 0, kOnly = 0;          ///< top-1 agreement at 5 %
    double errTiered = 0;                  ///< relative output error of tiered at 5 %
};
HeadSparsityOutcome headSparsityTrial(double specialisation, int seeds, const Poll& poll, int threads = 1);

/// The head-sparsity claims from trials at s = 0.8 and s = 0 (the workload regenerated with the
/// specialisation switched off): C2 (tiered top-1 gain, no gain at s = 0) and the claim
/// that QK-2D has lower output error than K-only at equal compute only with head specialisation.
std::vector<Claim> headSparsityClaims(int seeds, const Poll& poll, int threads = 1);

/// The autotuner's per-budget pick against every fixed grid configuration on the held-out steps
/// of a study run with heldOutGrid.
Claim autotunerClaim(const StudyResult& r);

/// C3: dense intensity of the presets against the ridge; crossover budget in the detail.
Claim intensityClaim(const Hardware& hw, double elemBytes, int mtpTokens, double crossoverBudget);

} // namespace pl::tilesparse
