// libFuzzer target: the lif-mmwave manifest reader. The bytes are parsed as a .seq.json manifest
// (pl::lifsnn::parseSeqManifest) and, as an .npy array [N, T, C], assembled into sequences with
// alternating labels (pl::lifsnn::assembleSequences); both must return validated data or throw
// pl::InputError.
#include "core/Errors.h"
#include "core/NpyReader.h"
#include "lifsnn/SeqManifestReader.h"

#include <cstddef>
#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string bytes(reinterpret_cast<const char*>(data), size);
    try {
        const pl::lifsnn::SeqManifest m =
            pl::lifsnn::parseSeqManifest(bytes, "fuzz.seq.json", "/nonexistent");
        (void)m;
    } catch (const pl::InputError&) {
    }
    try {
        const pl::NpyArray x = pl::NpyReader::parse(bytes, "fuzz.npy");
        pl::NpyArray y;
        y.shape = {x.rows()};
        y.dtype = "<f8";
        for (int64_t i = 0; i < x.rows() && i < 1'000'000; ++i)
            y.data.push_back(double(i % 2));
        if (int64_t(y.data.size()) == x.rows()) {
            const pl::lifsnn::SeqData d =
                pl::lifsnn::assembleSequences({x}, false, y, 1.0, {"fuzz.npy"}, "y.npy");
            (void)d;
        }
    } catch (const pl::InputError&) {
    }
    return 0;
}
