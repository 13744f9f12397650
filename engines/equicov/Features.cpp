#include "equicov/Features.h"

#include <cmath>

namespace pl::equicov {

namespace {

Vec6 unit(const Vec6& v) {
    const double n = v.norm();
    return n > 1e-12 ? Vec6(v / n) : Vec6::Zero();
}

Mat6 symOuter(const Vec6& a, const Vec6& b) {
    return 0.5 * (a * b.transpose() + b * a.transpose());
}

} // namespace

Eigen::Matrix3d secondMoment(const Cloud& c) {
    const Eigen::RowVector3d mean = c.points.colwise().mean();
    const Eigen::Matrix<double, Eigen::Dynamic, 3> r = c.points.rowwise() - mean;
    return r.transpose() * r / double(c.points.rows());
}

Features featuresOf(const Eigen::Matrix3d& m) {
    Features f;
    f.m = 0.5 * (m + m.transpose());
    const double tr = f.m.trace();
    f.scale = tr / 3;
    f.d = f.m - f.scale * Eigen::Matrix3d::Identity();
    const Eigen::Matrix3d d2 = f.d * f.d;
    f.q = d2 - d2.trace() / 3 * Eigen::Matrix3d::Identity();
    f.invariants << std::log(f.scale), d2.trace() / (tr * tr), (d2 * f.d).trace() / (tr * tr * tr);
    f.vI = kelvinMandel(Eigen::Matrix3d::Identity()) / std::sqrt(3.0);
    f.vD = unit(kelvinMandel(f.d));
    f.vQ = unit(kelvinMandel(f.q));
    return f;
}

std::array<Vec6, 3> Features::meanBasis() const {
    return {kelvinMandel(Eigen::Matrix3d::Identity()) * scale, kelvinMandel(d), kelvinMandel(q) / scale};
}

std::array<Mat6, 7> Features::covBasis() const {
    const Mat6 piso = vI * vI.transpose();
    return {piso,
            Mat6::Identity() - piso,
            symOuter(vI, vD),
            symOuter(vI, vQ),
            vD * vD.transpose(),
            symOuter(vD, vQ),
            vQ * vQ.transpose()};
}

} // namespace pl::equicov
