#pragma once
/// CUDA path of the tilesparse engine: exact attention restricted to selected (head group x key
/// block) tiles, the GPU twin of sparseAttention() (TileAttention.h, the reference). Plain C++
/// interface: no CUDA headers, no Eigen in the kernel file. Thread affinity: any thread (each
/// call owns its device buffers); calls serialize on the default stream.

#include "TileAttention.h"

#include <string>

namespace pl::tilesparse {

/// True when this build contains the tile-attention kernel (nvcc found) -- pl::cuda::built().
bool tileAttentionCudaBuilt();

/// sparseAttention() on the GPU: Q, K, V converted to float32, scores and the running-max
/// softmax in float32, the weighted V sum accumulated in float64. Same result as the CPU path up
/// to float32 rounding (relative ~1e-6). Throws pl::EngineError when the build has no kernel,
/// no device is present or a CUDA call fails.
Mat sparseAttentionCuda(const Mat& Q, const Mat& K, const Mat& V, const TileGrid& grid, const TileMask& mask);

} // namespace pl::tilesparse
