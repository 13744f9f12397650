#pragma once
/// Template engine: mean squared displacement of independent 1-d Gaussian random walks.
/// Shows the parts every engine has: parameters, seeded randomness, progress, cancellation,
/// a series, a metric and a claim, with every key declared once in TemplateKeys.h. No Qt.
/// Stateless; one instance may serve several threads.

#include "core/Engine.h"

namespace pl::templ {

class TemplateEngine : public Engine {
public:
    std::string id() const override { return "template"; }
    std::vector<ParamSpec> params() const override;
    ResultDocument run(const InputList& inputs, const ParamSet& params, RunContext& ctx) const override;
};

} // namespace pl::templ
