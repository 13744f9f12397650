#pragma once
/// Normalised spectral clustering of a weighted undirected graph (Ng-Jordan-Weiss):
/// L_sym = I - D^{-1/2} W D^{-1/2}, its smallest eigenpairs from Spectra (shift-invert Lanczos
/// with a sparse LDLT factorisation), row-normalised embedding and k-means++ / Lloyd.
/// Pure functions; thread-compatible (no shared state).

#include "core/Rng.h"

#include <Eigen/Dense>
#include <Eigen/Sparse>

#include <functional>
#include <vector>

namespace pl::keypoints {

using SpMat = Eigen::SparseMatrix<double>;

/// L_sym of a symmetric non-negative weight matrix W (zero diagonal expected). Nodes of degree 0
/// get L_ii = 1 (isolated). Throws std::invalid_argument when W is not square.
SpMat normalisedLaplacian(const SpMat& W);

/// The `nev` smallest eigenpairs of a symmetric positive semi-definite sparse matrix (ascending
/// eigenvalues, eigenvectors as columns, unit norm). Uses Spectra's SymEigsShiftSolver around a
/// small negative shift. Throws pl::EngineError when Spectra does not converge. `poll` is
/// called between steps (cancellation).
struct EigenPairs {
    Eigen::VectorXd values;
    Eigen::MatrixXd vectors;
    int iterations = 0;
};
EigenPairs smallestEigenpairs(const SpMat& L, int nev, const std::function<void()>& poll = {});

/// Number of clusters by the eigengap heuristic: the k in [kMin, values.size()-1] that maximises
/// values[k] - values[k-1].
int eigengapClusters(const Eigen::VectorXd& values, int kMin = 2);

/// k-means on the rows of X with k-means++ seeding (from `rng`), `restarts` runs of Lloyd's
/// algorithm (at most maxIter each), keeping the lowest inertia. Labels 0..k-1.
struct KMeansResult {
    std::vector<int> labels;
    Eigen::MatrixXd centres; ///< k x d
    double inertia = 0;
};
KMeansResult kmeans(const Eigen::MatrixXd& X, int k, Rng& rng, int restarts = 10, int maxIter = 100);

/// The NJW embedding: the first k eigenvectors as columns, each row scaled to unit length.
Eigen::MatrixXd njwEmbedding(const Eigen::MatrixXd& vectors, int k);

/// Adjusted Rand index of two labelings of the same items (labels < 0 are skipped in both).
double adjustedRandIndex(const std::vector<int>& a, const std::vector<int>& b);

} // namespace pl::keypoints
