// libFuzzer target: pl::NpzReader::parse must return consistent arrays or throw pl::InputError
// (zip damage, lying sizes, bad members), never crash or allocate what a header claims.
#include "core/Errors.h"
#include "core/NpzReader.h"

#include <cstddef>
#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string bytes(reinterpret_cast<const char*>(data), size);
    try {
        const pl::NpzArchive z = pl::NpzReader::parse(bytes, "fuzz.npz", 1 << 24);
        if (z.arrays.empty())
            __builtin_trap(); // an empty archive must be refused
        for (const auto& [name, a] : z.arrays)
            if (a.size() != static_cast<int64_t>(a.data.size()) || z.find(name) == nullptr)
                __builtin_trap();
    } catch (const pl::InputError&) {
    }
    return 0;
}
