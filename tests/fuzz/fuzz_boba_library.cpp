// libFuzzer target: pl::bandits::parseLibraryCsv (the boba-screening library reader) must return a
// library whose columns agree (rows, ids, keys, scores, fingerprint bits), or throw pl::InputError.
#include "bandits/ScreenLibrary.h"
#include "core/Errors.h"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    try {
        const pl::bandits::ScreenLibrary lib = pl::bandits::parseLibraryCsv(text, "fuzz.csv");
        const size_t n = size_t(lib.fp.rows());
        if (n == 0 || lib.ids.size() != n || lib.key.size() != n || lib.score.size() != n ||
            lib.fp.bits() < 1)
            std::abort();
        for (size_t r = 0; r < n; ++r) {
            if (!std::isfinite(lib.score[r]) || lib.key[r] >= int(lib.keyNames.size()))
                std::abort();
            if (lib.fp.popcount(int64_t(r)) > lib.fp.bits())
                std::abort();
        }
    } catch (const pl::InputError&) {
    }
    return 0;
}
