// libFuzzer target: the hidden-state panels' archive readers. The bytes are parsed as an .npz and
// validated as an InsLen caption (pl::hiddenstate::captionFromArchive, then checked against a
// vocabulary of 64) and as SAE weights (pl::hiddenstate::saeFromArchive); each must return
// consistent data or throw pl::InputError.
#include "core/Errors.h"
#include "core/NpzReader.h"
#include "hiddenstate/InsLenCaption.h"
#include "hiddenstate/SaeInputs.h"

#include <cstddef>
#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string bytes(reinterpret_cast<const char*>(data), size);
    pl::NpzArchive z;
    try {
        z = pl::NpzReader::parse(bytes, "fuzz.npz", 1 << 24);
    } catch (const pl::InputError&) {
        return 0;
    }
    try {
        const pl::hiddenstate::InsLenCaption c = pl::hiddenstate::captionFromArchive(z);
        if (c.answerIds.size() != size_t(c.answer[0].rows()) || c.labels.size() != c.objects.size())
            __builtin_trap();
        for (int y : c.labels)
            if (y != 0 && y != 1)
                __builtin_trap();
        pl::hiddenstate::checkCaptionAgainst(c, 64, c.layers(), c.dim());
    } catch (const pl::InputError&) {
    }
    try {
        const auto s = pl::hiddenstate::saeFromArchive(z);
        for (const auto& l : s)
            if (l.decoder.rows() != l.encoder.cols() || l.decoderBias.size() != l.encoder.rows())
                __builtin_trap();
    } catch (const pl::InputError&) {
    }
    return 0;
}
