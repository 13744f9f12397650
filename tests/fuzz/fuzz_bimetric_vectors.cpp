// libFuzzer target: the bimetric-ann vector readers (pl::search::parseFvecs, parseNpyVectors) and
// the four-file check. Parsing must return a consistent, finite VectorSet within the caps or throw
// pl::InputError; the four-file check of a set with itself passes.
#include "core/Errors.h"
#include "search/VectorFiles.h"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>

namespace {

void checkSet(const pl::search::VectorSet& v) {
    using namespace pl::search;
    if (v.rows < 1 || v.dim < 1 || v.dim > kMaxVectorDim || v.rows * v.dim > kMaxVectorValues ||
        int64_t(v.data.size()) != v.rows * v.dim)
        __builtin_trap();
    for (float x : v.data)
        if (!std::isfinite(x))
            __builtin_trap();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    using namespace pl::search;
    const std::string bytes(reinterpret_cast<const char*>(data), size);
    for (int format = 0; format < 2; ++format) {
        try {
            auto in = std::make_shared<VectorInput>();
            in->vectors = format == 0 ? parseFvecs(bytes, "fuzz.fvecs") : parseNpyVectors(bytes, "fuzz.npy");
            checkSet(in->vectors);
            in->path = "fuzz";
            checkBimetricFiles({in.get(), in.get(), in.get(), in.get()});
        } catch (const pl::InputError&) {
        }
    }
    return 0;
}
