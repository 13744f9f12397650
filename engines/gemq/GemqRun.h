#pragma once
/// The stages of GemqEngine::run(): the allocator alone on an importance table, or the full pipeline
/// on a moe_lm (trained in-engine when \a model is null; \a calib may be null only for weight_error
/// on a user model, which then gives the allocation without losses). Fill \a doc. Deterministic in
/// (inputs, params, seed).
#include "core/ParamSpec.h"
#include "core/ResultDocument.h"
#include "core/RunContext.h"
#include "gemq/ImportanceTable.h"
#include "tinylm/Prompts.h"
#include "tinylm/TinyModel.h"

namespace pl::gemq {

void runAllocatorOnly(const ImportanceInput& table, const ParamSet& p, RunContext& ctx, ResultDocument& doc);
void runGemq(const tinylm::MoeLmModel* model, const tinylm::PromptSet* calib, const ParamSet& p,
             RunContext& ctx, ResultDocument& doc);

} // namespace pl::gemq
