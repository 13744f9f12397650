#include "Mlp.h"

namespace pl::robusttrain {

std::vector<nn::Parameter*> Mlp::params() {
    std::vector<nn::Parameter*> p;
    for (size_t l = 0; l < W.size(); ++l) {
        p.push_back(&W[l]);
        p.push_back(&b[l]);
    }
    return p;
}

std::vector<Eigen::MatrixXd> Mlp::weights() const {
    std::vector<Eigen::MatrixXd> out;
    for (const auto& w : W)
        out.push_back(w.value);
    return out;
}

Mlp makeMlp(const std::vector<int>& sizes, Activation act, Rng& rng) {
    Mlp m;
    m.act = act;
    for (size_t l = 0; l + 1 < sizes.size(); ++l) {
        m.W.emplace_back("W" + std::to_string(l), nn::glorotUniform(sizes[l], sizes[l + 1], rng));
        m.b.emplace_back("b" + std::to_string(l), Eigen::MatrixXd::Zero(1, sizes[l + 1]));
    }
    return m;
}

nn::Var forwardTape(nn::Tape& t, Mlp& net, const Eigen::MatrixXd& X, const TapeNoise* noise,
                    nn::Var* penultimate) {
    nn::Var h = t.constant(X);
    for (int l = 0; l < net.layers(); ++l) {
        if (penultimate && l + 1 == net.layers())
            *penultimate = h;
        nn::Var w = t.param(net.W[size_t(l)]);
        if (noise && !noise->mul.empty())
            w = nn::mul(w, t.constant(noise->mul[size_t(l)]));
        if (noise && !noise->add.empty())
            w = nn::add(w, t.constant(noise->add[size_t(l)]));
        h = nn::add(nn::matmul(h, w), t.param(net.b[size_t(l)]));
        if (l + 1 < net.layers())
            h = net.act == Activation::Relu ? nn::relu(h) : nn::tanh(h);
    }
    return h;
}

Eigen::MatrixXd forwardWith(const Mlp& net, const std::vector<Eigen::MatrixXd>& Ws,
                            const Eigen::MatrixXd& X) {
    Eigen::MatrixXd h = X;
    for (int l = 0; l < net.layers(); ++l) {
        Eigen::MatrixXd z = h * Ws[size_t(l)];
        z.rowwise() += net.b[size_t(l)].value.row(0);
        if (l + 1 < net.layers())
            h = net.act == Activation::Relu ? Eigen::MatrixXd(z.cwiseMax(0.0))
                                            : Eigen::MatrixXd(z.array().tanh());
        else
            h = std::move(z);
    }
    return h;
}

Eigen::MatrixXd forward(const Mlp& net, const Eigen::MatrixXd& X, Eigen::MatrixXd* penultimate) {
    if (!penultimate)
        return forwardWith(net, net.weights(), X);
    Eigen::MatrixXd h = X;
    for (int l = 0; l + 1 < net.layers(); ++l) {
        Eigen::MatrixXd z = h * net.W[size_t(l)].value;
        z.rowwise() += net.b[size_t(l)].value.row(0);
        h = net.act == Activation::Relu ? Eigen::MatrixXd(z.cwiseMax(0.0))
                                        : Eigen::MatrixXd(z.array().tanh());
    }
    *penultimate = h;
    Eigen::MatrixXd out = h * net.W.back().value;
    out.rowwise() += net.b.back().value.row(0);
    return out;
}

} // namespace pl::robusttrain
