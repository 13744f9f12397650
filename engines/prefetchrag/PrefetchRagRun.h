#pragma once
/// The stages of PrefetchRagEngine::run() after the world is built: index and question retrieval,
/// writing, the mlp_lm, traces, the predictor, the simulations of every policy, the topic-shift
/// pass, trigger precision/recall, and the claims. Fills \a doc. Deterministic in (world, params, seed).
#include "core/ParamSpec.h"
#include "core/ResultDocument.h"
#include "core/RunContext.h"
#include "prefetchrag/RagWorld.h"

namespace pl::prefetchrag {

void runPrefetchRag(const RagWorld& world, const ParamSet& p, RunContext& ctx, ResultDocument& doc);

} // namespace pl::prefetchrag
