// libFuzzer target: pl::smallnets::parseTaskCsv must return a validated task set (at least two
// tasks, labels +-1, equal row widths) or throw pl::InputError (the continual-forgetting reader).
#include "core/Errors.h"
#include "smallnets/TaskData.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    try {
        pl::smallnets::TaskSet s = pl::smallnets::parseTaskCsv(text, "fuzz.csv");
        if (s.tasks.size() < 2)
            std::abort();
        for (const auto& t : s.tasks)
            if (t.X.cols() != s.dim() || t.X.rows() != t.y.size() || t.X.rows() == 0)
                std::abort();
        pl::smallnets::estimateDirections(s);
        (void)pl::smallnets::taskOverlap(s);
    } catch (const pl::InputError&) {
    }
    return 0;
}
