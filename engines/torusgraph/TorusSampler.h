#pragma once
/// Synthetic torus graphs: random sparse graphs (Erdős–Rényi, ring, chain, regions block model)
/// with coupling vectors of planted norm, and a Gibbs sampler whose conditionals
/// x_j | x_−j ~ von Mises(atan2(B_j, A_j), √(A_j² + B_j²)) (the energy is linear in cos x_j, sin x_j).
/// Pure functions; deterministic in the given Rng.

#include "ScoreMatching.h"

namespace pl::torusgraph {

enum class GraphKind { ErdosRenyi, Ring, Chain, Regions };
/// "erdos_renyi" | "ring" | "chain" | "regions"; throws pl::UsageError otherwise.
GraphKind graphKindFromString(const std::string& s);

struct SparseTgSpec {
    int d = 16;
    GraphKind graph = GraphKind::ErdosRenyi;
    double edgeProb = 0.15;   ///< Erdős–Rényi p; "regions": within-region p (between: p/6)
    double couplingMin = 0.2; ///< ‖φ_e‖ ~ U(min, max)
    double couplingMax = 1.5;
    double marginalMax = 0.3;    ///< univariate concentration ~ U(0, max), random preferred phase
    bool differenceOnly = false; ///< only phase-difference terms (cos/sin(x_j − x_k))
};

/// A planted model: η (length 2d²) and the adjacency (d × d, 0/1, symmetric).
struct PlantedTg {
    Vec eta;
    Mat adjacency;
};
PlantedTg randomSparseTg(const SparseTgSpec& spec, Rng& rng);

struct GibbsOptions {
    int64_t samples = 2000;
    int burnIn = 500; ///< sweeps discarded at the start
    int thin = 5;     ///< sweeps between kept samples
};
/// Samples × d phases in [0, 2π) from p(x) ∝ exp(ηᵀS(x)).
RowMat gibbsSample(const Vec& eta, int d, const GibbsOptions& opt, Rng& rng, const Poll& poll = {});

/// Per-node conditional parameters (A_j, B_j) at x: natural parameters of x_j | x_−j.
void conditionalParameters(const Vec& ell, const Mat& W, const Eigen::Ref<const Vec>& x, Vec* A, Vec* B);
/// log I₀(κ) (series/continued through std::cyl_bessel_i, asymptotic for large κ).
double logBesselI0(double kappa);
/// Pseudo-log-likelihood Σ_j log vM(x_j; conditional of η) for each row of the tables (length n).
Vec pseudoLogLikelihood(const TrigTables& t, const Vec& eta);
/// Phase-locking value |mean exp(i(x_j − x_k))| per pair (d × d, ones on the diagonal).
Mat phaseLockingValue(const TrigTables& t);

} // namespace pl::torusgraph
