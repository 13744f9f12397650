// libFuzzer target: the equivariant-covariance readers. The bytes are parsed as clouds.csv, as an
// ASCII PLY file and as tensors.csv (pl::equicov::parseCloudCsv, parsePly, parseTensorCsv); each
// must return validated data or throw pl::InputError.
#include "core/Errors.h"
#include "equicov/CloudReader.h"

#include <cstddef>
#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    try {
        (void)pl::equicov::parseCloudCsv(text, "fuzz.csv");
    } catch (const pl::InputError&) {
    }
    try {
        (void)pl::equicov::parsePly(text, "fuzz.ply");
    } catch (const pl::InputError&) {
    }
    try {
        (void)pl::equicov::parseTensorCsv(text, "fuzz.csv");
    } catch (const pl::InputError&) {
    }
    return 0;
}
