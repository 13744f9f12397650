#include "gridworld/MlpClassifier.h"

#include "nn/Tape.h"

#include <cmath>

namespace pl::gridworld {

MlpClassifier::MlpClassifier(int in, int hidden, int classes, Rng& rng)
    : m_w1("w1", nn::glorotUniform(in, hidden, rng)), m_b1("b1", nn::Mat::Zero(1, hidden)),
      m_w2("w2", nn::glorotUniform(hidden, hidden, rng)), m_b2("b2", nn::Mat::Zero(1, hidden)),
      m_w3("w3", nn::glorotUniform(hidden, classes, rng)), m_b3("b3", nn::Mat::Zero(1, classes)) {}

std::vector<std::pair<int, double>> MlpClassifier::fit(const Eigen::MatrixXd& x, const std::vector<int>& y,
                                                       const FitOptions& o, Rng& rng, RunContext& ctx) {
    return fit(
        int(x.rows()), [&x](int i, Eigen::RowVectorXd& out) { out = x.row(i); }, y, o, rng, ctx);
}

std::vector<std::pair<int, double>> MlpClassifier::fit(int rows, const RowFn& row, const std::vector<int>& y,
                                                       const FitOptions& o, Rng& rng, RunContext& ctx) {
    std::vector<std::pair<int, double>> curve;
    nn::Adam adam(o.learningRate);
    adam.setClipNorm(5.0);
    const std::vector<nn::Parameter*> params{&m_w1, &m_b1, &m_w2, &m_b2, &m_w3, &m_b3};
    const int batch = std::min(o.batch, rows);
    Eigen::MatrixXd xb(batch, inputs());
    std::vector<int> yb(static_cast<size_t>(batch));
    Eigen::RowVectorXd tmp(inputs());
    double running = 0;
    int counted = 0;
    for (int it = 0; it < o.iterations; ++it) {
        ctx.throwIfCancelled();
        for (int b = 0; b < batch; ++b) {
            const int r = int(rng.uniformInt(uint64_t(rows)));
            row(r, tmp);
            xb.row(b) = tmp;
            yb[size_t(b)] = y[size_t(r)];
        }
        for (nn::Parameter* p : params)
            p->zeroGrad();
        nn::Tape t;
        const nn::Var h1 = nn::relu(nn::add(nn::matmul(t.constant(xb), t.param(m_w1)), t.param(m_b1)));
        const nn::Var h2 = nn::relu(nn::add(nn::matmul(h1, t.param(m_w2)), t.param(m_b2)));
        const nn::Var out = nn::add(nn::matmul(h2, t.param(m_w3)), t.param(m_b3));
        const nn::Var loss = nn::mean(nn::softmaxCrossEntropy(out, yb));
        t.backward(loss);
        adam.step(params);
        running += loss.scalar();
        ++counted;
        if ((it + 1) % o.lossEvery == 0 || it + 1 == o.iterations) {
            curve.emplace_back(it + 1, running / counted);
            running = 0;
            counted = 0;
        }
    }
    return curve;
}

Eigen::VectorXd MlpClassifier::logits(const Eigen::VectorXd& x) const {
    const Eigen::VectorXd h1 = (m_w1.value.transpose() * x + m_b1.value.transpose()).cwiseMax(0.0);
    const Eigen::VectorXd h2 = (m_w2.value.transpose() * h1 + m_b2.value.transpose()).cwiseMax(0.0);
    return m_w3.value.transpose() * h2 + m_b3.value.transpose();
}

double MlpClassifier::loss(const Eigen::MatrixXd& x, const std::vector<int>& y) const {
    double total = 0;
    for (Eigen::Index r = 0; r < x.rows(); ++r) {
        const Eigen::VectorXd z = logits(x.row(r).transpose());
        const double m = z.maxCoeff();
        total += m + std::log((z.array() - m).exp().sum()) - z(y[size_t(r)]);
    }
    return x.rows() ? total / double(x.rows()) : 0.0;
}

} // namespace pl::gridworld
