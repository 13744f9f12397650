// libFuzzer target: the tinylm readers. The bytes are parsed as a `.safetensors` file
// (pl::tinylm::parseSafeTensors) and, when that succeeds, built into a model
// (modelFromSafeTensors), and separately as a prompt file (parsePrompts); each must return
// validated data or throw pl::InputError.
#include "core/Errors.h"
#include "tinylm/Prompts.h"
#include "tinylm/SafeTensors.h"
#include "tinylm/TinyModel.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string bytes(reinterpret_cast<const char*>(data), size);
    try {
        const pl::tinylm::SafeTensorsFile f = pl::tinylm::parseSafeTensors(bytes, "fuzz.safetensors");
        for (const auto& [name, t] : f.tensors)
            if (int64_t(t.data.size()) != t.size())
                std::abort(); // the reader promises data sized by the shape
        const pl::tinylm::LoadedModel m = pl::tinylm::modelFromSafeTensors(f, "fuzz.safetensors");
        if (m.arch == "transformer" && m.transformer.head.cols() != m.transformer.vocab())
            std::abort();
    } catch (const pl::InputError&) {
    }
    try {
        const pl::tinylm::PromptSet p = pl::tinylm::parsePrompts(bytes, "fuzz.txt");
        if (p.seqs.empty() || p.seqs.size() != p.lines.size())
            std::abort();
    } catch (const pl::InputError&) {
    }
    return 0;
}
