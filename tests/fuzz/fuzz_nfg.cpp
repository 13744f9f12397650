// libFuzzer target: pl::games::NfgReader::parse must return a validated game or throw
// pl::InputError. Limits are lowered so that the fuzzer explores structure, not allocation size.
#include "core/Errors.h"
#include "games/NfgReader.h"

#include <cstddef>
#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    pl::games::NfgLimits limits;
    limits.maxProfiles = 100'000;
    limits.maxPayoffBytes = 16ll << 20;
    try {
        const pl::games::NormalFormGame g = pl::games::NfgReader::parse(text, "fuzz.nfg", limits);
        (void)g;
    } catch (const pl::InputError&) {
    }
    return 0;
}
