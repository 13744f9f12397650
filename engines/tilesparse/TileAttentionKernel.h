#pragma once
/// Host entry of the tile-attention CUDA kernel (TileAttentionCuda.cu). Plain C++ (raw pointers,
/// no Eigen, no CUDA headers) so the .cu file and its C++ caller share it. Defined only in builds
/// with nvcc (PAPERLAB_WITH_CUDA); callers go through sparseAttentionCuda() (TileAttentionCuda.h).

namespace pl::tilesparse::cudakernel {

/// Host entry of TileAttentionCuda.cu (raw pointers, row-major, host memory). Per head group g,
/// blockList[blockOffsets[g] .. blockOffsets[g+1]) are its selected key blocks. Writes
/// out[rows x dv] (float64). Returns the cudaError_t value (0 = success) and the failing call in
/// *what.
int gatheredTileAttention(const float* Q, int rows, int dk, const float* K, const float* V, int keys, int dv,
                          int groupRows, int blockKeys, const int* blockOffsets, const int* blockList,
                          int listLength, float scale, double* out, const char** what);

} // namespace pl::tilesparse::cudakernel
