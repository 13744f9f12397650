// CUDA kernel for the node blocks of Γ = Σ_i D(x_i) D(x_i)ᵀ (torus-graph closed-form score matching).
// One thread per (a, b) entry of one node block; each loops over the samples and recomputes the two
// entries of D from the cos/sin tables (no pairwise trigonometry). Raw pointers only (no Qt, no Eigen).
#include "TorusCuda.h"

#include "cuda/CudaDevice.h"

#include <cuda_runtime.h>

#include <vector>

namespace pl::torusgraph::cuda {

namespace {

__device__ double vEntry(const double* C, const double* S, int64_t n, int c, int a, int64_t i) {
    const double cc = C[int64_t(c) * n + i], sc = S[int64_t(c) * n + i];
    if (a == 0)
        return -sc;
    if (a == 1)
        return cc;
    const int oi = (a - 2) / 4, r = (a - 2) % 4;
    const int o = oi < c ? oi : oi + 1;
    const double co = C[int64_t(o) * n + i], so = S[int64_t(o) * n + i];
    switch (r) {
    case 0:
        return -(sc * co - cc * so);
    case 1:
        return (c < o ? 1.0 : -1.0) * (cc * co + sc * so);
    case 2:
        return -(sc * co + cc * so);
    default:
        return cc * co - sc * so;
    }
}

__global__ void nodeBlockKernel(const double* C, const double* S, const double* sw, int64_t n, int d, int m,
                                double* blocks) {
    const int c = blockIdx.z;
    const int a = blockIdx.x * blockDim.x + threadIdx.x;
    const int b = blockIdx.y * blockDim.y + threadIdx.y;
    if (a >= m || b >= m || b > a)
        return;
    double s = 0;
    for (int64_t i = 0; i < n; ++i) {
        double w = sw ? sw[i] * sw[i] : 1.0;
        s += w * vEntry(C, S, n, c, a, i) * vEntry(C, S, n, c, b, i);
    }
    double* blk = blocks + int64_t(c) * m * m;
    blk[int64_t(b) * m + a] = s;
    blk[int64_t(a) * m + b] = s;
}

} // namespace

void accumulateNodeBlocks(const double* C, const double* S, const double* sqrtWeights, int64_t n, int d,
                          double* blocks) {
    const int m = 4 * d - 2;
    const size_t tab = size_t(n) * size_t(d) * sizeof(double);
    const size_t out = size_t(d) * size_t(m) * size_t(m) * sizeof(double);
    double *dC = nullptr, *dS = nullptr, *dW = nullptr, *dB = nullptr;
    pl::cuda::check(int(cudaMalloc(&dC, tab)), "cudaMalloc C");
    struct Free {
        std::vector<double*> p;
        ~Free() {
            for (double* q : p)
                cudaFree(q);
        }
    } guard;
    guard.p.push_back(dC);
    pl::cuda::check(int(cudaMalloc(&dS, tab)), "cudaMalloc S");
    guard.p.push_back(dS);
    pl::cuda::check(int(cudaMalloc(&dB, out)), "cudaMalloc blocks");
    guard.p.push_back(dB);
    pl::cuda::check(int(cudaMemcpy(dC, C, tab, cudaMemcpyHostToDevice)), "copy C");
    pl::cuda::check(int(cudaMemcpy(dS, S, tab, cudaMemcpyHostToDevice)), "copy S");
    if (sqrtWeights) {
        pl::cuda::check(int(cudaMalloc(&dW, size_t(n) * sizeof(double))), "cudaMalloc weights");
        guard.p.push_back(dW);
        pl::cuda::check(int(cudaMemcpy(dW, sqrtWeights, size_t(n) * sizeof(double), cudaMemcpyHostToDevice)),
                        "copy weights");
    }
    const dim3 threads(16, 16);
    const dim3 grid((m + 15) / 16, (m + 15) / 16, d);
    nodeBlockKernel<<<grid, threads>>>(dC, dS, dW, n, d, m, dB);
    pl::cuda::check(int(cudaGetLastError()), "torus-graph Γ kernel launch");
    pl::cuda::check(int(cudaDeviceSynchronize()), "torus-graph Γ kernel");
    pl::cuda::check(int(cudaMemcpy(blocks, dB, out, cudaMemcpyDeviceToHost)), "copy blocks");
}

} // namespace pl::torusgraph::cuda
