#include "CudaDevice.h"

#include "core/Errors.h"

#ifdef PAPERLAB_WITH_CUDA
#include <cuda_runtime_api.h>
#endif

namespace pl::cuda {

bool built() {
#ifdef PAPERLAB_WITH_CUDA
    return true;
#else
    return false;
#endif
}

int deviceCount() {
#ifdef PAPERLAB_WITH_CUDA
    int n = 0;
    if (cudaGetDeviceCount(&n) != cudaSuccess) {
        cudaGetLastError(); // clear the sticky "no driver" error
        return 0;
    }
    return n;
#else
    return 0;
#endif
}

std::string deviceName() {
#ifdef PAPERLAB_WITH_CUDA
    if (deviceCount() <= 0)
        return {};
    cudaDeviceProp prop{};
    if (cudaGetDeviceProperties(&prop, 0) != cudaSuccess)
        return {};
    return prop.name;
#else
    return {};
#endif
}

bool useCuda(Backend requested) {
    if (requested == Backend::Cpu)
        return false;
    const bool ok = built() && deviceCount() > 0;
    if (requested == Backend::Cuda && !ok)
        throw EngineError(built() ? "--backend cuda: no CUDA device is present (use auto or cpu)"
                                  : "--backend cuda: this build has no CUDA kernels (nvcc was not found)");
    return ok;
}

void check(int status, const char* what) {
#ifdef PAPERLAB_WITH_CUDA
    if (status != cudaSuccess)
        throw EngineError(std::string("CUDA: ") + what + ": " +
                          cudaGetErrorString(static_cast<cudaError_t>(status)));
#else
    (void)status;
    (void)what;
#endif
}

} // namespace pl::cuda
