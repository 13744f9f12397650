#include "SyntheticProtein.h"

#include "Superposition.h"
#include "core/SymmetricEigen.h"

#include <Eigen/Dense>
#include <Eigen/Geometry>

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace pl::protein {

namespace {

constexpr double kPi = 3.14159265358979323846;
constexpr double kBond = 3.8; // C-alpha spacing of loops and linker, A

/// Points from a to b (both excluded) spaced about kBond apart.
std::vector<Eigen::Vector3d> loopPoints(const Eigen::Vector3d& a, const Eigen::Vector3d& b) {
    const double d = (b - a).norm();
    const int segments = std::max(1, int(std::lround(d / kBond)));
    std::vector<Eigen::Vector3d> out;
    for (int s = 1; s < segments; ++s)
        out.push_back(a + (b - a) * (double(s) / segments));
    return out;
}

/// An up-down bundle of `helices` ideal helices (C-alpha radius 2.3 A, rise 1.5 A, 100 deg per
/// residue) on a regular polygon with ~10 A sides, joined by straight loops; about `residues`
/// C-alphas in total. Starts near the origin, axes along z.
std::vector<Eigen::Vector3d> helixBundle(int residues, int helices) {
    const double side = 10.0;
    const double circumR = helices == 2 ? side / 2 : side / (2 * std::sin(kPi / helices));
    const int loopGuess = 2; // residues per loop, refined by loopPoints
    const int perHelix = std::max(5, (residues - loopGuess * (helices - 1)) / helices);
    std::vector<Eigen::Vector3d> pts;
    for (int h = 0; h < helices; ++h) {
        const double phi = 2 * kPi * h / helices;
        const Eigen::Vector3d axisPos(circumR * std::cos(phi), circumR * std::sin(phi), 0);
        const bool up = h % 2 == 0;
        std::vector<Eigen::Vector3d> helix;
        for (int i = 0; i < perHelix; ++i) {
            const double t = i * 100.0 * kPi / 180.0;
            const double z = up ? 1.5 * i : 1.5 * (perHelix - 1 - i);
            helix.emplace_back(axisPos +
                               Eigen::Vector3d(2.3 * std::cos(t + phi), 2.3 * std::sin(t + phi), z));
        }
        if (!pts.empty())
            for (const auto& p : loopPoints(pts.back(), helix.front()))
                pts.push_back(p);
        pts.insert(pts.end(), helix.begin(), helix.end());
    }
    return pts;
}

Eigen::Matrix3Xd toMatrix(const std::vector<Eigen::Vector3d>& pts) {
    Eigen::Matrix3Xd m(3, Eigen::Index(pts.size()));
    for (size_t i = 0; i < pts.size(); ++i)
        m.col(Eigen::Index(i)) = pts[i];
    return m;
}

double minInterDistance(const Eigen::Matrix3Xd& x, const std::vector<int>& domain) {
    double best = std::numeric_limits<double>::infinity();
    for (long i = 0; i < x.cols(); ++i) {
        if (domain[size_t(i)] != 0)
            continue;
        for (long j = 0; j < x.cols(); ++j)
            if (domain[size_t(j)] == 2)
                best = std::min(best, (x.col(i) - x.col(j)).norm());
    }
    return best;
}

Eigen::Matrix3Xd rotateDomain2(const HingeProtein& p, const Eigen::Matrix3Xd& a, double deg) {
    const Eigen::Matrix3d R = Eigen::AngleAxisd(deg * kPi / 180.0, p.axis).toRotationMatrix();
    Eigen::Matrix3Xd b = a;
    for (long i = p.hingeResidue + 1; i < a.cols(); ++i)
        b.col(i) = R * (a.col(i) - p.pivot) + p.pivot;
    return b;
}

} // namespace

Eigen::Matrix3Xd HingeProtein::intermediate(double f) const {
    return rotateDomain2(*this, stateA, f * appliedAngleDeg);
}

HingeProtein buildHingeProtein(const HingeChainParams& p) {
    if (p.residuesPerDomain < 30 || p.residuesPerDomain > 400 || p.helicesPerDomain < 2 ||
        p.helicesPerDomain > 6 || p.hingeLength < 2 || p.hingeLength > 8 || p.hingeAngleDeg < 0 ||
        p.hingeAngleDeg > 90)
        throw std::invalid_argument("hinge chain parameters outside the allowed ranges");
    HingeProtein out;
    const std::vector<Eigen::Vector3d> d1 = helixBundle(p.residuesPerDomain, p.helicesPerDomain);
    // Domain 2: the same bundle turned upside down (about x) and placed beside domain 1 along x,
    // with its first residue at about (hinge + 1) * 3.8 A from the last residue of domain 1.
    std::vector<Eigen::Vector3d> d2 = helixBundle(p.residuesPerDomain, p.helicesPerDomain);
    const Eigen::Matrix3d flip = Eigen::AngleAxisd(kPi, Eigen::Vector3d::UnitY()).toRotationMatrix();
    for (auto& v : d2)
        v = flip * v;
    const Eigen::Vector3d c1 = toMatrix(d1).rowwise().mean();
    const Eigen::Vector3d end1 = d1.back();
    const double gap = (p.hingeLength + 1) * kBond * 0.95;
    // Place domain 2 so that its first residue sits at end1 + gap along the direction away from
    // domain 1's centre (in the xy plane).
    Eigen::Vector3d dir = end1 - c1;
    dir.z() = 0;
    if (dir.norm() < 1e-6)
        dir = Eigen::Vector3d::UnitX();
    dir.normalize();
    const Eigen::Vector3d c2raw = toMatrix(d2).rowwise().mean();
    const Eigen::Vector3d start2 = end1 + dir * gap;
    // Turn domain 2 about z so that its centre lies further along dir than its first residue.
    const Eigen::Vector3d v2 = c2raw - d2.front();
    const double ang = std::atan2(dir.y(), dir.x()) - std::atan2(v2.y(), v2.x());
    const Eigen::Matrix3d turn = Eigen::AngleAxisd(ang, Eigen::Vector3d::UnitZ()).toRotationMatrix();
    const Eigen::Vector3d first2 = d2.front();
    for (auto& v : d2)
        v = turn * (v - first2) + start2;
    std::vector<Eigen::Vector3d> pts = d1;
    out.domain.assign(d1.size(), 0);
    const std::vector<Eigen::Vector3d> linker = loopPoints(end1, d2.front());
    // Exactly hingeLength linker residues: resample the straight segment.
    for (int s = 1; s <= p.hingeLength; ++s) {
        pts.push_back(end1 + (d2.front() - end1) * (double(s) / (p.hingeLength + 1)));
        out.domain.push_back(1);
    }
    (void)linker;
    out.hingeResidue = int(d1.size()) + p.hingeLength / 2;
    pts.insert(pts.end(), d2.begin(), d2.end());
    out.domain.insert(out.domain.end(), d2.size(), 2);
    out.stateA = toMatrix(pts);
    // Rotation axis through the hinge C-alpha, perpendicular to the line between the domain
    // centres and to z, so that domain 2 swings toward domain 1 (closing the cleft).
    out.pivot = out.stateA.col(out.hingeResidue);
    const Eigen::Vector3d cd1 = toMatrix(d1).rowwise().mean();
    const Eigen::Vector3d cd2 = toMatrix(d2).rowwise().mean();
    Eigen::Vector3d axis = (cd2 - cd1).cross(Eigen::Vector3d::UnitZ());
    if (axis.norm() < 1e-9)
        axis = Eigen::Vector3d::UnitY();
    out.axis = axis.normalized();
    // Clash check: inter-domain C-alpha distances stay >= 4 A; shrink the angle on failure.
    double deg = p.hingeAngleDeg;
    for (int tries = 0; tries < 60; ++tries) {
        const Eigen::Matrix3Xd b = rotateDomain2(out, out.stateA, deg);
        if (minInterDistance(b, out.domain) >= 4.0 || deg <= 0)
            break;
        deg *= 0.9;
        if (deg < 0.5)
            deg = 0;
    }
    out.appliedAngleDeg = deg;
    out.stateB = rotateDomain2(out, out.stateA, deg);
    return out;
}

AnmModes anmModes(const Eigen::Matrix3Xd& ca, double cutoff, int modes) {
    const long L = ca.cols();
    Eigen::MatrixXd H = Eigen::MatrixXd::Zero(3 * L, 3 * L);
    const double rc2 = cutoff * cutoff;
    for (long i = 0; i < L; ++i)
        for (long j = i + 1; j < L; ++j) {
            const Eigen::Vector3d d = ca.col(j) - ca.col(i);
            const double r2 = d.squaredNorm();
            if (r2 >= rc2 || r2 <= 0)
                continue;
            const Eigen::Matrix3d block = -(d * d.transpose()) / r2; // gamma = 1
            H.block<3, 3>(3 * i, 3 * j) = block;
            H.block<3, 3>(3 * j, 3 * i) = block;
            H.block<3, 3>(3 * i, 3 * i) -= block;
            H.block<3, 3>(3 * j, 3 * j) -= block;
        }
    const SymmetricEigen es = symmetricEigen(H);
    if (!es.ok)
        throw std::runtime_error("ANM eigendecomposition failed");
    const long m = std::clamp<long>(modes, 1, 3 * L - 6);
    AnmModes out;
    out.values = es.values.segment(6, m);
    out.vectors = es.vectors.middleCols(6, m);
    return out;
}

Eigen::Matrix3Xd anmSample(const Eigen::Matrix3Xd& x, const AnmModes& modes, double rmsf, Rng& rng) {
    const long L = x.cols();
    double var = 0;
    for (long k = 0; k < modes.values.size(); ++k)
        var += 1.0 / std::max(modes.values(k), 1e-9);
    const double s = var > 0 ? rmsf / std::sqrt(var / double(L)) : 0.0;
    Eigen::VectorXd dr = Eigen::VectorXd::Zero(3 * L);
    for (long k = 0; k < modes.values.size(); ++k)
        dr += modes.vectors.col(k) * (rng.normal() / std::sqrt(std::max(modes.values(k), 1e-9)));
    dr *= s;
    Eigen::Matrix3Xd out = x;
    out += Eigen::Map<const Eigen::Matrix3Xd>(dr.data(), 3, L);
    return out;
}

std::vector<double> modeOverlaps(const Eigen::Matrix3Xd& a, const Eigen::Matrix3Xd& b,
                                 const AnmModes& modes) {
    const Eigen::Matrix3Xd bFit = kabsch(b, a).apply(b);
    const Eigen::Matrix3Xd d = bFit - a;
    const Eigen::Map<const Eigen::VectorXd> dv(d.data(), d.size());
    const double n = dv.norm();
    std::vector<double> out;
    for (long k = 0; k < modes.vectors.cols(); ++k)
        out.push_back(n > 0 ? std::abs(modes.vectors.col(k).dot(dv)) / n : 0.0);
    return out;
}

double ToySampler::probB(bool contextOn) const {
    const double pa = std::pow(wDom, 1.0 / tDec);
    const double pb = std::pow(1.0 - wDom, 1.0 / tDec);
    double b = pa + pb > 0 ? pb / (pa + pb) : 0.5;
    if (contextOn)
        b = b + contextResponse * (1.0 - b);
    return b;
}

} // namespace pl::protein
