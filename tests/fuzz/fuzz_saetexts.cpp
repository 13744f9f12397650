// libFuzzer target: the sae-domain-ood texts table (pl::hiddenstate::parseTextTable) must return
// rows with split train or test and a domain, or throw pl::InputError.
#include "core/Errors.h"
#include "hiddenstate/SaeInputs.h"

#include <cstddef>
#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    try {
        const pl::hiddenstate::TextTable t = pl::hiddenstate::parseTextTable(text, "fuzz.csv");
        if (t.ids.empty() || t.ids.size() != t.split.size() || t.ids.size() != t.domain.size())
            __builtin_trap();
        for (size_t i = 0; i < t.split.size(); ++i)
            if ((t.split[i] != "train" && t.split[i] != "test") || t.domain[i].empty())
                __builtin_trap();
    } catch (const pl::InputError&) {
    }
    return 0;
}
