#pragma once
/// The user files of the tinylm panels, loaded into staging objects: a `.safetensors` model
/// (ModelInput) or a prompt file of token ids (PromptsInput, any other extension).
#include "core/Engine.h"
#include "tinylm/Prompts.h"
#include "tinylm/TinyModel.h"

namespace pl::tinylm {

struct ModelInput : LoadedInput {
    LoadedModel model;
};

struct PromptsInput : LoadedInput {
    PromptSet prompts;
};

/// Loads \a path by its extension (.safetensors: a model; else prompts). Throws pl::InputError.
std::shared_ptr<const LoadedInput> loadTinyLmInput(const std::string& path);

/// The one model and the one prompt file among \a inputs (nullptr when absent); a second of either
/// is an InputError naming it.
const ModelInput* findModel(const InputList& inputs);
const PromptsInput* findPrompts(const InputList& inputs);

} // namespace pl::tinylm
