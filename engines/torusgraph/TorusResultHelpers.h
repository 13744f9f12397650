#pragma once
/// Pieces of the torus-graph engine's result: Eigen → result-document conversions, the coupling
/// graph, ROC/AUC and log–log slopes for the claims, the model's pair density for the 3D torus.
/// Pure functions of their arguments; any thread. Used by TorusGraphEngine only.

#include "TorusModel.h"

#include "core/Numeric.h"
#include "core/ResultDocument.h"

#include <chrono>
#include <limits>
#include <numbers>
#include <string>
#include <vector>

namespace pl::torusgraph::detail {

/// \a v with \a prec significant digits (for claim details and notes; std::ostream formatting).
inline std::string fmt(double v, int prec = 3) {
    return formatStreamed(v, prec);
}
/// A matrix for the result document, rows and columns labelled "<prefix>1", "<prefix>2", …
Matrix toMatrix(const Mat& m, const std::string& prefix);
/// A node × node matrix labelled with the channel names.
Matrix nodeMatrix(const Mat& m, const std::vector<std::string>& names);
/// Area under the ROC curve of scores for the pairs j < k against a 0/1 adjacency (ties averaged);
/// the curve goes to \a roc when given.
double rocAuc(const Mat& score, const Mat& adj, Series* roc);
/// Least-squares slope of log y against log x over points with y > 0 and x >= xMin.
double logSlope(const std::vector<double>& x, const std::vector<double>& y, double xMin = 0);
/// Wall-clock seconds since \a t0 (only for the timed scaling study).
double seconds(std::chrono::steady_clock::time_point t0);
/// Model-based bivariate density of (x_i, x_j) on a G × G grid (rows x_i, columns x_j), in 1/rad²:
/// the fitted conditional given the other channels, averaged over up to 500 samples.
Mat pairDensity(const Vec& eta, const RowMat& x, int i, int j, int G);
/// The coupling network: edge width = strength, colour = −log10 p (when tests ran), node positions
/// from \a coords (d × 2) when given.
Graph couplingGraph(const Mat& strength, const Mat& pValue, double alpha, const Mat* coords,
                    const std::vector<std::string>& names, bool haveTests);

} // namespace pl::torusgraph::detail
