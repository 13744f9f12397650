#pragma once
/// Where an engine runs its heavy kernels. The CPU (Eigen) path is always the reference; a CUDA
/// path is optional at build time (nvcc found) and at run time (a device present).

#include <string>

namespace pl {

enum class Backend {
    Auto, ///< CUDA when the engine has a CUDA path, it was built and a device is present; else CPU
    Cpu,  ///< always the CPU reference path
    Cuda  ///< CUDA or an error (EngineError) when no kernel was built or no device is present
};

/// "auto", "cpu" or "cuda".
std::string backendName(Backend b);
/// Parses "auto", "cpu" or "cuda"; throws UsageError otherwise.
Backend parseBackend(const std::string& text);

} // namespace pl
