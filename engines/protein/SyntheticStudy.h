#pragma once
/// The synthetic mode of the protein engine (no input file): hinge protein, ANM ensembles,
/// clustering of a mixed ensemble, toy samplers evaluated by the state-assignment scheme
/// (spec 4.4) and the claims. Fills a ResultDocument.

#include "core/ParamSpec.h"
#include "core/ResultDocument.h"
#include "core/RunContext.h"

namespace pl::protein {

void runSyntheticStudy(ResultDocument& doc, const ParamSet& p, RunContext& ctx);

} // namespace pl::protein
