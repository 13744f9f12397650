#pragma once
/// Engine of the continual-forgetting panel (spec §5, QuadForget): a quadratic one-hidden-layer
/// network trained by full-batch gradient descent on a sequence of XOR-cluster tasks with
/// mutually orthogonal means (or on the user's `task,y,x1..xd` CSV), the K x K loss matrices,
/// forgetting F_i = L[K][i] - L[i][i] on train and test data, the Q = W^T diag(a) W view, an
/// optional sweep of one parameter and the paper's claims over replicate seeds.
/// Stateless; one instance may serve several threads.
///
/// Stages of run(): data (generator or files), main run, claims (5 replicate seeds each),
/// sweep (3 replicate seeds per value), packing. Seed streams: "means", "train", "test", "init"
/// of Rng(seed) for the main run, of Rng(seed).fork("replicate-r") for replicate r.
///
/// Inputs: none, one CSV (train; the test set is then drawn from nothing: test = train rows) or
/// two CSVs (train, test) with the same tasks and columns.
#include "core/Engine.h"

#include "smallnets/TaskData.h"

namespace pl::smallnets {

class ContinualForgettingEngine : public Engine {
public:
    std::string id() const override { return "continual-forgetting"; }
    std::vector<ParamSpec> params() const override;
    std::vector<std::string> inputExtensions() const override { return {"csv"}; }
    int maxInputs() const override { return 2; }
    std::shared_ptr<const LoadedInput> load(const std::string& path) const override;
    ResultDocument run(const InputList& inputs, const ParamSet& params, RunContext& ctx) const override;
};

/// A loaded task CSV.
struct TaskCsvInput : LoadedInput {
    TaskSet tasks;
};

} // namespace pl::smallnets
