#pragma once
/// care-recsets: drift-aware conformal risk control of recommendation sets (specs-000 §16, our
/// reconstruction). One CARE CSV per constituent recommender (rows agreeing), or the latent-factor
/// stand-in with abrupt drift; runs static CRC, ACI and CARE (CUSUM-triggered recalibration) on the
/// first constituent and aggregates every constituent's CARE sets. Stateless; one instance may
/// serve several threads. No Qt.

#include "core/Engine.h"
#include "streams/RecStream.h"

namespace pl::care {

/// A loaded CARE stream.
struct CareFileInput : LoadedInput {
    streams::RecStream stream;
};

class CareRecsetsEngine : public Engine {
public:
    std::string id() const override { return "care-recsets"; }
    std::vector<ParamSpec> params() const override;
    std::vector<std::string> inputExtensions() const override { return {"csv"}; }
    int maxInputs() const override { return 8; }
    std::shared_ptr<const LoadedInput> load(const std::string& path) const override;
    ResultDocument run(const InputList& inputs, const ParamSet& params, RunContext& ctx) const override;
};

} // namespace pl::care
