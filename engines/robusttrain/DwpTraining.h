#pragma once
/// Training through noisy weights (dwp-cim-robustness, spec §11) and the evaluation sweeps.
/// Methods: standard (clean weights), noise injection (one noisy realisation per minibatch, a = 1),
/// R-averaging (R realisations, a = 1) and DWP, our reconstruction of diversity-aware weight
/// perturbation: per minibatch R realisations, disagreement D_i = 1 - max_c (1/R) sum_r
/// 1[argmax f(x_i; W~_r) = c], affinity a_i = B softmax(+-D_i / T_a) clipped to [a_min, a_max], loss
/// (1/B) sum_i a_i (1/R) sum_r CE(f(x_i; W~_r), y_i) with gradients through the perturbation. Pure;
/// deterministic in the Rng given; any thread.
#include "robusttrain/Datasets.h"
#include "robusttrain/Mlp.h"

#include <functional>
#include <vector>

namespace pl::robusttrain {

enum class DwpMethod { Standard, NoiseInjection, RAverage, Dwp };
enum class NoiseKind { Multiplicative, Additive, Mixed };

struct DwpTrainConfig {
    int epochs = 20, batch = 64, realisations = 4;
    double lr = 0.01, sigmaTrain = 0.3, temperature = 0.5, aMin = 0.2, aMax = 5.0;
    bool upweightDisagreement = true;   ///< false: up-weight agreement instead
    bool curriculum = false;            ///< sigma rises linearly from 0 to sigmaTrain over the first half
    NoiseKind noise = NoiseKind::Mixed; ///< mixed: realisation r is multiplicative for even r
};

struct DwpTrainLog {
    std::vector<double> loss; ///< mean training loss per epoch
    /// Per epoch, the fraction of training rows in each disagreement bin D = k / R (k = 0..R-1);
    /// empty for standard training and noise injection.
    std::vector<std::vector<double>> disagreement;
};

/// Trains \a net in place on \a train. \a poll(fraction) may throw to cancel.
DwpTrainLog trainRobust(Mlp& net, const Dataset& train, DwpMethod method, const DwpTrainConfig& c, Rng rng,
                        const std::function<void(double)>& poll);

/// Affinity weights B softmax(s D_i / T) clipped to [aMin, aMax] (s = +1 up-weights disagreement).
std::vector<double> affinityWeights(const std::vector<double>& D, double temperature, double aMin,
                                    double aMax, bool upweightDisagreement);

/// Mean and sd (population, over draws) of the accuracy at each sigma; multiplicative or additive.
struct SweepStats {
    std::vector<double> mean, sd;
};
SweepStats sigmaSweep(const Mlp& net, const Dataset& test, const std::vector<double>& sigmas, int draws,
                      NoiseKind kind, Rng rng, const std::function<void()>& poll);

/// Mean accuracy over \a draws PCM draws at each inference time (s).
std::vector<double> driftSweep(const Mlp& net, const Dataset& test, const std::vector<double>& times,
                               int draws, bool compensate, Rng rng, const std::function<void()>& poll);

/// Predicted class of the first \a rows test rows (columns) under \a draws multiplicative draws at
/// \a sigma (rows of the result), after a first row holding the true labels.
Eigen::MatrixXd decisionsUnderDraws(const Mlp& net, const Dataset& test, int rows, int draws, double sigma,
                                    Rng rng);

} // namespace pl::robusttrain
