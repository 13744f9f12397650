// libFuzzer target: pl::gridworld::parseClipNpy must return clips of equal frame size with finite
// pixels, or throw pl::InputError.
#include "core/Errors.h"
#include "gridworld/ClipReader.h"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string bytes(reinterpret_cast<const char*>(data), size);
    try {
        const pl::gridworld::ClipFile f = pl::gridworld::parseClipNpy(bytes, "fuzz.npy");
        if (f.clips.empty() || f.clips.size() != f.names.size())
            std::abort();
        for (const auto& c : f.clips)
            if (c.cols() != Eigen::Index(f.height) * f.width || !c.allFinite())
                std::abort();
    } catch (const pl::InputError&) {
    }
    return 0;
}
