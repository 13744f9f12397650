#pragma once
/// k-means of the distill engine: k-means++ seeding (Arthur and Vassilvitskii 2007: first centre
/// uniform, then each next centre drawn with probability proportional to D^2, the squared distance
/// to the nearest chosen centre) and Lloyd iterations with GEMM assignments (|x|^2 - 2 x.c + |c|^2;
/// ties to the lowest centre index; an empty cluster keeps its previous centre, as
/// scipy.cluster.vq.kmeans2 does). Also a two-component PCA. Pure; any thread.
#include "core/Rng.h"

#include <Eigen/Core>

#include <functional>
#include <vector>

namespace pl::distill {

struct KMeansResult {
    Eigen::MatrixXd centres; ///< k x d
    std::vector<int> labels; ///< nearest centre of each row (after the last update)
    double inertia = 0;      ///< sum of squared distances to the nearest centre
    int iterations = 0;      ///< Lloyd iterations run
};

/// Index of the nearest centre for each row of \a X (ties to the lowest index); \a d2 (optional)
/// receives the squared distances.
std::vector<int> nearestCentres(const Eigen::MatrixXd& X, const Eigen::MatrixXd& centres,
                                Eigen::VectorXd* d2 = nullptr);

/// k-means++ seeding: \a k rows of \a X (k <= rows). Draws from \a rng.
Eigen::MatrixXd kmeansPlusPlus(const Eigen::MatrixXd& X, int k, Rng& rng);

/// Exactly \a iterations Lloyd steps (assign, then update the means) from \a initial, as
/// scipy.cluster.vq.kmeans2(X, initial, iter, minit='matrix'); labels are those of the final centres.
KMeansResult lloyd(const Eigen::MatrixXd& X, const Eigen::MatrixXd& initial, int iterations);

/// k-means++ then Lloyd until no label changes or \a maxIterations. \a poll (optional) is called
/// after every iteration (it may throw to cancel). k is clamped to the number of rows.
KMeansResult kmeans(const Eigen::MatrixXd& X, int k, Rng& rng, int maxIterations = 50,
                    const std::function<void()>& poll = {});

/// The two leading principal directions of the rows of \a fit (centred on their mean), and the
/// projection of \a X onto them (rows x 2). Sign fixed so the largest loading is positive.
Eigen::MatrixXd pca2(const Eigen::MatrixXd& fit, const Eigen::MatrixXd& X);

/// Mean squared distance of the rows of \a X to their mean (the trace of the covariance, 1/n).
double meanSquaredSpread(const Eigen::MatrixXd& X);

} // namespace pl::distill
