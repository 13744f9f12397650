#pragma once
/// TG-HMM: a hidden Markov model whose K states are torus graphs. Emissions are scored by the
/// pseudo-log-likelihood (exactly normalised von Mises conditionals; the torus-graph normaliser
/// is intractable), the E-step is forward–backward in log space, the M-step runs weighted
/// stochastic score matching per state (minibatches drawn ∝ posterior, warm-started) and updates
/// the transitions from expected counts plus a sticky Dirichlet prior. Initialisation: k-means
/// (k-means++ seeding) on windowed phase-locking features. Deterministic in the Rng.

#include "TorusSampler.h"

namespace pl::torusgraph {

struct HmmOptions {
    int states = 2;
    int emIterations = 12;
    int mStepIterations = 300; ///< SSM iterations per state and EM round
    int batch = 64;
    double learningRate = 0.03;
    double lambda = 1e-3;   ///< L2 penalty of the M-step
    double stickiness = 20; ///< extra Dirichlet pseudo-counts on the diagonal of the transitions
    int window = 50;        ///< samples per window of the k-means initialisation
};

struct HmmResult {
    std::vector<Vec> eta;              ///< per state, length 2d²
    Mat transition;                    ///< K × K, rows sum to 1
    Mat posterior;                     ///< T × K
    std::vector<int64_t> states;       ///< Viterbi path
    std::vector<double> logLikelihood; ///< pseudo-log-likelihood of the data per EM round
};

HmmResult fitTorusHmm(const RowMat& x, const HmmOptions& opt, Rng& rng, const Poll& poll = {});

/// Switching data: a Markov chain of states with geometric dwell times (mean `dwell`), and
/// Gibbs sweeps under the current state's model between kept samples.
struct SwitchingData {
    RowMat x;
    std::vector<int64_t> states;
};
SwitchingData sampleSwitching(const std::vector<Vec>& etas, int d, int64_t T, double dwell, int thin,
                              Rng& rng, const Poll& poll = {});

/// Fraction of time points whose label agrees with the truth after the best relabelling
/// (all permutations, K ≤ 6).
double matchedAccuracy(const std::vector<int64_t>& truth, const std::vector<int64_t>& est, int K,
                       std::vector<int>* mapping = nullptr);

} // namespace pl::torusgraph
