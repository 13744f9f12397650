#pragma once
/// Geometry of embedding rows shared by the aporia-hallucination and negative-label-ood panels:
/// row normalisation, cosine GEMM, Wood's von Mises-Fisher sampler, PCA and exact kNN. All
/// arithmetic in double. Pure functions; any thread. No Qt.

#include "core/Rng.h"

#include <Eigen/Core>

#include <string>
#include <vector>

namespace pl::embedgeo {

/// Scales every row of \a X to unit length. Returns how many rows were more than 1e-6 away from
/// unit length (for the "renormalised" notice). Throws pl::InputError(\a file, "zero row i") for a
/// zero (or non-finite) row, naming \a what (an array name) and the 0-based index.
int normaliseRows(Eigen::MatrixXd& X, const std::string& file, const std::string& what);

/// Unit rows (no checks; zero rows stay zero).
Eigen::MatrixXd unitRows(const Eigen::MatrixXd& X);

/// Cosines of unit rows: A Bᵀ (n_a x n_b).
Eigen::MatrixXd cosineMatrix(const Eigen::MatrixXd& A, const Eigen::MatrixXd& B);

/// A uniformly random unit vector of dimension \a d.
Eigen::VectorXd randomUnit(Rng& rng, int d);

/// One draw of vMF(mu, kappa) on the unit sphere of dimension mu.size() >= 2 (Wood 1994: rejection
/// sampling of w = mu·x, then a uniform direction orthogonal to mu). kappa >= 0 (0 = uniform).
Eigen::VectorXd sampleVmf(Rng& rng, const Eigen::VectorXd& mu, double kappa);

/// Principal axes of the rows of \a X (centred on their column means): the \a m leading
/// eigenvectors of the covariance (d x m, columns by decreasing variance, sign fixed so the largest
/// entry of each column is positive) and their variances. Uses pl::symmetricEigen.
struct Pca {
    Eigen::RowVectorXd mean;
    Eigen::MatrixXd axes;     ///< d x m
    Eigen::VectorXd variance; ///< m
    /// (X − mean) axes: n x m scores.
    Eigen::MatrixXd project(const Eigen::MatrixXd& X) const;
};
Pca fitPca(const Eigen::MatrixXd& X, int m);

/// Exact k nearest neighbours of every row of \a X among the other rows by Euclidean distance
/// (blocked GEMM, ties to the lower index). idx and dist2 are n x k (k clipped to n − 1), sorted
/// by increasing distance; dist2 are squared distances clamped at 0.
struct Knn {
    Eigen::MatrixXi idx;
    Eigen::MatrixXd dist2;
};
Knn exactKnn(const Eigen::MatrixXd& X, int k);

/// The same neighbours (same order, same tie rule) found by sorting the rows on column 0 and
/// scanning outward from each row until the column-0 gap alone exceeds the current k-th distance:
/// O(n log n + n·k·scan), fast for low-dimensional inputs with a spread-out first column (e.g. a
/// Fisher score followed by a few PCs).
Knn exactKnnSorted(const Eigen::MatrixXd& X, int k);

/// The same neighbours from a uniform grid over the first min(3, d) columns (about k/27 points per
/// cell), visiting rings of cells until the ring's distance bound exceeds the k-th distance: exact,
/// and fast for low-dimensional inputs (the APORIA-LP space).
Knn exactKnnGrid(const Eigen::MatrixXd& X, int k);

} // namespace pl::embedgeo
