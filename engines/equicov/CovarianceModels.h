#pragma once
/// The models of the equivariant-covariance panel, trained with the paperlab_nn tape (Adam):
///  - EquivariantModel: an MLP on the three invariants gives the mean coefficients (mu = a0 scale I +
///    a1 D + a2 dev(D^2) / scale) and the generator coefficients on Features::covBasis (or only c I for
///    the isotropic baseline); S = 2 log(scale) I + sum c_k B_k, Sigma = exp(S) (nn::symExpm, SPD by
///    construction). Losses on r = v(T) - mu, q = r^T exp(-S) r: "le_eso" (-log of the symmetric
///    Laplace density, log K_2 on the tape), "gauss_nll", "power_exp" (tr S / 2 + sqrt q). Exactly
///    equivariant: only invariants enter the MLP.
///  - AugmentedMlp: the non-equivariant baseline, an MLP on the 6 Kelvin-Mandel entries of M / scale
///    and log scale predicting the mean and a Cholesky factor of the precision (Gaussian NLL), trained
///    with a fresh random O(3) element applied to every sample in every epoch.
/// Deterministic in (data, settings, rng). Pure C++; any thread (one model per thread).
#include "equicov/Features.h"

#include "nn/Parameter.h"

#include "core/Rng.h"

#include <functional>
#include <string>
#include <vector>

namespace pl::equicov {

/// One training pair: the cloud's features and its target v(T).
struct Pair {
    Features f;
    Vec6 target = Vec6::Zero();
};

struct TrainConfig {
    int hidden = 16;
    int epochs = 30;
    int batch = 128;
    double lr = 0.01;
    std::string loss = "le_eso"; ///< le_eso | gauss_nll | power_exp
    bool isotropic = false;      ///< S = 2 log(scale) I + c I (baseline b)
};

/// Called between mini-batches with the fraction of training done (cancellation).
using Poll = std::function<void(double)>;

struct Prediction {
    Vec6 mean = Vec6::Zero();
    Mat6 logCov = Mat6::Zero(); ///< S
    Mat6 cov = Mat6::Zero();    ///< exp(S)
};

class EquivariantModel {
public:
    /// Trains on \a data; returns the mean training loss per epoch (NaN entries mean divergence).
    std::vector<double> train(const std::vector<Pair>& data, const TrainConfig& cfg, const Rng& rng,
                              const Poll& poll);
    std::vector<Prediction> predict(const std::vector<Features>& f) const;

private:
    nn::Parameter m_w1, m_b1, m_w2, m_b2;
    Eigen::Vector3d m_mean = Eigen::Vector3d::Zero(), m_sd = Eigen::Vector3d::Ones();
    TrainConfig m_cfg;
};

class AugmentedMlp {
public:
    std::vector<double> train(const std::vector<Pair>& data, const TrainConfig& cfg, const Rng& rng,
                              const Poll& poll);
    /// Predicted means v(mu) for second moments \a m.
    std::vector<Vec6> predict(const std::vector<Eigen::Matrix3d>& m) const;

private:
    nn::Parameter m_w1, m_b1, m_w2, m_b2;
    TrainConfig m_cfg;
};

} // namespace pl::equicov
