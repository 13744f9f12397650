#pragma once
/// The paper's claims as evaluated by the tilesparse engine (spec section 1.5). Pure functions.

#include "TileCostModel.h"
#include "TileSparseStudy.h"

#include "core/ResultDocument.h"
#include "core/RunContext.h"

namespace pl::tilesparse {

/// C1 from an oracle-checked study.
Claim oracleClaim(const StudyResult& r);

/// Mean top-1 agreement of tiered+autotuner and K-only at 5 % compute on the fixed claim
/// workload (H = 32, T_q = 2, N = 2048, d = 64, indexer r = 16) over seeds 1..seeds.
struct HeadSparsityOutcome {
    double tiered = 0, kOnly = 0, errTiered = 0, errKOnly = 0;
};
HeadSparsityOutcome headSparsityTrial(double specialisation, int seeds, const Poll& poll);

/// C2 (two claims: gain with s = 0.8, no gain with s = 0).
std::vector<Claim> headSparsityClaims(int seeds, const Poll& poll);

/// C3: dense intensity of the presets against the ridge; crossover budget in the detail.
Claim intensityClaim(const Hardware& hw, double elemBytes, int mtpTokens, double crossoverBudget);

} // namespace pl::tilesparse
