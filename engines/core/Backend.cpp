#include "Backend.h"

#include "Errors.h"

namespace pl {

std::string backendName(Backend b) {
    switch (b) {
    case Backend::Cpu:
        return "cpu";
    case Backend::Cuda:
        return "cuda";
    case Backend::Auto:
        break;
    }
    return "auto";
}

Backend parseBackend(const std::string& text) {
    if (text == "auto")
        return Backend::Auto;
    if (text == "cpu")
        return Backend::Cpu;
    if (text == "cuda")
        return Backend::Cuda;
    throw UsageError("backend must be auto, cpu or cuda, got '" + text + "'");
}

} // namespace pl
