// libFuzzer target: the aporia-hallucination JSONL reader (pl::embedgeo::parseResponseJsonl) and the
// TF-IDF of what it accepts. Parsing must return a consistent response set or throw pl::InputError;
// TF-IDF rows must be unit length or empty.
#include "core/Errors.h"
#include "embedgeo/ResponseSet.h"
#include "embedgeo/TfIdf.h"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string bytes(reinterpret_cast<const char*>(data), size);
    try {
        const pl::embedgeo::ResponseSet s = pl::embedgeo::parseResponseJsonl(bytes, "fuzz.jsonl");
        const size_t n = s.text.size();
        if (n == 0 || s.prompt.size() != n || s.label.size() != n || s.line.size() != n)
            __builtin_trap();
        for (size_t i = 0; i < n; ++i) {
            if (s.prompt[i] < 0 || s.prompt[i] >= s.prompts() || s.label[i] < -1 || s.label[i] > 1 ||
                s.line[i] < 1)
                __builtin_trap();
        }
        const pl::embedgeo::TfIdfMatrix m = pl::embedgeo::tfidf(s.text);
        if (m.rows.size() != n)
            __builtin_trap();
        for (const auto& row : m.rows) {
            double ss = 0;
            for (const auto& [j, v] : row) {
                if (j < 0 || size_t(j) >= m.vocab.size())
                    __builtin_trap();
                ss += v * v;
            }
            if (!row.empty() && std::abs(ss - 1) > 1e-9)
                __builtin_trap();
        }
    } catch (const pl::InputError&) {
    }
    return 0;
}
