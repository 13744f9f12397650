#pragma once
/// Synthetic multi-state proteins (spec 4.6): a two-domain chain of ideal alpha-helix bundles
/// joined by a hinge linker (state A), the same chain with domain 2 rigidly turned about an
/// axis through the hinge (state B), anisotropic-network-model (ANM) normal modes for thermal
/// ensembles, mode overlap with the A->B displacement, and toy samplers that stand in for
/// structure predictors (a mixture over the states with a dominant-state weight, a decoding
/// temperature and a context response). All coordinates are C-alpha positions in Angstrom.
/// Pure functions; randomness only from the pl::Rng passed in.

#include "core/Rng.h"

#include <Eigen/Core>

#include <functional>
#include <string>
#include <vector>

namespace pl::protein {

struct HingeChainParams {
    int residuesPerDomain = 60;
    int helicesPerDomain = 3;
    int hingeLength = 4;
    double hingeAngleDeg = 35; ///< rotation of domain 2 in state B
};

struct HingeProtein {
    Eigen::Matrix3Xd stateA;    ///< 3 x L
    Eigen::Matrix3Xd stateB;    ///< 3 x L, domain 2 turned
    std::vector<int> domain;    ///< per residue: 0 domain 1, 1 linker, 2 domain 2
    int hingeResidue = 0;       ///< residue on the rotation axis
    double appliedAngleDeg = 0; ///< angle after the clash check (may be below the request)
    /// State at a fraction f of the rotation (0 = A, 1 = B): interpolates the angle, not the coordinates.
    Eigen::Matrix3Xd intermediate(double f) const;
    Eigen::Vector3d axis = Eigen::Vector3d::UnitZ(); ///< rotation axis direction
    Eigen::Vector3d pivot = Eigen::Vector3d::Zero(); ///< point on the axis (hinge C-alpha)
};

/// Builds the two-domain chain; throws std::invalid_argument for parameters outside the spec ranges.
HingeProtein buildHingeProtein(const HingeChainParams& p);

/// ANM normal modes (Atilgan 2001): Hessian with spring constant gamma = 1 within `cutoff` A,
/// dense symmetric eigendecomposition, the 6 rigid-body modes skipped. Columns of `vectors`
/// are unit 3L-vectors (x1, y1, z1, x2, ...), `values` ascending.
struct AnmModes {
    Eigen::VectorXd values;
    Eigen::MatrixXd vectors;
};
AnmModes anmModes(const Eigen::Matrix3Xd& ca, double cutoff, int modes);

/// One thermal sample: x + s * sum_k g_k v_k / sqrt(lambda_k), with s chosen so that the
/// expected RMSF over residues equals `rmsf` (A).
Eigen::Matrix3Xd anmSample(const Eigen::Matrix3Xd& x, const AnmModes& modes, double rmsf, Rng& rng);

/// Overlap of each mode with the displacement A->B (B superposed onto A first):
/// O_k = |v_k . d| / |d|.
std::vector<double> modeOverlaps(const Eigen::Matrix3Xd& a, const Eigen::Matrix3Xd& b, const AnmModes& modes);

/// A toy predictor: a mixture over the two states. Probability of state A is wDom, tempered by
/// the decoding temperature (pi_s proportional to pi_s^(1/T)); with the context on, a fraction c
/// of the mass moves to the induced state B.
struct ToySampler {
    std::string name;
    double wDom = 0.9;
    double tDec = 1.0;
    double contextResponse = 0.0;
    /// Probability of state B for this sampler, with or without context.
    double probB(bool contextOn) const;
};

} // namespace pl::protein
