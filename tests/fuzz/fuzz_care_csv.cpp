// libFuzzer target: pl::streams::readRecStream (the care-recsets CARE CSV reader) must return rows
// with valid list indices, ranks inside their lists, ascending needs in [0, 1] and weights in [0, 1],
// or throw pl::InputError.
#include "core/Errors.h"
#include "streams/RecStream.h"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <sstream>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
    try {
        const pl::streams::RecStream s = pl::streams::readRecStream(in, "fuzz.csv");
        if (s.rows.empty())
            std::abort();
        for (size_t t = 0; t < s.rows.size(); ++t) {
            const auto& r = s.rows[t];
            if (r.list < 0 || size_t(r.list) >= s.lists.size() || !(r.weight >= 0 && r.weight <= 1))
                std::abort();
            const auto& L = s.lists[size_t(r.list)];
            if (L.items.size() != L.needs.size() || r.rank >= int32_t(L.items.size()) ||
                (r.rank >= 0 && L.items[size_t(r.rank)] != r.trueItem))
                std::abort();
            for (size_t i = 0; i < L.needs.size(); ++i)
                if (!(L.needs[i] >= 0 && L.needs[i] <= 1) || (i && L.needs[i] < L.needs[i - 1]))
                    std::abort();
            if (s.setSize(t, 1.0, 50) != int(std::min<size_t>(L.items.size(), 50)))
                std::abort();
        }
    } catch (const pl::InputError&) {
    }
    return 0;
}
