// libFuzzer target: pl::simloop::parseTaskText must return a validated task or throw pl::InputError
// (the task JSON reader of the embodied-act panel).
#include "core/Errors.h"
#include "simloop/TaskFile.h"

#include <cstddef>
#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    try {
        const auto t = pl::simloop::parseTaskText(text, "fuzz.json");
        (void)t;
    } catch (const pl::InputError&) {
    }
    return 0;
}
