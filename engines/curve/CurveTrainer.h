#pragma once
/// Training and evaluation of the relation predictor: the baseline (plain likelihood: mean
/// cross-entropy over agent pairs) and CURVE (cross-entropy + beta_KL KL(q(z)||N(mu0,1)) +
/// uncertainty-guided structural regulariser lambda_s mean(s2 a) + lambda_0 mean(a) +
/// lambda_env sum_kind Var_env(mean a of that edge kind) + lambda_vrex Var_env(R_env) +
/// lambda_proto CE(prototype assignment, environment)). Penalties ramp in linearly over the
/// first warm-up fraction of the steps (V-REx practice). Deterministic in (scenes, config, rng).
#include "curve/RelationModel.h"

#include <array>
#include <functional>

namespace pl::curve {

struct LossWeights {
    double betaKl = 0.01;
    double lambdaSigma = 0.1;
    double lambdaSparse = 0.01;
    double lambdaEnv = 1.0;
    double lambdaVrex = 1.0;
    double lambdaProto = 0.1;
    double priorMu = -2.0; ///< mean of the sparse edge prior N(mu0, 1)
};

struct TrainConfig {
    bool curve = false; ///< false: baseline (plain likelihood)
    int epochs = 8;
    int batchScenes = 32;
    double learningRate = 0.01;
    double tauStart = 1.0; ///< gate temperature, annealed geometrically to tauEnd
    double tauEnd = 0.3;
    double warmup = 0.3;  ///< fraction of steps over which the penalties ramp in
    int environments = 2; ///< number of training environments (env ids 0..n-1)
    LossWeights w;
};

/// Per-step record of a training run.
struct TrainLog {
    std::vector<double> loss;       ///< total loss per step
    std::vector<double> ce;         ///< cross-entropy part per step
    std::vector<double> epochIdAcc; ///< balanced accuracy on the ID monitor set after each epoch
    std::vector<double> epochOodAcc;
};

/// Evaluation of a model on a scene set.
struct Evaluation {
    std::vector<int> label, pred;                     ///< per agent pair
    std::vector<double> confidence;                   ///< max mean class probability per pair
    std::vector<std::array<double, kRelations>> prob; ///< mean class probabilities per pair
    std::vector<int> pairEdge;                        ///< edge index of each pair
    std::vector<double> edgeSigma;                    ///< posterior sd of z per edge (0 for the baseline)
    std::vector<double> edgeGateSd; ///< sd of the gate a over the T edge samples (0 for the baseline)
    std::vector<double> edgeGate;   ///< mean gate a per edge
    GraphBatch batch;               ///< the packed scenes (edges, kinds, endpoints)
    double balancedAccuracy = 0;    ///< mean per-class recall over classes present
    double accuracy = 0;            ///< plain accuracy over pairs
};

using StepHook = std::function<void(int step, int steps, double loss)>; ///< poll + progress
using EpochHook = std::function<void(int epoch, RelationModel& m, TrainLog& log)>;

/// Trains `model` in place on `train` (scenes carry env ids < cfg.environments).
TrainLog trainModel(RelationModel& model, const std::vector<const Scene*>& train, const TrainConfig& cfg,
                    Rng rng, const StepHook& onStep, const EpochHook& onEpoch = {});

/// Evaluates on `scenes`: variational models average `samples` edge draws (>= 1), others one pass.
/// `poll` (optional) is called before every pass (cancellation).
Evaluation evaluateModel(RelationModel& model, const std::vector<const Scene*>& scenes, int samples,
                         double tau, Rng rng, const std::function<void()>& poll = {});

/// Mean per-class recall over the classes that occur in `label`.
double balancedAccuracy(const std::vector<int>& label, const std::vector<int>& pred);

} // namespace pl::curve
