#pragma once
/// The stages of MetadistillEngine::run().
#include "TeacherTrajectories.h"
#include "core/ParamSpec.h"
#include "core/ResultDocument.h"
#include "core/RunContext.h"

namespace pl::search::metadistill {

/// Runs every stage into \a doc; \a file (may be null) replaces the collected teacher trajectories.
void runMetadistill(const TeacherTrajectoriesInput* file, const ParamSet& p, RunContext& ctx,
                    ResultDocument& doc);

} // namespace pl::search::metadistill
