#include "SaeBaselines.h"

#include "core/DenseLu.h"
#include "core/Numeric.h"
#include "nn/Parameter.h"
#include "nn/Tape.h"

#include <algorithm>
#include <cmath>

namespace pl::hiddenstate {

std::vector<double> mahalanobisScores(const Eigen::MatrixXd& A, const std::vector<int>& train) {
    const Eigen::Index d = A.cols();
    Eigen::MatrixXd X(Eigen::Index(train.size()), d);
    for (size_t i = 0; i < train.size(); ++i)
        X.row(Eigen::Index(i)) = A.row(train[i]);
    const Eigen::RowVectorXd mu = X.colwise().mean();
    const Eigen::MatrixXd C = X.rowwise() - mu;
    Eigen::MatrixXd S = C.transpose() * C / std::max<double>(1.0, double(X.rows()) - 1);
    S.diagonal().array() += 1e-6 * S.trace() / double(d) + 1e-12;
    const Eigen::MatrixXd Si = luInverse(S);
    std::vector<double> out;
    for (Eigen::Index r = 0; r < A.rows(); ++r) {
        const Eigen::RowVectorXd z = A.row(r) - mu;
        out.push_back(-(z * Si * z.transpose())(0, 0));
    }
    return out;
}

std::vector<double> knnScores(const Eigen::MatrixXd& A, const std::vector<int>& train,
                              const std::vector<int>& query, int k) {
    std::vector<double> out(size_t(A.rows()), kNaN);
    Eigen::MatrixXd T(Eigen::Index(train.size()), A.cols());
    for (size_t i = 0; i < train.size(); ++i)
        T.row(Eigen::Index(i)) = A.row(train[i]);
    const Eigen::VectorXd tn = T.rowwise().squaredNorm();
    for (int q : query) {
        const Eigen::VectorXd d2 = (tn - 2 * T * A.row(q).transpose()).array() + A.row(q).squaredNorm();
        std::vector<double> v;
        for (size_t i = 0; i < train.size(); ++i)
            if (train[i] != q)
                v.push_back(std::max(0.0, d2(Eigen::Index(i))));
        if (v.empty())
            continue;
        const size_t kk = std::min(v.size(), size_t(std::max(1, k))) - 1;
        std::nth_element(v.begin(), v.begin() + std::ptrdiff_t(kk), v.end());
        out[size_t(q)] = -std::sqrt(v[kk]);
    }
    return out;
}

namespace {

struct Gru {
    nn::Parameter wz, wr, wn, uz, ur, un, bz, br, bn, wo, bo, h0;
    std::vector<nn::Parameter*> all() { return {&wz, &wr, &wn, &uz, &ur, &un, &bz, &br, &bn, &wo, &bo, &h0}; }
};

Eigen::MatrixXd denseWeights(const std::vector<SparseCode>& layer, const std::vector<int>& rows, int m) {
    Eigen::MatrixXd W = Eigen::MatrixXd::Zero(Eigen::Index(rows.size()), m);
    for (size_t r = 0; r < rows.size(); ++r) {
        const SparseCode& c = layer[size_t(rows[r])];
        for (size_t a = 0; a < c.index.size(); ++a)
            W(Eigen::Index(r), c.index[a]) = c.weight[a];
    }
    return W;
}

/// Per-row soft cross-entropy summed over layers (rows x 1) on the tape.
nn::Var gruLoss(nn::Tape& t, Gru& g, const LayerCodes& codes, const std::vector<int>& rows, int m,
                bool train) {
    auto P = [&](nn::Parameter& p) { return train ? t.param(p) : t.constant(p.value); };
    const int B = int(rows.size());
    nn::Var h = nn::matmul(t.constant(Eigen::MatrixXd::Ones(B, 1)), P(g.h0));
    nn::Var total;
    for (size_t l = 0; l < codes.size(); ++l) {
        const Eigen::MatrixXd target = denseWeights(codes[l], rows, m);
        const nn::Var z = nn::add(nn::matmul(h, P(g.wo)), P(g.bo));
        const nn::Var ce = nn::sub(nn::mul(nn::logSumExp(z), t.constant(target.rowwise().sum())),
                                   nn::rowSum(nn::mul(t.constant(target), z)));
        total = l == 0 ? ce : nn::add(total, ce);
        if (l + 1 == codes.size())
            break;
        const nn::Var x = t.constant(target);
        const nn::Var zg =
            nn::sigmoid(nn::add(nn::add(nn::matmul(x, P(g.wz)), nn::matmul(h, P(g.uz))), P(g.bz)));
        const nn::Var rg =
            nn::sigmoid(nn::add(nn::add(nn::matmul(x, P(g.wr)), nn::matmul(h, P(g.ur))), P(g.br)));
        const nn::Var ng =
            nn::tanh(nn::add(nn::add(nn::matmul(x, P(g.wn)), nn::matmul(nn::mul(rg, h), P(g.un))), P(g.bn)));
        h = nn::add(nn::mul(nn::addScalar(nn::neg(zg), 1.0), ng), nn::mul(zg, h));
    }
    return total;
}

} // namespace

std::vector<double> gruScores(const LayerCodes& codes, const std::vector<int>& train, int m,
                              const GruConfig& c, Rng rng, const std::function<void()>& poll) {
    const int H = c.hidden;
    Gru g{{"wz", nn::glorotUniform(m, H, rng)}, {"wr", nn::glorotUniform(m, H, rng)},
          {"wn", nn::glorotUniform(m, H, rng)}, {"uz", nn::glorotUniform(H, H, rng)},
          {"ur", nn::glorotUniform(H, H, rng)}, {"un", nn::glorotUniform(H, H, rng)},
          {"bz", Eigen::MatrixXd::Zero(1, H)},  {"br", Eigen::MatrixXd::Zero(1, H)},
          {"bn", Eigen::MatrixXd::Zero(1, H)},  {"wo", nn::glorotUniform(H, m, rng)},
          {"bo", Eigen::MatrixXd::Zero(1, m)},  {"h0", Eigen::MatrixXd::Zero(1, H)}};
    nn::Adam adam(c.lr);
    for (int s = 0; s < c.steps && !train.empty(); ++s) {
        std::vector<int> batch;
        for (int b = 0; b < c.batch; ++b)
            batch.push_back(train[size_t(rng.uniformInt(train.size()))]);
        nn::Tape t;
        const nn::Var loss = nn::mean(gruLoss(t, g, codes, batch, m, true));
        for (nn::Parameter* p : g.all())
            p->zeroGrad();
        t.backward(loss);
        adam.step(g.all());
        if (poll)
            poll();
    }
    std::vector<int> all(codes.empty() ? 0 : codes[0].size());
    for (size_t i = 0; i < all.size(); ++i)
        all[i] = int(i);
    nn::Tape t;
    const Eigen::MatrixXd ce = gruLoss(t, g, codes, all, m, false).value();
    std::vector<double> out;
    for (Eigen::Index i = 0; i < ce.rows(); ++i)
        out.push_back(-ce(i, 0) / double(codes.size()));
    return out;
}

} // namespace pl::hiddenstate
