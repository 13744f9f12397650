// libFuzzer target: pl::convimg::parseFieldFile must return square, finite N x N fields (2 <= N <=
// 1024, all of one size) or throw pl::InputError (the repa-physics field reader). Inputs starting
// with the .npy magic byte are parsed as .npy, the rest as CSV grids.
#include "convimg/FieldReader.h"
#include "core/Errors.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string bytes(reinterpret_cast<const char*>(data), size);
    const bool npy = size > 0 && data[0] == 0x93;
    try {
        const pl::convimg::FieldFile f = pl::convimg::parseFieldFile(bytes, "fuzz", npy);
        if (f.fields.empty() || f.n() < 2 || f.n() > 1024)
            std::abort();
        for (const auto& m : f.fields)
            if (m.rows() != f.n() || m.cols() != f.n() || !m.allFinite())
                std::abort();
        try {
            pl::convimg::requirePositive(f, "fuzz");
        } catch (const pl::InputError&) {
        }
    } catch (const pl::InputError&) {
    }
    return 0;
}
