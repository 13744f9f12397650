#pragma once
/// Engine of the promise-protein-states panel (ProMiSE, spec 4): structural comparison of
/// conformations and the multi-state evaluation scheme on synthetic ensembles.
/// Stateless; one instance may serve several threads.
///
/// Inputs (PDB or mmCIF, optionally .gz):
///  * none: synthetic mode. A two-domain hinge protein (states A and B), ANM thermal ensembles,
///    a mixed ensemble clustered into states (ARI against the planted states), toy samplers
///    (unbiased, dominant-state biased, with/without context) evaluated by the state-assignment
///    scheme (coverage, occupancy, dominant-state bias, context sensitivity).
///  * one file: an ensemble (its models). matrices.rmsd (models x models, A, after optimal
///    superposition on the C-alphas common to every model), labels.state (clustering).
///  * two files: model 1 of the first (mobile) against model 1 of the second (reference):
///    metrics.tm_score, rmsd_common, gdt_ts, common_residues (TMscore program's definition).
///
/// Shared result keys for the figures: matrices.per_residue (rmsf, deviation; rows labelled by
/// residue), matrices.display_coords (shown models x 3L, superposed), labels.display_state,
/// labels.display_model, vectors.order (models ordered by state), vectors.pc1/pc2,
/// series.silhouette_vs_k; synthetic mode adds series twostate_*, success_*, ari_vs_theta,
/// anm_overlap, occupancy_* and the claims.
#include "core/Engine.h"

namespace pl::protein {

class ProteinEngine : public pl::Engine {
public:
    std::string id() const override { return "promise-protein-states"; }
    std::vector<ParamSpec> params() const override;
    std::vector<std::string> inputExtensions() const override { return {"pdb", "ent", "cif", "mmcif", "gz"}; }
    int maxInputs() const override { return 2; }
    /// Reads a structure through StructureReader (throws InputError with file, line, reason).
    std::shared_ptr<const LoadedInput> load(const std::string& path) const override;
    ResultDocument run(const InputList& inputs, const ParamSet& params, RunContext& ctx) const override;
};

} // namespace pl::protein
