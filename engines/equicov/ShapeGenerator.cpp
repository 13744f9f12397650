#include "equicov/ShapeGenerator.h"

#include "equicov/Features.h"

#include <Eigen/Eigenvalues>

#include <algorithm>
#include <cmath>
#include <numbers>

namespace pl::equicov {

namespace {

enum Shape { Ellipsoid, Box, Cylinder, Torus };

/// A point uniform in the solid (axis-aligned, centred) and the solid's second-moment diagonal.
struct Solid {
    Shape shape;
    Eigen::Vector3d dims; ///< ellipsoid semi-axes; box widths; cylinder (r, r, h); torus (R, r, -)
    Eigen::Vector3d secondMoment() const {
        switch (shape) {
        case Ellipsoid:
            return dims.array().square() / 5.0;
        case Box:
            return dims.array().square() / 12.0;
        case Cylinder:
            return {dims(0) * dims(0) / 4, dims(0) * dims(0) / 4, dims(2) * dims(2) / 12};
        case Torus: {
            const double R = dims(0), r = dims(1), e = (R * R + 0.75 * r * r) / 2;
            return {e, e, r * r / 4};
        }
        }
        return {};
    }
    Eigen::Vector3d draw(Rng& rng) const {
        for (;;) {
            const Eigen::Vector3d u(rng.uniform(-1, 1), rng.uniform(-1, 1), rng.uniform(-1, 1));
            switch (shape) {
            case Ellipsoid:
                if (u.squaredNorm() <= 1)
                    return u.cwiseProduct(dims);
                break;
            case Box:
                return 0.5 * u.cwiseProduct(dims);
            case Cylinder:
                if (u.head<2>().squaredNorm() <= 1)
                    return {u(0) * dims(0), u(1) * dims(0), 0.5 * u(2) * dims(2)};
                break;
            case Torus: {
                const double R = dims(0), r = dims(1);
                const Eigen::Vector3d p(u(0) * (R + r), u(1) * (R + r), u(2) * r);
                const double d = std::hypot(p(0), p(1)) - R;
                if (d * d + p(2) * p(2) <= r * r)
                    return p;
                break;
            }
            }
        }
    }
};

Solid randomSolid(Rng& rng, bool ood) {
    const double lo = ood ? 2.5 : 0.5, hi = ood ? 4.0 : 2.0;
    Solid s{Shape(rng.uniformInt(4)), {rng.uniform(lo, hi), rng.uniform(lo, hi), rng.uniform(lo, hi)}};
    if (s.shape == Torus)
        s.dims(1) = s.dims(0) * rng.uniform(0.2, 0.5);
    return s;
}

} // namespace

Eigen::Matrix3d randomOrthogonal(Rng& rng, bool reflections) {
    // Uniform rotation from a random unit quaternion.
    Eigen::Vector4d q(rng.normal(), rng.normal(), rng.normal(), rng.normal());
    q.normalize();
    const Eigen::Matrix3d r = Eigen::Quaterniond(q(0), q(1), q(2), q(3)).toRotationMatrix();
    return reflections && rng.uniform() < 0.5 ? Eigen::Matrix3d(-r) : r;
}

Mat6 trueGenerator(const Eigen::Matrix3d& m) {
    const Features f = featuresOf(m);
    const double s = 2 * std::log(0.05 * f.scale), a = f.invariants(1);
    const Mat6 piso = f.vI * f.vI.transpose(), pdev = Mat6::Identity() - piso;
    const Mat6 dd = f.vD * f.vD.transpose(), id = f.vI * f.vD.transpose() + f.vD * f.vI.transpose();
    return (s + 0.8 + 1.5 * a) * piso + (s - 0.5 + 2.0 * a) * pdev + 1.2 * dd - 0.6 * id;
}

std::vector<Sample> generateShapes(const ShapeSettings& s, int count, bool ood, Rng rng) {
    std::vector<Sample> out;
    out.reserve(size_t(count));
    for (int k = 0; k < count; ++k) {
        const Solid solid = randomSolid(rng, ood);
        const Eigen::Matrix3d r = randomOrthogonal(rng, true);
        const Eigen::Vector3d t(rng.uniform(-5, 5), rng.uniform(-5, 5), rng.uniform(-5, 5));
        std::vector<Eigen::Vector3d> pts;
        for (int i = 0; i < s.points; ++i)
            pts.push_back(solid.draw(rng));
        // Occlusion: drop the points beyond a random plane (a share up to `occlusion`).
        const double drop = s.occlusion * rng.uniform();
        const Eigen::Vector3d n = randomOrthogonal(rng, false).col(0);
        std::vector<double> proj;
        for (const auto& p : pts)
            proj.push_back(p.dot(n));
        std::vector<double> sorted = proj;
        std::sort(sorted.begin(), sorted.end());
        const size_t keep = std::max<size_t>(8, size_t(std::ceil((1 - drop) * double(pts.size()))));
        const double cut = sorted[std::min(keep, sorted.size()) - 1];
        Sample smp;
        smp.cloud.id = (ood ? "ood-" : "s-") + std::to_string(k);
        std::vector<Eigen::Vector3d> kept;
        for (size_t i = 0; i < pts.size(); ++i)
            if (proj[i] <= cut && kept.size() < keep)
                kept.push_back(r * pts[i] + t +
                               0.01 * Eigen::Vector3d(rng.normal(), rng.normal(), rng.normal()));
        smp.cloud.points.resize(Eigen::Index(kept.size()), 3);
        for (size_t i = 0; i < kept.size(); ++i)
            smp.cloud.points.row(Eigen::Index(i)) = kept[i].transpose();
        const Eigen::Matrix3d truth = r * solid.secondMoment().asDiagonal() * r.transpose();
        smp.clean = kelvinMandel(truth);
        // Noise with the true equivariant covariance of the observed cloud.
        const Mat6 sigma = trueGenerator(secondMoment(smp.cloud));
        Eigen::SelfAdjointEigenSolver<Mat6> es(sigma);
        const Vec6 half = (0.5 * es.eigenvalues()).array().exp();
        Vec6 z;
        for (int i = 0; i < 6; ++i)
            z(i) = rng.normal();
        double w = 1;
        if (s.noise == "laplace")
            w = std::sqrt(rng.exponential(1.0));
        else if (s.noise == "student_t")
            w = 1 / std::sqrt(rng.gamma(s.dof / 2, 2.0) / s.dof);
        smp.target = smp.clean + s.noiseScale * w *
                                     (es.eigenvectors() * half.asDiagonal() * es.eigenvectors().transpose()) *
                                     z;
        smp.hasTarget = true;
        out.push_back(std::move(smp));
    }
    return out;
}

} // namespace pl::equicov
