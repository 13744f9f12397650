#pragma once
/// Run-time view of the CUDA device, for engines with an optional CUDA path. No Qt, no Eigen,
/// no CUDA headers here: the same header serves builds with and without nvcc.
/// Thread affinity: any thread (the CUDA runtime is thread-safe for these queries).

#include "core/Backend.h"

#include <string>

namespace pl::cuda {

/// True when this build contains CUDA kernels (nvcc was found at configure time).
bool built();
/// Number of CUDA devices visible now (0 when not built, no driver or no device).
int deviceCount();
/// Name of device 0 ("" when none).
std::string deviceName();
/// Resolves a requested backend for an engine that has a CUDA path: true = run the CUDA kernels.
/// Auto → CUDA when built and a device is present, else CPU (silently). Cuda without a kernel
/// build or device → throws pl::EngineError naming the reason. Cpu → false.
bool useCuda(Backend requested);
/// Throws pl::EngineError with `what` and the CUDA error text when `status` is not cudaSuccess
/// (status is the int value of cudaError_t).
void check(int status, const char* what);

} // namespace pl::cuda
