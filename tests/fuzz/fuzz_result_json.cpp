// libFuzzer target: pl::ResultDocument::fromJson must parse or throw pl::InputError; whatever it
// accepts must survive a toJson/fromJson round trip.
#include "core/Errors.h"
#include "core/ResultDocument.h"

#include <cstddef>
#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    try {
        const pl::ResultDocument doc = pl::ResultDocument::fromJson(text, "fuzz.json");
        const std::string again = doc.toJson(-1);
        (void)pl::ResultDocument::fromJson(again, "roundtrip.json");
    } catch (const pl::InputError&) {
    }
    return 0;
}
