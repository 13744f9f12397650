#include "SignedQuadraticNet.h"

#include "nn/Tape.h"

#include <algorithm>
#include <cmath>

namespace pl::smallnets {

Eigen::VectorXd quadSigns(int m) {
    Eigen::VectorXd a(m);
    for (int j = 0; j < m; ++j)
        a(j) = (j % 2 == 0 ? 1.0 : -1.0) / double(m);
    return a;
}

double quadLoss(const Eigen::MatrixXd& W, const Eigen::VectorXd& a, const TaskBatch& b, MarginLoss loss) {
    const Eigen::MatrixXd Z = b.X * W.transpose();
    const Eigen::VectorXd f = Z.array().square().matrix() * a;
    const Eigen::ArrayXd z = b.y.array() * f.array();
    if (loss == MarginLoss::Exponential)
        return (-z).exp().mean();
    return (-z)
        .unaryExpr([](double v) { return std::max(v, 0.0) + std::log1p(std::exp(-std::abs(v))); })
        .mean();
}

double quadLossGrad(const Eigen::MatrixXd& W, const Eigen::VectorXd& a, const TaskBatch& b, MarginLoss loss,
                    Eigen::MatrixXd& grad) {
    nn::Tape t;
    nn::Parameter w("W", W);
    const nn::Var x = t.constant(b.X);
    const nn::Var z = nn::matmul(x, nn::transpose(t.param(w)));
    const nn::Var f = nn::matmul(nn::square(z), t.constant(a));
    const nn::Var margin = nn::neg(nn::mul(f, t.constant(b.y)));
    const nn::Var l = nn::mean(loss == MarginLoss::Exponential ? nn::exp(margin) : nn::softplus(margin));
    t.backward(l);
    grad = std::move(w.grad);
    return l.scalar();
}

Eigen::MatrixXd quadQ(const Eigen::MatrixXd& W, const Eigen::VectorXd& a) {
    return W.transpose() * a.asDiagonal() * W;
}

namespace {

void fillLossRow(const TaskSet& set, const Eigen::MatrixXd& W, const Eigen::VectorXd& a, MarginLoss loss,
                 Eigen::MatrixXd& out, int row) {
    for (size_t i = 0; i < set.tasks.size(); ++i)
        out(row, Eigen::Index(i)) = quadLoss(W, a, set.tasks[i], loss);
}

} // namespace

SequentialRun trainSequential(const TaskSet& train, const TaskSet& test, const Eigen::MatrixXd& wInit,
                              MarginLoss loss, const GdSettings& s, const std::function<void(double)>& poll) {
    const int K = int(train.tasks.size());
    const Eigen::VectorXd a = quadSigns(int(wInit.rows()));
    SequentialRun r;
    r.wInit = wInit;
    r.trainLoss.resize(K, K);
    r.testLoss.resize(K, K);
    r.curveLoss.assign(size_t(K), {});
    Eigen::MatrixXd W = wInit, g;
    const int64_t total = int64_t(K) * s.iters;
    const int64_t snapStep = s.snapshotAt < 0 ? -1 : std::llround(s.snapshotAt * double(total));
    const int stride = s.curvePoints > 0 ? std::max(1, s.iters / s.curvePoints) : 0;
    auto record = [&](int64_t step) {
        r.curveStep.push_back(double(step));
        for (int i = 0; i < K; ++i)
            r.curveLoss[size_t(i)].push_back(quadLoss(W, a, train.tasks[size_t(i)], loss));
    };
    if (snapStep == 0)
        r.qSnapshot = quadQ(W, a);
    if (stride > 0)
        record(0);
    for (int k = 0; k < K; ++k) {
        for (int it = 1; it <= s.iters; ++it) {
            quadLossGrad(W, a, train.tasks[size_t(k)], loss, g);
            W -= s.eta * g;
            const int64_t step = int64_t(k) * s.iters + it;
            if (step == snapStep)
                r.qSnapshot = quadQ(W, a);
            if (stride > 0 && (it % stride == 0 || it == s.iters))
                record(step);
            if (it % 10 == 0 && poll)
                poll(double(step) / double(total));
        }
        fillLossRow(train, W, a, loss, r.trainLoss, k);
        fillLossRow(test, W, a, loss, r.testLoss, k);
    }
    r.wFinal = W;
    return r;
}

Eigen::VectorXd forgetting(const Eigen::MatrixXd& L) {
    const Eigen::Index K = L.rows();
    Eigen::VectorXd F(K);
    for (Eigen::Index i = 0; i < K; ++i)
        F(i) = L(K - 1, i) - L(i, i);
    return F;
}

double meanForgetting(const Eigen::MatrixXd& L) {
    const Eigen::VectorXd F = forgetting(L);
    return F.head(F.size() - 1).mean();
}

} // namespace pl::smallnets
