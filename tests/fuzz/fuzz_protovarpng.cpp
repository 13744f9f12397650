// libFuzzer target: the protovar-distillation PNG decoder (pl::distill::decodePngGrey, libpng's
// simplified API) must return width x height grey values in [0, 1] or throw pl::InputError.
#include "core/Errors.h"
#include "distill/ProtovarInputs.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string bytes(reinterpret_cast<const char*>(data), size);
    try {
        int w = 0, h = 0;
        bool colour = false;
        const Eigen::VectorXd v = pl::distill::decodePngGrey(bytes, "fuzz.png", w, h, colour);
        if (w < 1 || h < 1 || v.size() != int64_t(w) * h || v.minCoeff() < 0 || v.maxCoeff() > 1)
            std::abort();
    } catch (const pl::InputError&) {
    }
    return 0;
}
