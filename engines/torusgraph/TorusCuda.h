#pragma once
/// CUDA accumulation of the node blocks of Γ (see ScoreMatching.h). Declared for every build;
/// defined in TorusCuda.cu only when nvcc was found (PAPERLAB_WITH_CUDA). Raw pointers only.
/// Thread affinity: any thread (uses the current CUDA device, synchronously).

#include <cstdint>

namespace pl::torusgraph::cuda {

/// C, S: n × d cos/sin tables, column-major. sqrtWeights: n values or nullptr (unweighted).
/// blocks: output, d blocks of m × m (m = 4d − 2), column-major, block c = Σ_i V_i Vᵢᵀ for the rows
/// of D(x_i) that touch node c in the local order cos_c, sin_c, then 4 per other node o in
/// increasing o. Throws pl::EngineError on a CUDA failure.
void accumulateNodeBlocks(const double* C, const double* S, const double* sqrtWeights, int64_t n, int d,
                          double* blocks);

} // namespace pl::torusgraph::cuda
