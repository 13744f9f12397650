#include "convimg/RepaNet.h"

#include "core/Errors.h"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace pl::convimg {

namespace {

nn::Parameter heParam(const std::string& name, int rows, int fanIn, double gain, Rng& rng) {
    return nn::Parameter(name, nn::normalMatrix(rows, fanIn, gain * std::sqrt(2.0 / fanIn), rng));
}

nn::Parameter zeroParam(const std::string& name, int rows, int cols) {
    return nn::Parameter(name, Mat::Zero(rows, cols));
}

Var linear(nn::Tape& t, nn::Parameter& w, nn::Parameter& b, Var x) {
    return nn::add(nn::matmul(t.param(w), x), t.param(b));
}

} // namespace

RepaNet::RepaNet(const RepaNetConfig& cfg, Rng rng) : m_cfg(cfg) {
    const int C = cfg.channels;
    if (C < 1 || cfg.depth < 1 || cfg.inChannels < 1 || cfg.outChannels < 1 || cfg.timeDim < 2)
        throw EngineError("RepaNet: bad configuration");
    m_groups = C % 4 == 0 ? 4 : C % 2 == 0 ? 2 : 1;
    m_tW = heParam("time.w", C, cfg.timeDim, 1.0, rng);
    m_tB = zeroParam("time.b", C, 1);
    m_inW = heParam("in.w", C, cfg.inChannels * 9, 1.0, rng);
    m_inB = zeroParam("in.b", C, 1);
    for (int l = 0; l < cfg.depth; ++l) {
        const std::string p = "block" + std::to_string(l);
        m_gW.push_back(heParam(p + ".gamma.w", C, C, 0.1, rng));
        m_gB.push_back(zeroParam(p + ".gamma.b", C, 1));
        m_bW.push_back(heParam(p + ".beta.w", C, C, 0.1, rng));
        m_bB.push_back(zeroParam(p + ".beta.b", C, 1));
        m_cW.push_back(heParam(p + ".conv.w", C, C * 9, 0.5, rng));
        m_cB.push_back(zeroParam(p + ".conv.b", C, 1));
    }
    m_outW = heParam("out.w", cfg.outChannels, C, 0.5, rng);
    m_outB = zeroParam("out.b", cfg.outChannels, 1);
    for (size_t i = 0; i < cfg.heads.size(); ++i) {
        if (cfg.heads[i] < 0 || cfg.heads[i] >= cfg.depth)
            throw EngineError("RepaNet: head after a block that does not exist");
        m_hW.push_back(heParam("head" + std::to_string(i) + ".w", cfg.outChannels, C, 0.5, rng));
        m_hB.push_back(zeroParam("head" + std::to_string(i) + ".b", cfg.outChannels, 1));
    }
}

RepaNet::Output RepaNet::forward(nn::Tape& t, const Mat& input, const std::vector<double>& tNorm,
                                 const MapShape& s, bool withHeads, int64_t* macs) {
    const int C = m_cfg.channels, E = m_cfg.timeDim, P = s.pixels();
    if (input.rows() != m_cfg.inChannels || input.cols() != s.columns() || int(tNorm.size()) != s.batch)
        throw EngineError("RepaNet::forward: input shape mismatch");
    int64_t count = 0;
    Mat emb(E, s.batch);
    for (int b = 0; b < s.batch; ++b)
        for (int k = 0; k < E / 2; ++k) {
            const double a = tNorm[size_t(b)] * std::numbers::pi * std::pow(2.0, k) * 0.5;
            emb(2 * k, b) = std::sin(a);
            emb(2 * k + 1, b) = std::cos(a);
        }
    if (E % 2)
        emb.row(E - 1).setConstant(1.0);
    const Var temb = silu(linear(t, m_tW, m_tB, t.constant(std::move(emb))));
    count += int64_t(C) * E * s.batch;
    Var h = nn::add(conv2d(t.constant(input), t.param(m_inW), s, 3), t.param(m_inB));
    count += convMacs(m_cfg.inChannels, C, 3, int64_t(s.columns()));
    Output out;
    for (int l = 0; l < m_cfg.depth; ++l) {
        const Var gamma = linear(t, m_gW[size_t(l)], m_gB[size_t(l)], temb);
        const Var beta = linear(t, m_bW[size_t(l)], m_bB[size_t(l)], temb);
        count += 2 * int64_t(C) * C * s.batch;
        Var u = silu(film(groupNorm(h, m_groups, s), gamma, beta, s));
        u = nn::add(conv2d(u, t.param(m_cW[size_t(l)]), s, 3), t.param(m_cB[size_t(l)]));
        count += convMacs(C, C, 3, int64_t(s.columns()));
        h = nn::add(h, u);
        if (!withHeads)
            continue;
        for (size_t i = 0; i < m_cfg.heads.size(); ++i)
            if (m_cfg.heads[i] == l) {
                out.heads.push_back(linear(t, m_hW[i], m_hB[i], h));
                count += convMacs(C, m_cfg.outChannels, 1, int64_t(s.columns()));
            }
    }
    out.x0 = linear(t, m_outW, m_outB, silu(groupNorm(h, m_groups, s)));
    count += convMacs(C, m_cfg.outChannels, 1, int64_t(s.columns()));
    if (macs)
        *macs += count;
    (void)P;
    return out;
}

std::vector<nn::Parameter*> RepaNet::parameters(bool withHeads) {
    std::vector<nn::Parameter*> ps{&m_tW, &m_tB, &m_inW, &m_inB, &m_outW, &m_outB};
    for (int l = 0; l < m_cfg.depth; ++l)
        for (auto* v : {&m_gW, &m_gB, &m_bW, &m_bB, &m_cW, &m_cB})
            ps.push_back(&(*v)[size_t(l)]);
    if (withHeads)
        for (size_t i = 0; i < m_hW.size(); ++i) {
            ps.push_back(&m_hW[i]);
            ps.push_back(&m_hB[i]);
        }
    return ps;
}

Diffusion::Diffusion(int steps) : T(steps) {
    const double s = 0.008;
    auto f = [&](double t) {
        const double c = std::cos((t / T + s) / (1 + s) * std::numbers::pi / 2);
        return c * c;
    };
    alphaBar.assign(size_t(T) + 1, 1.0);
    beta.assign(size_t(T) + 1, 0.0);
    for (int t = 1; t <= T; ++t) {
        const double b = std::min(0.999, 1.0 - f(t) / f(t - 1));
        beta[size_t(t)] = b;
        alphaBar[size_t(t)] = alphaBar[size_t(t) - 1] * (1 - b);
    }
}

} // namespace pl::convimg
