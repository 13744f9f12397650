// libFuzzer target: the lavid-distillation signature and questions readers. The bytes are parsed
// as a signature JSON (pl::distill::parseSignatures: classes sorted, one line each, a finite
// classes x (Q*O) matrix) and as a questions .txt (pl::distill::parseQuestions: non-empty
// labels); both must return validated data or throw pl::InputError.
#include "core/Errors.h"
#include "distill/LavidInputs.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    try {
        const pl::distill::SignatureInput s = pl::distill::parseSignatures(text, "fuzz.json");
        if (s.classes.empty() || s.lines.size() != s.classes.size() || s.questions < 1 || s.options < 2)
            std::abort();
        if (!std::is_sorted(s.classes.begin(), s.classes.end()))
            std::abort();
        if (s.values.rows() != int64_t(s.classes.size()) ||
            s.values.cols() != int64_t(s.questions) * s.options || !s.values.allFinite())
            std::abort();
    } catch (const pl::InputError&) {
    }
    try {
        const pl::distill::QuestionsInput q = pl::distill::parseQuestions(text, "fuzz.txt");
        for (const std::string& l : q.labels)
            if (l.empty())
                std::abort();
    } catch (const pl::InputError&) {
    }
    return 0;
}
