#include "AporiaGeometry.h"

#include "EmbedGeometry.h"

#include "core/DenseLu.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>

namespace pl::embedgeo {

namespace {

int findRoot(std::vector<int>& parent, int i) {
    while (parent[size_t(i)] != i)
        i = parent[size_t(i)] = parent[size_t(parent[size_t(i)])];
    return i;
}

double median(std::vector<double> v) {
    if (v.empty())
        return 0;
    const size_t m = v.size() / 2;
    std::nth_element(v.begin(), v.begin() + long(m), v.end());
    return v[m];
}

/// The features of one prompt's rows \a ix into \a g.
void onePrompt(const ResponseSet& set, const std::vector<int>& ix, PromptGeometry& g) {
    const int R = int(ix.size());
    const Eigen::Index d = set.emb.cols();
    Eigen::MatrixXd E(R, d);
    for (int r = 0; r < R; ++r)
        E.row(r) = set.emb.row(ix[size_t(r)]);
    Eigen::VectorXd c = E.colwise().mean().transpose();
    const Eigen::RowVectorXd mean = c.transpose();
    c /= std::max(c.norm(), 1e-300);
    for (int r = 0; r < R; ++r)
        g.centred.row(ix[size_t(r)]) = E.row(r) - c.transpose();
    if (R < 2)
        return;
    const Eigen::MatrixXd C = E * E.transpose();
    const double disp = (E.rowwise() - mean).rowwise().squaredNorm().mean();
    const int k = std::min(5, R - 1);
    std::vector<double> radius(static_cast<size_t>(R));
    std::vector<std::vector<int>> nn(static_cast<size_t>(R));
    for (int r = 0; r < R; ++r) {
        std::vector<int> o;
        for (int j = 0; j < R; ++j)
            if (j != r)
                o.push_back(j);
        std::partial_sort(o.begin(), o.begin() + k, o.end(),
                          [&](int a, int b) { return C(r, a) > C(r, b) || (C(r, a) == C(r, b) && a < b); });
        o.resize(size_t(k));
        nn[size_t(r)] = o;
        double dens = 0;
        for (int j : o)
            dens += C(r, j);
        radius[size_t(r)] = 1 - C(r, o.back());
        auto row = g.features.row(ix[size_t(r)]);
        row(0) = 1 - E.row(r).dot(c);
        row(1) = (C.row(r).sum() - C(r, r)) / (R - 1);
        row(2) = radius[size_t(r)];
        row(3) = dens / k;
        row(5) = disp;
    }
    const double theta = median(radius);
    std::vector<int> parent(static_cast<size_t>(R));
    std::iota(parent.begin(), parent.end(), 0);
    for (int a = 0; a < R; ++a)
        for (int b = a + 1; b < R; ++b)
            if (1 - C(a, b) <= theta)
                parent[size_t(findRoot(parent, a))] = findRoot(parent, b);
    std::vector<int> size(static_cast<size_t>(R), 0);
    for (int r = 0; r < R; ++r)
        ++size[size_t(findRoot(parent, r))];
    for (int r = 0; r < R; ++r) {
        const int s = size[size_t(findRoot(parent, r))];
        g.features(ix[size_t(r)], 4) = double(s) / R;
        g.clusterSize[size_t(ix[size_t(r)])] = s * R + findRoot(parent, r); // size, then root (unique)
    }
}

} // namespace

PromptGeometry promptGeometry(const ResponseSet& set) {
    const Eigen::Index n = set.emb.rows();
    PromptGeometry g;
    g.features = Eigen::MatrixXd::Zero(n, 6);
    g.centred = Eigen::MatrixXd::Zero(n, set.emb.cols());
    g.clusterSize.assign(size_t(n), 0);
    std::vector<std::vector<int>> rows(static_cast<size_t>(set.prompts()));
    for (Eigen::Index i = 0; i < n; ++i)
        rows[size_t(set.prompt[size_t(i)])].push_back(int(i));
    for (int p = 0; p < set.prompts(); ++p) {
        if (rows[size_t(p)].size() == 1)
            g.singletons.push_back(p);
        onePrompt(set, rows[size_t(p)], g);
    }
    return g;
}

Eigen::MatrixXd standardise(const Eigen::MatrixXd& X) {
    Eigen::MatrixXd Z = X.rowwise() - X.colwise().mean();
    for (Eigen::Index j = 0; j < Z.cols(); ++j) {
        const double sd = std::sqrt(Z.col(j).squaredNorm() / double(std::max<Eigen::Index>(1, Z.rows())));
        if (sd > 1e-12)
            Z.col(j) /= sd;
        else
            Z.col(j).setZero();
    }
    return Z;
}

Eigen::VectorXd fisherDirection(const Eigen::MatrixXd& X, const std::vector<int>& idx,
                                const std::vector<int>& y, double lambda) {
    const Eigen::Index D = X.cols();
    Eigen::VectorXd mu[2] = {Eigen::VectorXd::Zero(D), Eigen::VectorXd::Zero(D)};
    double cnt[2] = {0, 0};
    for (size_t t = 0; t < idx.size(); ++t) {
        mu[y[t]] += X.row(idx[t]).transpose();
        cnt[y[t]] += 1;
    }
    mu[0] /= std::max(1.0, cnt[0]);
    mu[1] /= std::max(1.0, cnt[1]);
    Eigen::MatrixXd Sw = Eigen::MatrixXd::Zero(D, D);
    for (size_t t = 0; t < idx.size(); ++t) {
        const Eigen::VectorXd z = X.row(idx[t]).transpose() - mu[y[t]];
        Sw.noalias() += z * z.transpose();
    }
    Sw /= std::max(1.0, double(idx.size()) - 2);
    Sw.diagonal().array() += lambda;
    return luSolve(Sw, mu[1] - mu[0]);
}

Eigen::MatrixXd LpGraph::denseS() const {
    const Eigen::Index n = Eigen::Index(s.size());
    Eigen::MatrixXd S = Eigen::MatrixXd::Zero(n, n);
    for (Eigen::Index i = 0; i < n; ++i)
        for (const auto& [j, v] : s[size_t(i)])
            S(i, j) = v;
    return S;
}

LpGraph knnGraph(const Eigen::MatrixXd& Z, int k) {
    const Knn nn = Z.cols() <= 8 ? exactKnnGrid(Z, k) : exactKnn(Z, k);
    const Eigen::Index n = Z.rows();
    std::vector<double> kth;
    for (Eigen::Index i = 0; i < n && nn.idx.cols() > 0; ++i)
        kth.push_back(nn.dist2(i, nn.idx.cols() - 1));
    const double s2 = std::max(median(kth), 1e-12);
    std::vector<std::vector<std::pair<int, double>>> w(static_cast<size_t>(n));
    for (Eigen::Index i = 0; i < n; ++i)
        for (Eigen::Index t = 0; t < nn.idx.cols(); ++t) {
            const int j = nn.idx(i, t);
            const double v = std::exp(-nn.dist2(i, t) / (2 * s2));
            w[size_t(i)].push_back({j, v});
            w[size_t(j)].push_back({int(i), v});
        }
    for (auto& row : w) { // symmetric union: an edge found from both ends carries the same weight
        std::sort(row.begin(), row.end());
        row.erase(std::unique(row.begin(), row.end(),
                              [](const auto& a, const auto& b) { return a.first == b.first; }),
                  row.end());
    }
    LpGraph g;
    g.w.resize(size_t(n));
    g.s.resize(size_t(n));
    std::vector<double> deg(static_cast<size_t>(n), 0.0);
    for (Eigen::Index i = 0; i < n; ++i)
        for (const auto& [j, v] : w[size_t(i)]) {
            g.w[size_t(i)].push_back({j, v});
            deg[size_t(i)] += v;
        }
    for (Eigen::Index i = 0; i < n; ++i)
        for (const auto& [j, v] : g.w[size_t(i)])
            g.s[size_t(i)].push_back({j, v / std::sqrt(deg[size_t(i)] * deg[size_t(j)])});
    return g;
}

LpResult propagate(const LpGraph& g, const std::vector<int>& seed, double alpha,
                   std::vector<Eigen::MatrixXd>* snapshots, const std::vector<int>& at) {
    const Eigen::Index n = Eigen::Index(g.s.size());
    Eigen::MatrixXd Y = Eigen::MatrixXd::Zero(n, 2);
    for (Eigen::Index i = 0; i < n; ++i)
        if (seed[size_t(i)] >= 0)
            Y(i, seed[size_t(i)]) = 1;
    LpResult r;
    r.F = Y;
    auto snap = [&](int it) {
        if (snapshots && std::find(at.begin(), at.end(), it) != at.end())
            snapshots->push_back(r.F);
    };
    snap(0);
    Eigen::MatrixXd next(n, 2);
    for (int it = 1; it <= 1000; ++it) {
        for (Eigen::Index i = 0; i < n; ++i) {
            double a = 0, b = 0;
            for (const auto& [j, v] : g.s[size_t(i)]) {
                a += v * r.F(j, 0);
                b += v * r.F(j, 1);
            }
            next(i, 0) = alpha * a + (1 - alpha) * Y(i, 0);
            next(i, 1) = alpha * b + (1 - alpha) * Y(i, 1);
        }
        const double change = (next - r.F).cwiseAbs().maxCoeff();
        r.F.swap(next);
        r.iterations = it;
        r.change.push_back(change);
        snap(it);
        if (change < 1e-10)
            break;
    }
    return r;
}

std::vector<int64_t> argmaxLabels(const Eigen::MatrixXd& F) {
    std::vector<int64_t> out(static_cast<size_t>(F.rows()));
    for (Eigen::Index i = 0; i < F.rows(); ++i)
        out[size_t(i)] = F(i, 1) > F(i, 0) ? 1 : 0;
    return out;
}

std::vector<int64_t> knnSeedVote(const Eigen::MatrixXd& X, const std::vector<int>& idx,
                                 const std::vector<int>& y, int k) {
    const Eigen::Index n = X.rows();
    k = std::max(1, std::min<int>(k, int(idx.size())));
    Eigen::MatrixXd S(Eigen::Index(idx.size()), X.cols());
    for (size_t t = 0; t < idx.size(); ++t)
        S.row(Eigen::Index(t)) = X.row(idx[t]);
    const Eigen::VectorXd sn = S.rowwise().squaredNorm();
    const Eigen::MatrixXd G = X * S.transpose();
    std::vector<int64_t> out(static_cast<size_t>(n));
    std::vector<int> o(idx.size());
    for (Eigen::Index i = 0; i < n; ++i) {
        std::iota(o.begin(), o.end(), 0);
        auto dist = [&](int t) { return sn(t) - 2 * G(i, t); };
        std::partial_sort(o.begin(), o.begin() + k, o.end(),
                          [&](int a, int b) { return dist(a) < dist(b) || (dist(a) == dist(b) && a < b); });
        int votes = 0;
        for (int t = 0; t < k; ++t)
            votes += y[size_t(o[size_t(t)])] == 1 ? 1 : -1;
        out[size_t(i)] = votes > 0 ? 1 : (votes < 0 ? 0 : y[size_t(o[0])]);
    }
    return out;
}

Eigen::VectorXd logisticFitPredict(const Eigen::MatrixXd& X, const std::vector<int>& idx,
                                   const std::vector<int>& y) {
    const Eigen::Index D = X.cols() + 1, m = Eigen::Index(idx.size());
    Eigen::MatrixXd A(m, D);
    Eigen::VectorXd t(m);
    for (Eigen::Index r = 0; r < m; ++r) {
        A.row(r) << X.row(idx[size_t(r)]), 1.0;
        t(r) = y[size_t(r)];
    }
    Eigen::VectorXd w = Eigen::VectorXd::Zero(D);
    for (int it = 0; it < 100; ++it) {
        const Eigen::VectorXd p = (1.0 / (1.0 + (-(A * w)).array().exp())).matrix();
        Eigen::VectorXd grad = A.transpose() * (p - t);
        grad.head(D - 1) += w.head(D - 1);
        const Eigen::VectorXd s = (p.array() * (1 - p.array())).matrix();
        Eigen::MatrixXd H = A.transpose() * s.asDiagonal() * A;
        H.diagonal().head(D - 1).array() += 1.0;
        H.diagonal().array() += 1e-12;
        const Eigen::VectorXd step = luSolve(H, grad);
        w -= step;
        if (step.cwiseAbs().maxCoeff() < 1e-10)
            break;
    }
    Eigen::MatrixXd B(X.rows(), D);
    B << X, Eigen::VectorXd::Ones(X.rows());
    return (1.0 / (1.0 + (-(B * w)).array().exp())).matrix();
}

std::vector<int64_t> densestClusterLabels(const ResponseSet& set, const PromptGeometry& g) {
    const size_t n = set.prompt.size();
    std::vector<int> best(static_cast<size_t>(set.prompts()), -1);
    for (size_t i = 0; i < n; ++i)
        best[size_t(set.prompt[i])] = std::max(best[size_t(set.prompt[i])], g.clusterSize[i]);
    std::vector<int64_t> out(n);
    for (size_t i = 0; i < n; ++i)
        out[i] = g.clusterSize[i] == best[size_t(set.prompt[i])] ? 0 : 1;
    return out;
}

} // namespace pl::embedgeo
