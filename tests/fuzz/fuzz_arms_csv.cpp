// libFuzzer target: pl::bandits::parseNumericCsv (the fair-linear-bandits arms and theta* reader)
// must return a finite, rectangular table with one line number per row, or throw pl::InputError.
#include "bandits/NumericCsv.h"
#include "core/Errors.h"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    try {
        const pl::bandits::NumericTable t = pl::bandits::parseNumericCsv(text, "fuzz.csv");
        if (t.values.rows() < 1 || t.lines.size() != size_t(t.values.rows()))
            std::abort();
        if (!t.header.empty() && t.header.size() != size_t(t.values.cols()))
            std::abort();
        for (Eigen::Index i = 0; i < t.values.size(); ++i)
            if (!std::isfinite(t.values.data()[i]))
                std::abort();
        for (size_t i = 1; i < t.lines.size(); ++i)
            if (t.lines[i] <= t.lines[i - 1])
                std::abort();
    } catch (const pl::InputError&) {
    }
    return 0;
}
