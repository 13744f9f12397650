#pragma once
/// The REPA-P denoiser: a fully convolutional ResNet that predicts x0 from a noisy field and its
/// conditioning channels, with a FiLM time embedding, and optional 1x1 projection heads that decode
/// intermediate features into fields (dropped at inference).
///
///   h_0 = conv3x3(input) + b;  block l: h_{l+1} = h_l + conv3x3(SiLU(FiLM_l(GN(h_l), t))) + b_l
///   x0_hat = conv1x1(SiLU(GN(h_depth)));  head_l = conv1x1(h_{l+1}) for l in heads
///   FiLM_l: gamma, beta = linear_l(SiLU(linear(sinusoidal(t))))
///
/// Not thread-safe while training; forward() on a const net may run on several threads, each with
/// its own tape.
#include "convimg/ConvOps.h"
#include "core/Rng.h"
#include "nn/Parameter.h"

#include <cstdint>
#include <vector>

namespace pl::convimg {

/// Shape of a denoiser.
struct RepaNetConfig {
    int inChannels = 5;     ///< noisy field channels + conditioning channels
    int outChannels = 1;    ///< predicted x0 channels (and each head's)
    int channels = 8;       ///< width of the trunk
    int depth = 4;          ///< residual blocks
    int timeDim = 16;       ///< sinusoidal time features
    std::vector<int> heads; ///< blocks (0-based) followed by a 1x1 projection head
};

class RepaNet {
public:
    /// Initialises every parameter from \a rng (same config and stream: same weights).
    RepaNet(const RepaNetConfig& cfg, Rng rng);

    /// x0_hat and the head decodings (empty when withHeads is false).
    struct Output {
        Var x0;
        std::vector<Var> heads;
    };
    /// One denoiser call on a batch: input is inChannels x B*H*W, tNorm[b] = t_b / T in [0, 1].
    /// Adds the multiply-accumulates it performs to *macs when given.
    Output forward(nn::Tape& tape, const Mat& input, const std::vector<double>& tNorm, const MapShape& s,
                   bool withHeads, int64_t* macs = nullptr);

    /// Every trainable parameter (the heads' only when withHeads).
    std::vector<nn::Parameter*> parameters(bool withHeads);
    const RepaNetConfig& config() const { return m_cfg; }

private:
    RepaNetConfig m_cfg;
    int m_groups;
    nn::Parameter m_tW, m_tB;   // time embedding: C x timeDim, C x 1
    nn::Parameter m_inW, m_inB; // C x Cin*9
    std::vector<nn::Parameter> m_gW, m_gB, m_bW, m_bB, m_cW, m_cB;
    nn::Parameter m_outW, m_outB; // outC x C
    std::vector<nn::Parameter> m_hW, m_hB;
};

/// DDPM noise schedule (cosine, Nichol & Dhariwal) over T steps; index t = 1..T.
struct Diffusion {
    explicit Diffusion(int steps);
    int T;
    std::vector<double> alphaBar; ///< alphaBar[t], alphaBar[0] = 1
    std::vector<double> beta;     ///< beta[t] = 1 - alphaBar[t] / alphaBar[t - 1]
};

} // namespace pl::convimg
