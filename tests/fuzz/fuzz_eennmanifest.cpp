// libFuzzer target: the eefp-early-exit manifest reader. The bytes are parsed as an .eenn.json
// manifest (pl::smallnets::parseExitManifest) and, as an .npy logits array [N, K, C], validated and
// assembled with labels 0..C-1 in turn and cumulative FLOPs 1..K
// (pl::smallnets::assembleExitLogits); both must return validated data or throw pl::InputError.
#include "core/Errors.h"
#include "core/NpyReader.h"
#include "smallnets/ExitManifest.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string bytes(reinterpret_cast<const char*>(data), size);
    try {
        const pl::smallnets::ExitManifest m =
            pl::smallnets::parseExitManifest(bytes, "fuzz.eenn.json", "/nonexistent");
        for (size_t k = 1; k < m.flops.size(); ++k)
            if (!(m.flops[k] > m.flops[k - 1]))
                std::abort(); // the reader promises strictly increasing FLOPs
    } catch (const pl::InputError&) {
    }
    try {
        const pl::NpyArray L = pl::NpyReader::parse(bytes, "fuzz.npy");
        if (L.shape.size() == 3 && L.shape[0] <= 100'000 && L.shape[1] <= 64 && L.shape[2] >= 1) {
            pl::smallnets::ExitManifest m;
            m.logits = "fuzz.npy";
            m.labels = "labels.npy";
            for (int64_t k = 0; k < L.shape[1]; ++k)
                m.flops.push_back(double(k + 1));
            pl::NpyArray Y;
            Y.shape = {L.shape[0]};
            Y.dtype = "<i8";
            for (int64_t i = 0; i < L.shape[0]; ++i)
                Y.data.push_back(double(i % L.shape[2]));
            const pl::smallnets::ExitLogits e =
                pl::smallnets::assembleExitLogits(m, L, Y, nullptr, "fuzz.eenn.json");
            if (e.rows() != L.shape[0] || int64_t(e.logits.size()) != L.shape[1])
                std::abort();
        }
    } catch (const pl::InputError&) {
    }
    return 0;
}
