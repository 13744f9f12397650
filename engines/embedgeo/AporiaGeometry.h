#pragma once
/// The math of the aporia-hallucination panel (APORIA, Ricco et al.): prompt-wise geometric
/// features, the ridge Fisher direction, kNN graphs with Gaussian weights and label propagation
/// (Zhou et al. 2004, as sklearn's LabelSpreading), and the baselines' classifiers. All in double.
/// Pure functions; any thread; the long loops poll \a ctx where given.

#include "ResponseSet.h"

#include "core/RunContext.h"

#include <Eigen/Core>

#include <utility>
#include <vector>

namespace pl::embedgeo {

/// Per-response geometric features within its prompt (unit rows): columns
/// 0 centroid_distance 1 − cos(e, c_p), c_p = normalise(mean of the prompt's rows);
/// 1 mean cosine to the prompt's other responses; 2 kNN radius (cosine distance to the k-th
/// nearest, k = min(5, R − 1)); 3 local density (mean cosine to those k); 4 share of the prompt in
/// its single-linkage cluster at the prompt's median kNN radius; 5 the prompt's dispersion
/// (trace of its covariance). Prompts with one response get zeros (listed in singletons).
struct PromptGeometry {
    Eigen::MatrixXd features;     ///< n x 6
    Eigen::MatrixXd centred;      ///< n x d: e − c_p
    std::vector<int> clusterSize; ///< per response: size of its cluster
    std::vector<int> singletons;  ///< prompt indices with a single response
};
PromptGeometry promptGeometry(const ResponseSet& set);

/// Columns standardised to mean 0, sd 1 (sd 0 → column of zeros).
Eigen::MatrixXd standardise(const Eigen::MatrixXd& X);

/// w = (S_W + λI)⁻¹(μ_H − μ_G) from the rows \a idx of \a X with labels y (1 = hallucinated);
/// S_W is the pooled within-class scatter divided by (n − 2).
Eigen::VectorXd fisherDirection(const Eigen::MatrixXd& X, const std::vector<int>& idx,
                                const std::vector<int>& y, double lambda);

/// A symmetric kNN graph (exactKnnGrid for <= 8 columns, else exactKnn): W_ij = exp(−|z_i − z_j|² / (2σ²))
/// for j among i's k nearest or i among j's (σ² = median squared distance to the k-th neighbour), and S =
/// D^-½ W D^-½ in CSR rows.
struct LpGraph {
    std::vector<std::vector<std::pair<int, double>>> w; ///< W, by row (sorted by column)
    std::vector<std::vector<std::pair<int, double>>> s; ///< S, same pattern
    Eigen::MatrixXd denseS() const;
};
LpGraph knnGraph(const Eigen::MatrixXd& Z, int k);

/// F ← α S F + (1 − α) Y from F = Y until max |ΔF| < 1e-10 (at most 1000 iterations). Y: n x 2
/// one-hot rows for seeds (seed[i] = 0 genuine, 1 hallucinated, −1 none). \a snapshots (optional)
/// receives F after the iterations listed in \a at (0 = Y).
struct LpResult {
    Eigen::MatrixXd F;
    int iterations = 0;
    std::vector<double> change; ///< max |ΔF| per iteration
};
LpResult propagate(const LpGraph& g, const std::vector<int>& seed, double alpha,
                   std::vector<Eigen::MatrixXd>* snapshots = nullptr, const std::vector<int>& at = {});

/// Hard labels from F: 1 where F(i,1) > F(i,0), else 0.
std::vector<int64_t> argmaxLabels(const Eigen::MatrixXd& F);

/// Majority vote of the k nearest seed rows (ties to the nearest seed's label).
std::vector<int64_t> knnSeedVote(const Eigen::MatrixXd& X, const std::vector<int>& idx,
                                 const std::vector<int>& y, int k);

/// L2 logistic regression as sklearn's LogisticRegression(C = 1) (Newton; intercept unpenalised);
/// returns P(y = 1) for every row of X.
Eigen::VectorXd logisticFitPredict(const Eigen::MatrixXd& X, const std::vector<int>& idx,
                                   const std::vector<int>& y);

/// The unsupervised rule: in each prompt the largest cluster is genuine (0), the rest 1.
std::vector<int64_t> densestClusterLabels(const ResponseSet& set, const PromptGeometry& g);

} // namespace pl::embedgeo
