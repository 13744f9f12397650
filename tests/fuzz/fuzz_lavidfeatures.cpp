// libFuzzer target: the lavid-distillation feature CSV reader (pl::distill::parseFeatureCsv) must
// return a validated table (finite features, one label, split and line per row, optional columns
// of the row count) or throw pl::InputError.
#include "core/Errors.h"
#include "distill/LavidInputs.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    try {
        const pl::distill::FeatureInput f = pl::distill::parseFeatureCsv(text, "fuzz.csv");
        const size_t n = f.label.size();
        if (n < 2 || size_t(f.X.rows()) != n || f.X.cols() < 1 || f.isTest.size() != n || f.lines.size() != n)
            std::abort();
        if ((!f.group.empty() && f.group.size() != n) || (!f.background.empty() && f.background.size() != n))
            std::abort();
        if (!f.X.allFinite() || f.featureNames.size() != size_t(f.X.cols()))
            std::abort();
    } catch (const pl::InputError&) {
    }
    return 0;
}
