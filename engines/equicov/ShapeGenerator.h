#pragma once
/// The workload of the equivariant-covariance panel (spec §9.3): point clouds of solid ellipsoids,
/// boxes, cylinders and tori with random dimensions, a random rotation (or reflection) and
/// translation, partial occlusion (the points beyond a random plane are dropped, up to the given
/// fraction) and jitter; the target is the second-moment tensor of the underlying continuous shape
/// (closed forms) plus noise from N(0, Sigma*), the symmetric multivariate Laplace or a Student-t with
/// the true equivariant covariance Sigma* = exp(S*(M)) of the cloud's own second moment M, so the
/// covariance is learnable and heteroscedastic. OOD clouds: dimensions beyond the training range.
/// Deterministic in (settings, rng). Pure C++; any thread.
#include "equicov/KelvinMandel.h"

#include "core/Rng.h"

#include <Eigen/Core>

#include <string>
#include <vector>

namespace pl::equicov {

struct Cloud {
    std::string id;
    Eigen::Matrix<double, Eigen::Dynamic, 3> points; ///< n x 3
};

struct Sample {
    Cloud cloud;
    Vec6 target = Vec6::Zero(); ///< v(T) (noisy)
    Vec6 clean = Vec6::Zero();  ///< v(T) of the continuous shape (generator only)
    bool hasTarget = false;
};

struct ShapeSettings {
    int points = 128;
    double occlusion = 0.2;
    std::string noise = "laplace"; ///< laplace | gaussian | student_t
    double dof = 3;                ///< Student-t degrees of freedom
    double noiseScale = 1.0;       ///< multiplies Sigma*'s scale
};

/// \a count samples; \a ood draws dimensions from [2.5, 4] instead of [0.5, 2].
std::vector<Sample> generateShapes(const ShapeSettings& s, int count, bool ood, Rng rng);

/// The true log-covariance generator S*(M) of the workload (equivariant in M).
Mat6 trueGenerator(const Eigen::Matrix3d& secondMoment);

/// A uniformly random element of O(3) (a rotation, times -1 with probability 1/2 when \a reflections).
Eigen::Matrix3d randomOrthogonal(Rng& rng, bool reflections);

} // namespace pl::equicov
