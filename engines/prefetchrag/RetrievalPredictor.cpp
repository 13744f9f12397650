#include "RetrievalPredictor.h"

#include <algorithm>
#include <cmath>

namespace pl::prefetchrag {

std::vector<int> horizonLabels(const AnswerTrace& tr, const RagWorld& w, const std::vector<int>& context,
                               int a, int b) {
    const int n = int(tr.answer.words.size());
    std::vector<int> missing(size_t(n), 0), y(size_t(n), 0);
    for (int t = 0; t < n; ++t) {
        const int f = tr.answer.slotFact[size_t(t)];
        if (f >= 0)
            missing[size_t(t)] =
                std::find(context.begin(), context.end(), w.facts[size_t(f)].doc) == context.end();
    }
    for (int t = 0; t < n; ++t)
        for (int s = t + a; s <= t + b && s < n; ++s)
            if (missing[size_t(s)]) {
                y[size_t(t)] = 1;
                break;
            }
    return y;
}

Eigen::VectorXd RetrievalPredictor::features(const AnswerTrace& tr, int t, bool covered) const {
    const Eigen::Index h = tr.hidden.cols();
    Eigen::VectorXd x(h + 5);
    x.head(h) = tr.hidden.row(t).transpose();
    x(h) = tr.entropy[size_t(t)];
    x(h + 1) = t > 0 ? tr.entropy[size_t(t)] - tr.entropy[size_t(t - 1)] : 0.0;
    x(h + 2) = tr.sinceEntity[size_t(t)] / 16.0;
    x(h + 3) = tr.cue[size_t(t)];
    x(h + 4) = covered ? 1.0 : 0.0;
    return x;
}

RetrievalPredictor RetrievalPredictor::train(const std::vector<AnswerTrace>& traces,
                                             const std::vector<std::vector<int>>& contexts, const RagWorld& w,
                                             int a, int b, int iterations,
                                             const std::function<void(double)>& tick) {
    RetrievalPredictor p;
    std::vector<Eigen::VectorXd> rows;
    std::vector<double> y;
    for (size_t i = 0; i < traces.size(); ++i) {
        const AnswerTrace& tr = traces[i];
        const std::vector<int> lab = horizonLabels(tr, w, contexts[i], a, b);
        for (int t = 0; t < int(lab.size()); ++t) {
            const auto& q = tr.queryDocs[size_t(t)];
            const bool cov =
                !q.empty() && std::find(contexts[i].begin(), contexts[i].end(), q[0]) != contexts[i].end();
            rows.push_back(p.features(tr, t, cov));
            y.push_back(lab[size_t(t)]);
        }
    }
    const Eigen::Index N = Eigen::Index(rows.size()), d = rows.empty() ? 0 : rows[0].size();
    Eigen::MatrixXd X(N, d);
    for (Eigen::Index r = 0; r < N; ++r)
        X.row(r) = rows[size_t(r)].transpose();
    p.m_mean = X.colwise().mean().transpose();
    p.m_sd = ((X.rowwise() - p.m_mean.transpose()).array().square().colwise().mean()).sqrt().transpose();
    for (Eigen::Index j = 0; j < d; ++j)
        p.m_sd(j) = p.m_sd(j) > 1e-9 ? p.m_sd(j) : 1.0;
    X = (X.rowwise() - p.m_mean.transpose()).array().rowwise() / p.m_sd.transpose().array();
    const Eigen::Map<const Eigen::VectorXd> Y(y.data(), N);
    // Adam on the mean logistic loss + 1e-3/2 |w|^2 (full batch)
    Eigen::VectorXd wv = Eigen::VectorXd::Zero(d + 1), m1 = wv, m2 = wv;
    const double lr = 0.05, b1 = 0.9, b2 = 0.999;
    for (int it = 1; it <= iterations; ++it) {
        const Eigen::VectorXd z = (X * wv.head(d)).array() + wv(d);
        const Eigen::VectorXd pr = (1.0 / (1.0 + (-z.array()).exp())).matrix();
        const Eigen::VectorXd r = pr - Y;
        Eigen::VectorXd g(d + 1);
        g.head(d) = X.transpose() * r / double(std::max<Eigen::Index>(1, N)) + 1e-3 * wv.head(d);
        g(d) = r.mean();
        m1 = b1 * m1 + (1 - b1) * g;
        m2 = b2 * m2 + (1 - b2) * g.cwiseProduct(g);
        const double c1 = 1 - std::pow(b1, it), c2 = 1 - std::pow(b2, it);
        wv.array() -= lr * (m1.array() / c1) / ((m2.array() / c2).sqrt() + 1e-8);
        if (it == iterations) {
            double loss = 0;
            for (Eigen::Index i = 0; i < N; ++i)
                loss += std::log1p(std::exp(-std::abs(z(i)))) + std::max(z(i), 0.0) - Y(i) * z(i);
            p.m_loss = N ? loss / double(N) : 0.0;
        }
        if (tick && it % 20 == 0)
            tick(double(it) / iterations);
    }
    p.m_w = wv.head(d);
    p.m_bias = wv(d);
    return p;
}

double RetrievalPredictor::baseLogit(const AnswerTrace& tr, int t) const {
    const Eigen::VectorXd x = (features(tr, t, false) - m_mean).cwiseQuotient(m_sd);
    return x.dot(m_w) + m_bias;
}

double RetrievalPredictor::coveredWeight() const {
    const Eigen::Index c = m_w.size() - 1;
    return m_w(c) / m_sd(c);
}

double RetrievalPredictor::probability(const AnswerTrace& tr, int t, bool covered) const {
    const double z = baseLogit(tr, t) + (covered ? coveredWeight() : 0.0);
    return 1.0 / (1.0 + std::exp(-z));
}

} // namespace pl::prefetchrag
