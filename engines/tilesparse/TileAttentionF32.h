#pragma once
/// Fast float32 CPU path of the decode attention (dense and tile-sparse), for large MLA shapes:
/// one pass over the keys per head group (flash-decoding style: scores of a key chunk, running-max
/// softmax, weighted V sum while the chunk is in cache), so a key block is read from memory once
/// per group and, with MLA (V = the first d_v latent coordinates, V pointer = K), K and V are the
/// same bytes. float32 in, float32 accumulation; the float64 Eigen functions in TileAttention.h
/// stay the reference (agreement ~1e-5 relative). The hot loops are compiled for AVX2+FMA and for
/// the baseline ISA and picked at run time. Pure functions; thread-safe.

#include "TileAttention.h"

namespace pl::tilesparse {

/// Row-major float32 operands of one attention call. V rows are `ldv` floats apart (ldv = d_k and
/// V = K for MLA's shared latent).
struct F32Attention {
    const float* Q = nullptr; ///< rows x dk
    const float* K = nullptr; ///< keys x dk
    const float* V = nullptr; ///< keys x dv, row stride ldv
    int rows = 0, dk = 0, keys = 0, dv = 0, ldv = 0;
    bool allowAvx2 = true; ///< false: the baseline-ISA version even on AVX2 CPUs (tests)
};

/// Exact attention restricted to the selected tiles (mask = nullptr: dense, all keys for every
/// row). out: rows x dv, row-major; rows of a group without a selected block are zero. Rows are
/// processed in their grid groups (dense: chunks of up to 64 rows share each key chunk).
void tileAttentionF32(const F32Attention& a, const TileGrid& grid, const TileMask* mask, float* out);

/// True when the AVX2+FMA version of the kernel runs on this CPU.
bool tileAttentionF32UsesAvx2();

} // namespace pl::tilesparse
