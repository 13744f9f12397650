#include "Student.h"

#include "core/Errors.h"
#include "nn/Tape.h"

#include <numeric>

namespace pl::distill {

namespace {

Eigen::MatrixXd affine(const Eigen::MatrixXd& X, const nn::Parameter& W, const nn::Parameter& b) {
    Eigen::MatrixXd z = X * W.value;
    z.rowwise() += b.value.row(0);
    return z;
}

/// Mean over rows of -sum_j P_ij log softmax(z / T)_ij (soft-target cross-entropy).
nn::Var softCrossEntropy(nn::Tape& t, nn::Var z, const Eigen::MatrixXd& P) {
    const nn::Var logq = nn::sub(z, nn::logSumExp(z));
    return nn::scale(nn::sum(nn::mul(logq, t.constant(P))), -1.0 / double(P.rows()));
}

Eigen::MatrixXd softmaxOf(const Eigen::MatrixXd& Z) {
    Eigen::MatrixXd P = Z;
    for (Eigen::Index r = 0; r < P.rows(); ++r) {
        P.row(r).array() -= P.row(r).maxCoeff();
        P.row(r) = P.row(r).array().exp().matrix();
        P.row(r) /= P.row(r).sum();
    }
    return P;
}

/// The signature term of one minibatch.
nn::Var signatureTerm(nn::Tape& t, nn::Var q, const Eigen::MatrixXd& T, const StudentTraining& cfg) {
    if (cfg.loss == SignatureLoss::Mse)
        return nn::mean(nn::square(nn::sub(q, t.constant(T))));
    const int O = cfg.options, Q = int(T.cols()) / O;
    nn::Var total;
    for (int k = 0; k < Q; ++k) {
        const nn::Var part =
            softCrossEntropy(t, nn::sliceCols(q, k * O, O), softmaxOf(T.middleCols(k * O, O)));
        total = k == 0 ? part : nn::add(total, part);
    }
    return nn::scale(total, 1.0 / Q);
}

} // namespace

Student::Student(int inputs, int hidden, int features, int classes, int questionOutputs, Rng& rng)
    : m_w1("W1", nn::glorotUniform(inputs, hidden, rng)), m_b1("b1", Eigen::MatrixXd::Zero(1, hidden)),
      m_w2("W2", nn::glorotUniform(hidden, features, rng)), m_b2("b2", Eigen::MatrixXd::Zero(1, features)),
      m_wc("Wc", nn::glorotUniform(features, classes, rng)), m_bc("bc", Eigen::MatrixXd::Zero(1, classes)),
      m_wq("Wq", questionOutputs > 0 ? nn::glorotUniform(features, questionOutputs, rng)
                                     : Eigen::MatrixXd::Zero(features, 0)),
      m_bq("bq", Eigen::MatrixXd::Zero(1, questionOutputs)) {}

std::vector<nn::Parameter*> Student::params() {
    std::vector<nn::Parameter*> p = {&m_w1, &m_b1, &m_w2, &m_b2, &m_wc, &m_bc};
    if (m_wq.value.cols() > 0) {
        p.push_back(&m_wq);
        p.push_back(&m_bq);
    }
    return p;
}

std::vector<double> Student::train(const Eigen::MatrixXd& X, const std::vector<int>& y,
                                   const StudentTraining& cfg, Rng& rng,
                                   const std::function<void(double)>& poll) {
    const bool sig = cfg.signatures.size() > 0 && cfg.beta > 0;
    const bool kd = cfg.teacherLogits.size() > 0 && cfg.kdWeight > 0;
    if (sig && cfg.signatures.cols() != m_wq.value.cols())
        throw EngineError("distill::Student: signature width does not match the question head");
    const Eigen::MatrixXd softT = kd ? softmaxOf(cfg.teacherLogits / cfg.kdTemperature) : Eigen::MatrixXd();
    nn::Adam adam(cfg.lr);
    const std::vector<nn::Parameter*> ps = params();
    std::vector<int> order(size_t(X.rows()));
    std::iota(order.begin(), order.end(), 0);
    std::vector<double> losses;
    const int n = int(X.rows());
    const int batches = (n + cfg.batch - 1) / cfg.batch;
    const Eigen::MatrixXd XT = X.transpose(); // rows of X as contiguous columns (batch gathering)
    Eigen::MatrixXd xbT(X.cols(), cfg.batch);
    for (int e = 0; e < cfg.epochs; ++e) {
        for (int i = n - 1; i > 0; --i)
            std::swap(order[size_t(i)], order[size_t(rng.uniformInt(uint64_t(i) + 1))]);
        double sum = 0;
        for (int b = 0; b < batches; ++b) {
            const int lo = b * cfg.batch, hi = std::min(n, lo + cfg.batch);
            std::vector<int> idx(order.begin() + lo, order.begin() + hi), lab;
            xbT.resize(X.cols(), hi - lo);
            for (int r = 0; r < hi - lo; ++r) {
                xbT.col(r) = XT.col(idx[size_t(r)]);
                lab.push_back(y[size_t(idx[size_t(r)])]);
            }
            Eigen::MatrixXd xb = xbT.transpose();
            for (nn::Parameter* p : ps)
                p->zeroGrad();
            nn::Tape t;
            const nn::Var h = nn::relu(nn::add(nn::matmul(t.constant(xb), t.param(m_w1)), t.param(m_b1)));
            const nn::Var g = nn::relu(nn::add(nn::matmul(h, t.param(m_w2)), t.param(m_b2)));
            const nn::Var z = nn::add(nn::matmul(g, t.param(m_wc)), t.param(m_bc));
            nn::Var loss = nn::scale(nn::mean(nn::softmaxCrossEntropy(z, lab)), cfg.gamma);
            if (sig) {
                Eigen::MatrixXd T(hi - lo, cfg.signatures.cols());
                for (int r = 0; r < hi - lo; ++r)
                    T.row(r) = cfg.signatures.row(lab[size_t(r)]);
                const nn::Var q = nn::add(nn::matmul(g, t.param(m_wq)), t.param(m_bq));
                loss = nn::add(loss, nn::scale(signatureTerm(t, q, T, cfg), cfg.beta));
            }
            if (kd) {
                Eigen::MatrixXd P(hi - lo, softT.cols());
                for (int r = 0; r < hi - lo; ++r)
                    P.row(r) = softT.row(idx[size_t(r)]);
                const double T2 = cfg.kdTemperature * cfg.kdTemperature;
                loss = nn::add(loss, nn::scale(softCrossEntropy(t, nn::scale(z, 1.0 / cfg.kdTemperature), P),
                                               cfg.kdWeight * T2));
            }
            t.backward(loss);
            adam.step(ps);
            sum += loss.scalar() * (hi - lo);
            poll((e + double(b + 1) / batches) / cfg.epochs);
        }
        losses.push_back(sum / n);
    }
    return losses;
}

std::vector<Eigen::MatrixXd> Student::weights() const {
    return {m_w1.value, m_b1.value, m_w2.value, m_b2.value, m_wc.value, m_bc.value, m_wq.value, m_bq.value};
}

Eigen::MatrixXd Student::features(const Eigen::MatrixXd& X) const {
    const Eigen::MatrixXd h = affine(X, m_w1, m_b1).cwiseMax(0.0);
    return affine(h, m_w2, m_b2).cwiseMax(0.0);
}

Eigen::MatrixXd Student::logits(const Eigen::MatrixXd& X) const {
    return affine(features(X), m_wc, m_bc);
}

Eigen::MatrixXd Student::questionScores(const Eigen::MatrixXd& X) const {
    return affine(features(X), m_wq, m_bq);
}

std::vector<int> Student::predict(const Eigen::MatrixXd& X) const {
    return argmaxRows(logits(X));
}

std::vector<int> argmaxRows(const Eigen::MatrixXd& M) {
    std::vector<int> out(size_t(M.rows()));
    for (Eigen::Index r = 0; r < M.rows(); ++r) {
        Eigen::Index best = 0;
        for (Eigen::Index c = 1; c < M.cols(); ++c)
            if (M(r, c) > M(r, best))
                best = c;
        out[size_t(r)] = int(best);
    }
    return out;
}

double accuracyOf(const std::vector<int>& pred, const std::vector<int>& truth) {
    if (truth.empty())
        return 0;
    size_t hit = 0;
    for (size_t i = 0; i < truth.size(); ++i)
        hit += pred[i] == truth[i];
    return double(hit) / double(truth.size());
}

} // namespace pl::distill
