#pragma once
/// Engine of the curve-scene-graph panel (spec §2, CURVE-SG, a workbench reconstruction):
/// relation prediction on traffic scene graphs whose training environments carry planted
/// spurious context relations. Trains the baseline (plain likelihood) and CURVE (variational
/// edges, uncertainty-guided structural regulariser, prototype debiasing) with the paperlab_nn
/// tape, evaluates ID / OOD / target-domain accuracy, edge uncertainty, risk-coverage and
/// low-data adaptation, and checks the paper's claims (incl. a spurious-strength-0 control).
/// Stateless; one instance may serve several threads.
///
/// Input: none (seeded synthetic scenes) or one scene-graph dataset (.jsonl, see
/// SceneGraphReader.h and the panel help).
///
/// Result keys: metrics.ood_accuracy_curve, ood_accuracy_baseline, id_accuracy_curve,
/// id_accuracy_baseline (balanced relation accuracy), uncertainty_spurious,
/// uncertainty_invariant (mean sd of the edge gate over the T posterior samples), ...;
/// series.train_loss_curve, train_loss_baseline, epoch_*_accuracy_*, risk_coverage_*, adaptation_*;
/// vectors.box_*; graphs.scene_<k>; claims c1-ood-beats-baseline, c2-uncertainty-spurious-higher,
/// c3-no-spurious-no-gap.
#include "core/Engine.h"

#include "curve/SceneGraph.h"

namespace pl::curve {

class CurveEngine : public pl::Engine {
public:
    std::string id() const override { return "curve-scene-graph"; }
    std::vector<ParamSpec> params() const override;
    std::vector<std::string> inputExtensions() const override { return {"jsonl"}; }
    int maxInputs() const override { return 1; }
    std::shared_ptr<const LoadedInput> load(const std::string& path) const override;
    ResultDocument run(const InputList& inputs, const ParamSet& params, RunContext& ctx) const override;
};

/// A loaded scene-graph dataset.
struct SceneSetInput : LoadedInput {
    SceneSet scenes;
};

} // namespace pl::curve
