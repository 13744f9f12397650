#include "TileAttentionCuda.h"

#include "TileAttentionKernel.h"

#include "core/Errors.h"
#include "cuda/CudaDevice.h"

#include <cmath>
#include <vector>

namespace pl::tilesparse {

bool tileAttentionCudaBuilt() {
    return pl::cuda::built();
}

Mat sparseAttentionCuda(const Mat& Q, const Mat& K, const Mat& V, const TileGrid& grid,
                        const TileMask& mask) {
    if (!pl::cuda::useCuda(Backend::Cuda)) // throws EngineError naming the reason
        throw EngineError("tilesparse: no CUDA device");
#ifdef PAPERLAB_WITH_CUDA
    using RowF = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
    const RowF q = Q.cast<float>(), k = K.cast<float>(), v = V.cast<float>();
    std::vector<int> offsets{0}, list;
    for (int g = 0; g < grid.groups(); ++g) {
        for (int b = 0; b < grid.blocks(); ++b)
            if (mask.at(g, b))
                list.push_back(b);
        offsets.push_back(int(list.size()));
    }
    Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> out(Q.rows(), V.cols());
    const char* what = "";
    const int status = cudakernel::gatheredTileAttention(
        q.data(), int(Q.rows()), int(Q.cols()), k.data(), v.data(), int(K.rows()), int(V.cols()),
        grid.groupRows, grid.blockKeys, offsets.data(), list.data(), int(list.size()),
        float(1.0 / std::sqrt(double(Q.cols()))), out.data(), &what);
    pl::cuda::check(status, what);
    return out;
#else
    (void)Q;
    (void)K;
    (void)V;
    (void)grid;
    (void)mask;
    throw EngineError("tilesparse: this build has no CUDA kernels");
#endif
}

} // namespace pl::tilesparse
