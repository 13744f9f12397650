#pragma once
/// Engine of the sae-domain-ood panel (spec §18, SAE-Transitions): TopK SAE codes per layer, a
/// first-order Markov chain of feature hand-overs fitted on in-domain train texts only, and its
/// out-of-domain AUROC on the test split against single-layer baselines (naive Bayes on codes,
/// Mahalanobis, kNN) and a GRU backend; AUROC against k; SAE diagnostics.
/// Stateless; one instance may serve several threads.
///
/// Inputs: activations `.npy` [L, N, d] + texts `.csv` (id,domain,split) + optional SAE `.npz`
/// (else SAEs are trained on the train split, stream "sae"). Without files, the stand-in: topic
/// grammars + token salad and a tiny residual-MLP LM (streams "corpus", "lm"). GRU: stream "gru".
#include "core/Engine.h"

#include "hiddenstate/SaeInputs.h"

namespace pl::hiddenstate {

class SaeDomainEngine : public Engine {
public:
    std::string id() const override { return "sae-domain-ood"; }
    std::vector<ParamSpec> params() const override;
    std::vector<std::string> inputExtensions() const override { return {"npy", "csv", "npz"}; }
    int maxInputs() const override { return 3; }
    std::shared_ptr<const LoadedInput> load(const std::string& path) const override;
    ResultDocument run(const InputList& inputs, const ParamSet& params, RunContext& ctx) const override;
};

struct SaeActivationsInput : LoadedInput {
    std::vector<Eigen::MatrixXd> layers; ///< L x (N x d)
};
struct SaeTextsInput : LoadedInput {
    TextTable table;
};
struct SaeModelInput : LoadedInput {
    std::vector<SaeLayer> layers;
};

} // namespace pl::hiddenstate
