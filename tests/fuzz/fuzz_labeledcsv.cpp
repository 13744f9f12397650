// libFuzzer target: pl::robusttrain::parseLabeledCsv must return a validated table (labels in
// [0, classes), one line per row, optional columns of the row count) or throw pl::InputError (the
// robusttrain panels' labelled CSV reader).
#include "core/Errors.h"
#include "robusttrain/LabeledData.h"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    try {
        const pl::robusttrain::LabeledTable t = pl::robusttrain::parseLabeledCsv(text, "fuzz.csv");
        const size_t n = t.data.y.size();
        if (n < 2 || t.lines.size() != n || size_t(t.data.X.rows()) != n || t.data.X.cols() < 1)
            std::abort();
        if ((!t.clientId.empty() && t.clientId.size() != n) ||
            (!t.cleanLabel.empty() && t.cleanLabel.size() != n) ||
            (!t.isTest.empty() && t.isTest.size() != n))
            std::abort();
        for (int y : t.data.y)
            if (y < 0 || y >= t.data.classes)
                std::abort();
        if (!t.data.X.allFinite())
            std::abort();
    } catch (const pl::InputError&) {
    }
    return 0;
}
