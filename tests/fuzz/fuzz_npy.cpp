// libFuzzer target: pl::NpyReader::parse must return a consistent array or throw pl::InputError,
// and must never allocate what a header merely claims.
#include "core/Errors.h"
#include "core/NpyReader.h"

#include <cstddef>
#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string bytes(reinterpret_cast<const char*>(data), size);
    try {
        const pl::NpyArray a = pl::NpyReader::parse(bytes, "fuzz.npy");
        if (a.size() != static_cast<int64_t>(a.data.size()))
            __builtin_trap(); // shape and payload disagree
        (void)a.rows();
        (void)a.cols();
    } catch (const pl::InputError&) {
    }
    return 0;
}
