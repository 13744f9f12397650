#pragma once
/// Clustering of conformations into states from a distance (RMSD) matrix: k-medoids (PAM:
/// BUILD then SWAP) or average-linkage agglomerative clustering, with the number of states
/// chosen by the mean silhouette; adjusted Rand index against known states; PCA of aligned
/// coordinates for the 2D map. Written here because no Debian C++ library offers PAM or
/// silhouettes over a precomputed matrix. Pure functions; deterministic (ties to the lower index).

#include <Eigen/Core>

#include <functional>
#include <string>
#include <vector>

namespace pl::protein {

struct Clustering {
    std::vector<int> labels;  ///< state per model, 0..k-1, states numbered by decreasing size
    std::vector<int> medoids; ///< model index of each state's medoid (minimal summed distance)
    int k = 1;
    double silhouette = 0;             ///< mean silhouette of the chosen k (0 for k = 1)
    std::vector<double> silhouetteByK; ///< index k-2 -> mean silhouette for k = 2..kMax
};

/// k-medoids (PAM) into exactly k clusters.
std::vector<int> kMedoids(const Eigen::MatrixXd& D, int k);
/// Average-linkage agglomerative clustering cut into exactly k clusters.
std::vector<int> averageLinkage(const Eigen::MatrixXd& D, int k);
/// Mean silhouette of a labelling (0 when there is one cluster).
double meanSilhouette(const Eigen::MatrixXd& D, const std::vector<int>& labels);

/// Tries k = 2..kMax with `method` ("kmedoids" or "average"), keeps the k of the largest mean
/// silhouette, and falls back to one state when that silhouette is below minSilhouette.
Clustering clusterStates(const Eigen::MatrixXd& D, const std::string& method, int kMax, double minSilhouette,
                         const std::function<void()>& poll = {});

/// Adjusted Rand index of two labellings of the same items.
double adjustedRandIndex(const std::vector<int>& a, const std::vector<int>& b);

/// PCA of superposed coordinates: per model the first two principal components (Angstrom) and
/// the fraction of variance each explains.
struct PcaMap {
    std::vector<double> pc1, pc2;
    double explained1 = 0, explained2 = 0;
};
PcaMap pcaMap(const std::vector<Eigen::Matrix3Xd>& aligned);

} // namespace pl::protein
