// libFuzzer target: pl::convimg::parseChoiceLog must return a consistent log (names sorted and
// unique, every index in range, image_a != image_b, s and o in {-1, +1}) or throw pl::InputError.
#include "convimg/BradleyTerry.h"
#include "core/Errors.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    try {
        const pl::convimg::ChoiceLog log = pl::convimg::parseChoiceLog(text, "fuzz.csv");
        const size_t m = log.a.size(), n = log.names.size();
        if (m == 0 || log.b.size() != m || log.s.size() != m || log.o.size() != m || log.lines.size() != m)
            std::abort();
        if (!std::is_sorted(log.names.begin(), log.names.end()) ||
            std::adjacent_find(log.names.begin(), log.names.end()) != log.names.end())
            std::abort();
        for (size_t i = 0; i < m; ++i)
            if (log.a[i] < 0 || size_t(log.a[i]) >= n || log.b[i] < 0 || size_t(log.b[i]) >= n ||
                log.a[i] == log.b[i] || std::abs(log.s[i]) != 1 || std::abs(log.o[i]) != 1)
                std::abort();
    } catch (const pl::InputError&) {
    }
    return 0;
}
