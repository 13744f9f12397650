#include "TinyLmInputs.h"

#include "core/Errors.h"
#include "tinylm/SafeTensors.h"

namespace pl::tinylm {

namespace {

bool hasSuffix(const std::string& s, const std::string& e) {
    if (s.size() < e.size())
        return false;
    for (size_t i = 0; i < e.size(); ++i)
        if (std::tolower(static_cast<unsigned char>(s[s.size() - e.size() + i])) != e[i])
            return false;
    return true;
}

template <class T> const T* findOne(const InputList& inputs, const char* what) {
    const T* found = nullptr;
    for (const auto& in : inputs)
        if (const auto* t = dynamic_cast<const T*>(in.get())) {
            if (found)
                throw InputError(in->path, std::string("only one ") + what + " per run");
            found = t;
        }
    return found;
}

} // namespace

std::shared_ptr<const LoadedInput> loadTinyLmInput(const std::string& path) {
    if (hasSuffix(path, ".safetensors")) {
        auto in = std::make_shared<ModelInput>();
        in->model = modelFromSafeTensors(readSafeTensors(path), path);
        in->path = path;
        in->kind = "safetensors";
        if (in->model.arch == "transformer") {
            const TransformerModel& t = in->model.transformer;
            in->summary = "transformer: " + std::to_string(t.layers.size()) + " layers, d " +
                          std::to_string(t.dModel()) + ", " + std::to_string(t.nHeads) + " heads, V " +
                          std::to_string(t.vocab()) + ", " + std::to_string(t.maxPositions()) + " positions";
        } else if (in->model.arch == "moe_lm") {
            const MoeLmModel& m = in->model.moe;
            in->summary = "moe_lm: " + std::to_string(m.nLayers()) + " layers x " +
                          std::to_string(m.nExperts()) + " experts (top-" + std::to_string(m.topK) + "), d " +
                          std::to_string(m.dModel()) + ", V " + std::to_string(m.vocab());
        } else {
            const MlpLmModel& m = in->model.mlp;
            in->summary = "mlp_lm: window " + std::to_string(m.window) + ", hidden " +
                          std::to_string(m.hidden()) + ", V " + std::to_string(m.vocab());
        }
        return in;
    }
    auto in = std::make_shared<PromptsInput>();
    in->prompts = readPrompts(path);
    in->path = path;
    in->kind = "prompts";
    in->summary = std::to_string(in->prompts.seqs.size()) + " prompts of token ids";
    return in;
}

const ModelInput* findModel(const InputList& inputs) {
    return findOne<ModelInput>(inputs, ".safetensors model");
}

const PromptsInput* findPrompts(const InputList& inputs) {
    return findOne<PromptsInput>(inputs, "prompt file");
}

} // namespace pl::tinylm
