// Gathered tile attention on the GPU (the CUDA twin of sparseAttention() in TileAttention.cpp).
// Raw pointers only (no Qt, no Eigen). One CUDA block per (head group, chunk of kRows query rows):
// it walks the group's selected key blocks in chunks of kc keys staged in shared memory, computes
// the chunk's scores for its rows (one warp per (row, key) dot product), updates a running-max
// softmax per row (flash-decoding style) and accumulates the weighted V sum in float64 registers
// (each thread owns columns tid, tid + 256, ...). K and V are float32, row-major.
#include "TileAttentionKernel.h"

#include <cuda_runtime.h>

#include <cfloat>
#include <vector>

namespace pl::tilesparse::cudakernel {

namespace {

constexpr int kThreads = 256;
constexpr int kWarps = kThreads / 32;
constexpr int kRows = kWarps; // query rows per CUDA block: one warp per row in the softmax step

template <int CPT>
__global__ void tileAttentionKernel(const float* __restrict__ Q, int rows, int dk,
                                    const float* __restrict__ K, const float* __restrict__ V, int keys,
                                    int dv, int groupRows, int blockKeys, const int* __restrict__ offsets,
                                    const int* __restrict__ list, int kc, float scale,
                                    double* __restrict__ out) {
    extern __shared__ unsigned char smem[];
    double* lrun = reinterpret_cast<double*>(smem);       // kRows running sums
    float* mrun = reinterpret_cast<float*>(lrun + kRows); // kRows running maxima
    float* alpha = mrun + kRows;                          // kRows rescale factors of the chunk
    float* qs = alpha + kRows;                            // kRows x dk (scaled queries)
    float* ks = qs + kRows * dk;                          // kc x dk (key chunk)
    float* sc = ks + kc * dk;                             // kRows x kc (scores, then weights)

    const int g = blockIdx.x;
    const int gBegin = g * groupRows;
    const int gEnd = min(rows, gBegin + groupRows);
    const int r0 = gBegin + blockIdx.y * kRows;
    if (r0 >= gEnd)
        return;
    const int rb = min(kRows, gEnd - r0);
    const int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;

    for (int i = tid; i < rb * dk; i += kThreads)
        qs[i] = Q[size_t(r0) * dk + i] * scale;
    if (tid < kRows) {
        lrun[tid] = 0.0;
        mrun[tid] = -FLT_MAX;
    }
    double acc[kRows][CPT];
#pragma unroll
    for (int r = 0; r < kRows; ++r)
#pragma unroll
        for (int i = 0; i < CPT; ++i)
            acc[r][i] = 0.0;
    __syncthreads();

    for (int li = offsets[g]; li < offsets[g + 1]; ++li) {
        const int kb = list[li] * blockKeys;
        const int ke = min(keys, kb + blockKeys);
        for (int k0 = kb; k0 < ke; k0 += kc) {
            const int nk = min(kc, ke - k0);
            for (int i = tid; i < nk * dk; i += kThreads)
                ks[i] = K[size_t(k0) * dk + i];
            __syncthreads();
            // Scores: one warp per (row, key) pair, lanes stride over d.
            for (int p = warp; p < rb * nk; p += kWarps) {
                const int r = p / nk, j = p % nk;
                const float* q = qs + r * dk;
                const float* k = ks + j * dk;
                float s = 0.f;
                for (int c = lane; c < dk; c += 32)
                    s += q[c] * k[c];
                for (int o = 16; o > 0; o /= 2)
                    s += __shfl_down_sync(0xffffffffu, s, o);
                if (lane == 0)
                    sc[r * kc + j] = s;
            }
            __syncthreads();
            // Running-max softmax update: warp r owns row r.
            if (warp < rb) {
                float mx = -FLT_MAX;
                for (int j = lane; j < nk; j += 32)
                    mx = fmaxf(mx, sc[warp * kc + j]);
                for (int o = 16; o > 0; o /= 2)
                    mx = fmaxf(mx, __shfl_xor_sync(0xffffffffu, mx, o));
                const float mOld = mrun[warp];
                const float mNew = fmaxf(mOld, mx);
                double sum = 0.0;
                for (int j = lane; j < nk; j += 32) {
                    const float w = __expf(sc[warp * kc + j] - mNew);
                    sc[warp * kc + j] = w;
                    sum += w;
                }
                for (int o = 16; o > 0; o /= 2)
                    sum += __shfl_xor_sync(0xffffffffu, sum, o);
                if (lane == 0) {
                    const float a = mOld == -FLT_MAX ? 0.f : __expf(mOld - mNew);
                    alpha[warp] = a;
                    mrun[warp] = mNew;
                    lrun[warp] = lrun[warp] * a + sum;
                }
            }
            __syncthreads();
            // Weighted V sum: thread owns columns tid + i * kThreads.
#pragma unroll
            for (int i = 0; i < CPT; ++i) {
                const int c = tid + i * kThreads;
                if (c < dv) {
#pragma unroll
                    for (int r = 0; r < kRows; ++r)
                        acc[r][i] *= r < rb ? double(alpha[r]) : 0.0;
                    for (int j = 0; j < nk; ++j) {
                        const double v = V[size_t(k0 + j) * dv + c];
#pragma unroll
                        for (int r = 0; r < kRows; ++r)
                            if (r < rb)
                                acc[r][i] += double(sc[r * kc + j]) * v;
                    }
                }
            }
            __syncthreads();
        }
    }
#pragma unroll
    for (int i = 0; i < CPT; ++i) {
        const int c = tid + i * kThreads;
        if (c < dv) {
#pragma unroll
            for (int r = 0; r < kRows; ++r)
                if (r < rb)
                    out[size_t(r0 + r) * dv + c] = lrun[r] > 0.0 ? acc[r][i] / lrun[r] : 0.0;
        }
    }
}

/// Device buffers freed on every exit path.
struct DeviceBuffers {
    std::vector<void*> ptrs;
    ~DeviceBuffers() {
        for (void* p : ptrs)
            cudaFree(p);
    }
    template <class T> cudaError_t upload(T** dst, const T* src, size_t n) {
        void* p = nullptr;
        cudaError_t e = cudaMalloc(&p, n * sizeof(T) + 1);
        if (e != cudaSuccess)
            return e;
        ptrs.push_back(p);
        *dst = static_cast<T*>(p);
        return src && n ? cudaMemcpy(p, src, n * sizeof(T), cudaMemcpyHostToDevice) : cudaSuccess;
    }
};

template <int CPT>
cudaError_t launch(dim3 grid, size_t smem, const float* Q, int rows, int dk, const float* K, const float* V,
                   int keys, int dv, int groupRows, int blockKeys, const int* off, const int* list, int kc,
                   float scale, double* out) {
    if (smem > 48 * 1024) {
        const cudaError_t e = cudaFuncSetAttribute(tileAttentionKernel<CPT>,
                                                   cudaFuncAttributeMaxDynamicSharedMemorySize, int(smem));
        if (e != cudaSuccess)
            return e;
    }
    tileAttentionKernel<CPT><<<grid, kThreads, smem>>>(Q, rows, dk, K, V, keys, dv, groupRows, blockKeys, off,
                                                       list, kc, scale, out);
    return cudaGetLastError();
}

} // namespace

int gatheredTileAttention(const float* Q, int rows, int dk, const float* K, const float* V, int keys, int dv,
                          int groupRows, int blockKeys, const int* blockOffsets, const int* blockList,
                          int listLength, float scale, double* out, const char** what) {
    auto fail = [what](cudaError_t e, const char* w) {
        if (what)
            *what = w;
        return int(e);
    };
    if (dv > 8 * kThreads)
        return fail(cudaErrorInvalidValue, "d_v above 2048 is not supported by the tile-attention kernel");
    const int groups = (rows + groupRows - 1) / groupRows;
    DeviceBuffers b;
    float *dQ = nullptr, *dK = nullptr, *dV = nullptr;
    int *dOff = nullptr, *dList = nullptr;
    double* dOut = nullptr;
    cudaError_t e = b.upload(&dQ, Q, size_t(rows) * dk);
    if (e == cudaSuccess)
        e = b.upload(&dK, K, size_t(keys) * dk);
    if (e == cudaSuccess)
        e = b.upload(&dV, V, size_t(keys) * dv);
    if (e == cudaSuccess)
        e = b.upload(&dOff, blockOffsets, size_t(groups) + 1);
    if (e == cudaSuccess)
        e = b.upload(&dList, blockList, size_t(listLength));
    if (e == cudaSuccess)
        e = b.upload<double>(&dOut, nullptr, size_t(rows) * dv);
    if (e != cudaSuccess)
        return fail(e, "device buffers");
    // Key chunk so that the shared memory stays near 44 KB where d allows.
    int kc = (11264 - kRows * dk) / (dk + kRows);
    kc = kc < 1 ? 1 : (kc > 64 ? 64 : kc);
    const size_t smem =
        size_t(kRows) * sizeof(double) +
        sizeof(float) * (2 * kRows + size_t(kRows) * dk + size_t(kc) * dk + size_t(kRows) * kc);
    const dim3 grid(unsigned(groups), unsigned((groupRows + kRows - 1) / kRows));
    const int cpt = (dv + kThreads - 1) / kThreads;
    if (cpt <= 1)
        e = launch<1>(grid, smem, dQ, rows, dk, dK, dV, keys, dv, groupRows, blockKeys, dOff, dList, kc,
                      scale, dOut);
    else if (cpt <= 2)
        e = launch<2>(grid, smem, dQ, rows, dk, dK, dV, keys, dv, groupRows, blockKeys, dOff, dList, kc,
                      scale, dOut);
    else if (cpt <= 4)
        e = launch<4>(grid, smem, dQ, rows, dk, dK, dV, keys, dv, groupRows, blockKeys, dOff, dList, kc,
                      scale, dOut);
    else
        e = launch<8>(grid, smem, dQ, rows, dk, dK, dV, keys, dv, groupRows, blockKeys, dOff, dList, kc,
                      scale, dOut);
    if (e != cudaSuccess)
        return fail(e, "tile-attention kernel launch");
    e = cudaMemcpy(out, dOut, size_t(rows) * dv * sizeof(double), cudaMemcpyDeviceToHost);
    if (e != cudaSuccess)
        return fail(e, "tile-attention kernel");
    return 0;
}

} // namespace pl::tilesparse::cudakernel
