// libFuzzer target: pl::gridworld::parseMap must return a rectangular map with its start on grass,
// or throw pl::InputError.
#include "core/Errors.h"
#include "gridworld/GridMap.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    try {
        const pl::gridworld::GridMap m = pl::gridworld::parseMap(text, "fuzz.txt");
        if (m.rows < 1 || m.cols < 1 || m.cells.size() != size_t(m.rows) * size_t(m.cols))
            std::abort();
        if (m.start < 0 || m.start >= int(m.cells.size()) || m.cells[size_t(m.start)] != '.')
            std::abort();
        const std::vector<int> dist = pl::gridworld::bfsDistances(m, m.start);
        if (dist[size_t(m.start)] != 0)
            std::abort();
    } catch (const pl::InputError&) {
    }
    return 0;
}
