#pragma once
/// The classifiers of the lif-mmwave panel, trained with the paperlab_nn tape (Adam, softmax cross
/// entropy, mini-batches in a seeded order):
///  - SNN: linear input layer C -> H on the standardised frames, a LIF layer (nn::lifRecurrence:
///    reset by subtraction, threshold 1, fast-sigmoid surrogate, BPTT), a linear readout of the
///    hidden spike rates (mean over time) to the classes; beta fixed or learnable (beta = sigmoid(rho));
///  - raw MLP on the flattened T x C window (ReLU hidden layer of H);
///  - 1-D CNN (H filters of 9 frames x C channels, ReLU, mean over time, linear readout);
///  - low-passed MLP: the raw MLP on the window filtered by the LIF low-pass at the SNN's beta.
/// Energy from op counts (45 nm: E_MAC = 4.6 pJ, E_AC = 0.9 pJ): the SNN pays MACs for its input
/// layer (analogue frames) and one AC per spike and readout connection; an ANN pays a MAC per weight
/// use. Deterministic in (data, settings, rng). Pure C++; any thread.
#include "lifsnn/SeqData.h"

#include "core/Rng.h"

#include <Eigen/Core>

#include <functional>
#include <vector>

namespace pl::lifsnn {

inline constexpr double kMacPj = 4.6;
inline constexpr double kAcPj = 0.9;

struct TrainSettings {
    int hidden = 32;
    int epochs = 12;
    int batch = 32;
    double lr = 0.01;
    double slope = 5.0;     ///< surrogate slope
    double threshold = 1.0; ///< LIF firing threshold
};

/// The data a model sees: standardised copies of the sequences (per-channel mean and sd of the
/// training rows), the train / test row indices.
struct Split {
    SeqData data; ///< standardised
    std::vector<int> train, test;
};

/// Standardises \a d with the statistics of its first \a trainRows rows.
Split makeSplit(const SeqData& d, int trainRows);

struct ModelResult {
    double accuracy = 0;           ///< on the test rows
    std::vector<double> lossCurve; ///< mean training loss per epoch
    double betaUsed = 0;           ///< SNN: the beta after training (learnable) or as given
    double spikesPerSequence = 0;  ///< SNN: hidden spikes per test sequence
    double macsPerSequence = 0;    ///< multiply-accumulates per test sequence
    double acsPerSequence = 0;     ///< accumulates per test sequence (SNN)
    Eigen::MatrixXd raster;        ///< SNN: hidden x T spikes of the shown test sequence
    std::vector<double> membrane;  ///< SNN: membrane potential of the most active neuron of it
    double energyPj() const { return macsPerSequence * kMacPj + acsPerSequence * kAcPj; }
};

/// Called between mini-batches (cancellation) with the fraction of this model's training done.
using TrainPoll = std::function<void(double fraction)>;

/// Trains and evaluates the SNN at \a beta (the starting value when \a learnable). \a shown is the
/// index into split.test of the sequence whose raster is returned.
ModelResult trainSnn(const Split& split, double beta, bool learnable, const TrainSettings& s, const Rng& rng,
                     int shown, const TrainPoll& poll);
/// Trains and evaluates the raw-window MLP; with lowPassBeta > 0, on the LIF-low-passed window.
ModelResult trainMlp(const Split& split, double lowPassBeta, const TrainSettings& s, const Rng& rng,
                     const TrainPoll& poll);
/// Trains and evaluates the 1-D CNN.
ModelResult trainCnn(const Split& split, const TrainSettings& s, const Rng& rng, const TrainPoll& poll);

} // namespace pl::lifsnn
