#pragma once
/// behavioral-abstraction: what survives state abstraction on a finite MDP. Computes V*, the
/// coarsest bisimulation and its quotient (commuting-square violation), the behavioural metric
/// (Ferns fixed point, W1 by network simplex), the controllable invariant of the safe label, the
/// maximal reach probability of the goal label, ε-abstractions by greedy merging and the
/// soundness of sampled modal formulas, with the claims of specs-000 §8. Input: one JSON MDP
/// (MdpReader.h) or a built-in world. Stateless; one instance may serve several threads. No Qt.

#include "core/Engine.h"
#include "mdp/Mdp.h"

namespace pl::mdp {

/// A JSON MDP loaded by the behavioral-abstraction or pac-bayes-sac engine.
struct MdpInput : LoadedInput {
    Mdp mdp;
};

/// Loads one JSON MDP file as an MdpInput (InputError with file, line and reason).
std::shared_ptr<const LoadedInput> loadMdpInput(const std::string& path);

class BehavioralAbstractionEngine : public Engine {
public:
    std::string id() const override { return "behavioral-abstraction"; }
    std::vector<ParamSpec> params() const override;
    std::vector<std::string> inputExtensions() const override { return {"json"}; }
    int maxInputs() const override { return 1; }
    std::shared_ptr<const LoadedInput> load(const std::string& path) const override {
        return loadMdpInput(path);
    }
    ResultDocument run(const InputList& inputs, const ParamSet& params, RunContext& ctx) const override;
};

} // namespace pl::mdp
