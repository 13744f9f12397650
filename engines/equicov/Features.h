#pragma once
/// Equivariant features of a point cloud (spec §9.2): the centred second moment M = (1/n) sum r r^T
/// (translation invariant), its deviator D = M - tr(M)/3 I, Q = dev(D^2), the invariants the MLP reads
/// (log(tr M / 3), tr D^2 / (tr M)^2, tr D^3 / (tr M)^3: scale, anisotropy, shape), and the Kelvin-Mandel
/// directions used by the mean and generator bases (unit v(I), v(D), v(Q)). Every basis element
/// transforms with rho(R), so any function of the invariants times them is exactly equivariant.
/// Pure functions; any thread.
#include "equicov/KelvinMandel.h"
#include "equicov/ShapeGenerator.h"

#include <array>

namespace pl::equicov {

struct Features {
    Eigen::Matrix3d m, d, q;
    double scale = 1;           ///< tr M / 3
    Eigen::Vector3d invariants; ///< log scale, tr D^2 / tr M^2, tr D^3 / tr M^3
    Vec6 vI, vD, vQ;            ///< unit Kelvin-Mandel directions (vD, vQ zero when D, Q vanish)
    /// The mean basis: v(I) scale, v(D), v(Q) / scale (each transforms with rho).
    std::array<Vec6, 3> meanBasis() const;
    /// The generator basis: P_iso, P_dev, sym(vI vD^T), sym(vI vQ^T), vD vD^T, sym(vD vQ^T), vQ vQ^T.
    std::array<Mat6, 7> covBasis() const;
};

inline constexpr int kMeanTerms = 3;
inline constexpr int kCovTerms = 7;

/// Centred second moment of a cloud (n >= 1).
Eigen::Matrix3d secondMoment(const Cloud& c);
/// Features of a second-moment tensor (tr M > 0).
Features featuresOf(const Eigen::Matrix3d& m);

} // namespace pl::equicov
