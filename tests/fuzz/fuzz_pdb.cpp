// libFuzzer target: pl::protein::StructureReader::parse (PDB and mmCIF through gemmi, plus our
// own validation) must return a structure with at least one model of matching sizes and finite
// coordinates, or throw pl::InputError; never crash, hang or throw anything else.
#include "core/Errors.h"
#include "protein/StructureReader.h"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size > 64 * 1024)
        return 0; // keep inputs small: the reader's cost is linear, big inputs only slow the fuzzer
    const std::string bytes(reinterpret_cast<const char*>(data), size);
    try {
        // No extension: the content decides between PDB and mmCIF.
        const auto s = pl::protein::StructureReader::parse(bytes, "fuzz-input");
        if (s->models.empty())
            __builtin_trap();
        for (const auto& m : s->models) {
            if (m.ca.cols() != static_cast<long>(m.keys.size()) || m.keys.size() != m.resNames.size() ||
                m.keys.empty())
                __builtin_trap();
            if (!m.ca.allFinite())
                __builtin_trap();
        }
    } catch (const pl::InputError&) {
    }
    return 0;
}
