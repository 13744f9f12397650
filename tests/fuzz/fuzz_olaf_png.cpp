// libFuzzer target: pl::gridworld::parsePng must return an image of 1..4096 x 1..4096 pixels in
// [0, 1], or throw pl::InputError.
#include "core/Errors.h"
#include "gridworld/PngReader.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string bytes(reinterpret_cast<const char*>(data), size);
    try {
        const pl::gridworld::PngImage img = pl::gridworld::parsePng(bytes, "fuzz.png");
        if (img.gray.rows() < 1 || img.gray.cols() < 1 || img.gray.rows() > 4096 || img.gray.cols() > 4096)
            std::abort();
        if (img.gray.size() > 0 && (img.gray.minCoeff() < 0.0 || img.gray.maxCoeff() > 1.0))
            std::abort();
    } catch (const pl::InputError&) {
    }
    return 0;
}
