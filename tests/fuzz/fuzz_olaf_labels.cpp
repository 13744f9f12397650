// libFuzzer target: pl::gridworld::parseLabelFile (contexts.csv / actions.csv of olaf-world) must
// return rows with a clip, a line and, for actions, a known action, or throw pl::InputError.
#include "core/Errors.h"
#include "gridworld/ClipReader.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    try {
        const pl::gridworld::LabelFile f = pl::gridworld::parseLabelFile(text, "fuzz.csv");
        if (f.rows.empty())
            std::abort();
        for (const auto& r : f.rows) {
            if (r.clip.empty() || r.line < 1 || r.t < 0)
                std::abort();
            if (f.actions && pl::gridworld::parseAction(r.value) < 0)
                std::abort();
        }
    } catch (const pl::InputError&) {
    }
    return 0;
}
