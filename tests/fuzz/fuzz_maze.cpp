// libFuzzer target: pl::keypoints::parseMaze must return a maze with at least one free cell and
// consistent sizes, or throw pl::InputError.
#include "core/Errors.h"
#include "keypoints/Maze.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    try {
        const pl::keypoints::Maze m = pl::keypoints::parseMaze(text, "fuzz.maze");
        if (m.rows < 1 || m.cols < 1 || m.wall.size() != size_t(m.rows) * size_t(m.cols) || m.freeCount() < 1)
            std::abort();
        if ((m.start >= 0 && !m.isFree(m.start)) || (m.goal >= 0 && !m.isFree(m.goal)))
            std::abort();
    } catch (const pl::InputError&) {
    }
    return 0;
}
