// libFuzzer target: pl::curve::parseSceneGraphLines must return a validated scene set or throw
// pl::InputError (the curve-scene-graph panel's JSON-lines reader).
#include "core/Errors.h"
#include "curve/SceneGraphReader.h"

#include <cstddef>
#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    try {
        const pl::curve::SceneSet s = pl::curve::parseSceneGraphLines(text, "fuzz.jsonl");
        (void)s;
    } catch (const pl::InputError&) {
    }
    return 0;
}
