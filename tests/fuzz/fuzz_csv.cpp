// libFuzzer target: pl::CsvReader::parse must either return a table or throw pl::InputError.
#include "core/CsvReader.h"
#include "core/Errors.h"

#include <cstddef>
#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    pl::CsvOptions opt;
    opt.maxCells = 1'000'000;
    for (bool nonFinite : {false, true}) {
        opt.allowNonFinite = nonFinite;
        try {
            const pl::CsvTable t = pl::CsvReader::parse(text, "fuzz.csv", opt);
            if (t.values.size() > 0 && !t.header.empty() &&
                static_cast<int64_t>(t.header.size()) != t.values.cols())
                __builtin_trap(); // header must name every column
        } catch (const pl::InputError&) {
        }
    }
    return 0;
}
