#pragma once
/// The coarse-to-fine generator of the protovar-distillation panel (spec §5 "Generator", a small
/// stand-in for VAR's transformer): p(r_k | r_<k, c), one MLP per scale k. At each position of
/// scale k its input is the previous reconstruction down_k(f_hat_<k) at that position (16 values),
/// the whole previous reconstruction at the previous scale, down_{k-1}(f_hat_<k) (s_{k-1}^2 x 16
/// values: the global layout), a one-hot of the position within the scale and a one-hot of the
/// class (plus a "null" class);
/// relu hidden layer; V logits. All positions of a scale are predicted in parallel. Trained with
/// Adam on the tokens of the real images, class dropout 0.1 (the class replaced by null), which
/// enables classifier-free guidance l = (1 + w) l_c - w l_null at sampling.
///
/// Prototype injection (our reconstruction of ProtoVAR's guidance): with a prototype P (a latent,
/// the k-means centre of the class's f_hat_<=k), the logits get
///   l'(v) = l(v) - beta_k || down_k(f_hat_<k) + e_v - down_k(P) ||^2 / C
/// at each position (the candidate codeword's contribution measured on the s_k grid).
/// Training is not thread-safe; sampling (const) is.
#include "distill/MultiScaleQuantiser.h"
#include "nn/Parameter.h"

#include <functional>
#include <vector>

namespace pl::distill {

struct GeneratorTraining {
    int steps = 250; ///< Adam updates per scale (coarse scales have few rows: several passes)
    int batch = 128;
    double lr = 5e-3;
    double classDropout = 0.1;
};

/// What to sample for one class.
struct SampleRequest {
    int cls = 0;
    int count = 0;
    double cfg = 1.0;         ///< w
    double temperature = 1.0; ///< logits divided by it before the bias
    /// prototypes[k][m]: latent (g^2 x 16) of prototype m at scale k; empty: no injection.
    std::vector<std::vector<Eigen::MatrixXd>> prototypes;
    std::vector<double> betaK; ///< beta_k per scale (ignored without prototypes)
};

/// A pool: final latents, tokens and the chosen prototype per sample; the mean entropy (bits) of
/// the sampling distribution per scale.
struct SampledPool {
    std::vector<Eigen::MatrixXd> latents;
    std::vector<ScaleTokens> tokens;
    std::vector<int> prototype;
    std::vector<double> entropyBits;
};

class ScaleGenerator {
public:
    ScaleGenerator(const MultiScaleQuantiser& q, int classes, int hidden, Rng& init);

    /// Trains every scale's MLP on the token sequences of the real images (\a tokens, \a labels),
    /// the contexts being their own cumulative reconstructions. \a poll gets the fraction done.
    void train(const std::vector<ScaleTokens>& tokens, const std::vector<int>& labels,
               const GeneratorTraining& cfg, Rng& rng, const std::function<void(double)>& poll);

    /// Input rows of scale k for contexts \a fhat (one latent per sample) and one class index
    /// (classes = the null class): rows sample-major, positions row-major.
    Eigen::MatrixXd inputs(int k, const std::vector<Eigen::MatrixXd>& fhat,
                           const std::vector<int>& cls) const;
    /// Logits of scale k for input rows \a X.
    Eigen::MatrixXd logits(int k, const Eigen::MatrixXd& X) const;

    /// Samples \a req.count images of class req.cls. Draw order (so pools that differ only in beta
    /// share their random numbers): the prototype of every sample, then per scale one uniform per
    /// (sample, position), sample-major; tokens by the inverse CDF of the softmax.
    SampledPool sample(const SampleRequest& req, Rng& rng) const;

    int classes() const { return m_classes; }
    /// The weights of scale k: W1, b1, W2, b2 (for oracles and benchmarks).
    std::vector<Eigen::MatrixXd> weights(int k) const;

private:
    MultiScaleQuantiser m_q; ///< a copy (codebook fitted before the generator is made)
    int m_classes;
    struct Mlp {
        nn::Parameter w1, b1, w2, b2;
    };
    std::vector<Mlp> m_mlp;
};

} // namespace pl::distill
