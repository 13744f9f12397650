#pragma once
/// Analysis of an ensemble of matched C-alpha sets shared by the file and the synthetic modes of
/// the protein engine: all-vs-all RMSD, clustering into states, PCA map, RMSF, per-residue
/// deviation between the two largest states, the subset of models shown in 3D, and writing all
/// of it into a ResultDocument. Pure functions.

#include "StateClustering.h"

#include "core/ParamSpec.h"
#include "core/ResultDocument.h"
#include "core/RunContext.h"

#include <Eigen/Core>

#include <string>
#include <vector>

namespace pl::protein {

struct EnsembleAnalysis {
    Eigen::MatrixXd rmsd;
    Clustering clustering;
    PcaMap pca;
    std::vector<Eigen::Matrix3Xd> aligned; ///< iteratively superposed on the mean
    std::vector<double> rmsf;              ///< per residue, A
    std::vector<double> deviation; ///< per residue between the medoids of states 0 and 1 (else = rmsf), A
};

/// Runs the analysis (progress from p0 to p1 of the run).
EnsembleAnalysis analyseEnsemble(const std::vector<Eigen::Matrix3Xd>& models, const ParamSet& p,
                                 RunContext& ctx, double p0, double p1);

/// Writes matrices.rmsd, labels.state, vectors.order/pc1/pc2, series.silhouette_vs_k, metrics
/// (n_states, silhouette, ...), matrices.per_residue and the display models.
void writeEnsemble(ResultDocument& doc, const EnsembleAnalysis& a, const std::vector<std::string>& modelNames,
                   const std::vector<std::string>& residueLabels, int maxShown);

/// Writes matrices.display_coords (rows = models, 3L columns) with labels.display_state and
/// labels.display_model.
void writeDisplay(ResultDocument& doc, const std::vector<Eigen::Matrix3Xd>& models,
                  const std::vector<int>& states, const std::vector<int>& modelIndex,
                  const std::vector<std::string>& rowNames);

/// Matrix with optional labels from an Eigen matrix.
Matrix toMatrix(const Eigen::MatrixXd& m, const std::vector<std::string>& rowLabels = {},
                const std::vector<std::string>& colLabels = {});

} // namespace pl::protein
