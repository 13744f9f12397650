#pragma once
/// Score-matching estimators of torus graphs: the closed form η = (Γ + λI)⁻¹H with Γ and H
/// accumulated over samples (node-blocked: the ≈4d rows of D(x) that touch node c form one dense
/// block per sample, accumulated with a symmetric rank-k update), the sandwich covariance and
/// per-edge Wald tests, and stochastic score matching (minibatch Adam with a decaying step, tail
/// averaging and an EMA-of-loss convergence monitor). Pure functions; thread-safe.

#include "TorusModel.h"

#include <functional>
#include <string>

namespace pl {
class Rng;
}

namespace pl::torusgraph {

/// Called between blocks of work (~ every few ms); may throw pl::Cancelled.
using Poll = std::function<void()>;

/// Phases as cos/sin tables (n × d, column-major so that one channel is contiguous).
struct TrigTables {
    Mat C, S;
    RowMat Z; ///< n × 2d row-major [cos x, sin x] per sample: contiguous minibatch gathers
    /// From phases (n × d, radians).
    static TrigTables of(const RowMat& x);
    int64_t n() const { return C.rows(); }
    int d() const { return int(C.cols()); }
};

/// Σ_i w_i D_i D_iᵀ and Σ_i w_i H_i (unnormalised) with the total weight.
struct GammaH {
    Mat gamma; ///< P × P, symmetric (both triangles filled)
    Vec h;     ///< P
    double weight = 0;
};

/// Accumulates Γ and H (node-blocked rank-k updates on the CPU; the node blocks of Γ on the GPU when
/// useCuda, which throws pl::EngineError in builds without CUDA kernels). weights: empty or length n, ≥ 0.
GammaH accumulateGammaH(const TrigTables& t, const Vec& weights = Vec(), const Poll& poll = {},
                        bool useCuda = false);
/// The same sums by the straightforward dense per-sample D Dᵀ (reference for tests; O(n P² d)).
GammaH accumulateGammaHDense(const RowMat& x);

/// Solves (Γ/w + λI) η = H/w by Cholesky. Throws pl::EngineError when the matrix is not positive
/// definite (too few samples for the parameters; λ > 0 fixes it).
Vec solveClosedForm(const GammaH& gh, double lambda);

/// Per-edge Wald tests from the sandwich covariance Σ = Γ⁻¹ V Γ⁻¹ / n (Klein et al.).
struct EdgeTests {
    Mat statistic; ///< d × d, symmetric: φ_eᵀ Σ_e⁻¹ φ_e
    Mat pValue;    ///< d × d, symmetric, χ²₄ tail (1 on the diagonal)
};
EdgeTests waldEdgeTests(const TrigTables& t, const GammaH& gh, const Vec& eta, double lambda,
                        const Poll& poll = {});
/// χ²₄ upper tail probability exp(−t/2)(1 + t/2).
double chi2Dof4Tail(double t);

/// Mean score-matching loss J(η) = ½ηᵀΓη − ηᵀH (+ ½λ‖η‖²) over the data (Γ, H normalised).
double scoreMatchingLoss(const GammaH& gh, const Vec& eta, double lambda);

struct SsmOptions {
    int iterations = 2000;
    int batch = 64;
    double learningRate = 0.03; ///< Adam step at iteration 0
    double finalLrRatio = 0.01; ///< step decays geometrically to learningRate × this at the end
    double tailFraction = 0.2;  ///< average the iterates of the last fraction (0 = last iterate)
    double lambda = 0;          ///< L2 penalty ½λ‖η‖²
    double emaBeta = 0.98;      ///< loss EMA for the convergence monitor
    double tolerance = 0;       ///< stop when the EMA improves by less than this (relative) over
                                ///< `patience` iterations; 0 = run all iterations
    int patience = 200;
    int recordEvery = 20;               ///< record the EMA loss (and the error vs reference) every k steps
    const Vec* reference = nullptr;     ///< optional: record ‖η − ref‖/‖ref‖ along the way
    const Vec* init = nullptr;          ///< optional warm start (length P)
    const Vec* sampleWeights = nullptr; ///< optional: draw samples ∝ weights (importance-weighted loss)
};

struct SsmResult {
    Vec eta;
    std::vector<double> recordIter, recordLoss, recordError;
    int iterationsRun = 0;
    bool stoppedEarly = false;
};

/// Stochastic score matching (per-sample loss −ηᵀH(x) + ½‖D(x)ᵀη‖² + ½λ‖η‖², Adam).
SsmResult stochasticScoreMatching(const TrigTables& t, const SsmOptions& opt, Rng& rng,
                                  const Poll& poll = {});

/// One minibatch gradient of the SSM loss at η for the given sample rows (exposed for tests and
/// the benchmark). Returns the batch-mean loss through *loss when non-null.
Vec ssmGradient(const TrigTables& t, const std::vector<int64_t>& rows, const Vec& eta, double lambda,
                double* loss = nullptr);

} // namespace pl::torusgraph
