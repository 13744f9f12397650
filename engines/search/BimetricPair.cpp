#include "BimetricPair.h"

#include <cmath>
#include <stdexcept>

namespace pl::search {

namespace {

struct Mixture {
    int dim = 0;
    std::vector<std::vector<double>> centre, scale; ///< per cluster
};

Mixture makeMixture(int clusters, int dim, Rng& rng) {
    Mixture m;
    m.dim = dim;
    for (int c = 0; c < clusters; ++c) {
        std::vector<double> mu(static_cast<size_t>(dim)), s(static_cast<size_t>(dim));
        for (int j = 0; j < dim; ++j) {
            mu[size_t(j)] = 0.4 * rng.normal(); // overlapping clusters: the proxy ranks poorly
            // decaying spectrum (most variance in the first ~20 axes), random per-cluster factors
            s[size_t(j)] = std::exp(0.5 * rng.normal()) / std::sqrt(1.0 + j / 4.0);
        }
        m.centre.push_back(std::move(mu));
        m.scale.push_back(std::move(s));
    }
    return m;
}

/// Draws rows points: fills x (rows x dim) and the cluster of each.
void drawPoints(const Mixture& m, int64_t rows, Rng& rng, VectorSet& x, std::vector<int>& cluster) {
    x.rows = rows;
    x.dim = m.dim;
    x.data.resize(size_t(rows * m.dim));
    cluster.resize(size_t(rows));
    for (int64_t i = 0; i < rows; ++i) {
        const int c = int(rng.uniformInt(uint64_t(m.centre.size())));
        cluster[size_t(i)] = c;
        for (int j = 0; j < m.dim; ++j)
            x.data[size_t(i * m.dim + j)] =
                float(m.centre[size_t(c)][size_t(j)] + m.scale[size_t(c)][size_t(j)] * rng.normal());
    }
}

} // namespace

BimetricPair makeBimetricPair(const BimetricPairConfig& c, const Rng& rng) {
    if (c.n < 2 || c.queries < 1 || c.proxyDim < 1 || c.expensiveDim < 1 || c.clusters < 1 ||
        c.proxyNoise < 0)
        throw std::invalid_argument("makeBimetricPair: bad configuration");
    Rng mixRng = rng.fork("mixture"), baseRng = rng.fork("base"), queryRng = rng.fork("queries"),
        projRng = rng.fork("projection"), noiseRng = rng.fork("proxy-noise");
    const Mixture mix = makeMixture(c.clusters, c.expensiveDim, mixRng);
    BimetricPair out;
    std::vector<int> baseCluster, queryCluster;
    drawPoints(mix, c.n, baseRng, out.baseExpensive, baseCluster);
    drawPoints(mix, c.queries, queryRng, out.queryExpensive, queryCluster);
    // random Gaussian projection, scaled to preserve squared norms on average
    const int m = c.proxyDim, D = c.expensiveDim;
    std::vector<double> P(size_t(m * D));
    for (double& v : P)
        v = projRng.normal() / std::sqrt(double(m));
    auto project = [&](const float* x, std::vector<double>& y) {
        y.assign(size_t(m), 0.0);
        for (int r = 0; r < m; ++r)
            for (int j = 0; j < D; ++j)
                y[size_t(r)] += P[size_t(r * D + j)] * double(x[j]);
    };
    // RMS within-cluster radius in the projected space: E||P (x - mu)||^2 = sum_j s_j^2 on average
    double within = 0;
    for (int64_t i = 0; i < c.n; ++i) {
        const auto& mu = mix.centre[size_t(baseCluster[size_t(i)])];
        double r2 = 0;
        std::vector<double> y, z;
        std::vector<float> mf(mu.begin(), mu.end());
        project(out.baseExpensive.row(i), y);
        project(mf.data(), z);
        for (int r = 0; r < m; ++r)
            r2 += (y[size_t(r)] - z[size_t(r)]) * (y[size_t(r)] - z[size_t(r)]);
        within += r2;
        if (i >= 999)
            break; // a thousand points estimate it well
    }
    within = std::sqrt(within / double(std::min<int64_t>(c.n, 1000)));
    out.withinRadius = within;
    const double sigma = c.proxyNoise * within / std::sqrt(double(m));
    auto proxies = [&](const VectorSet& x, VectorSet& p) {
        p.rows = x.rows;
        p.dim = m;
        p.data.resize(size_t(x.rows * m));
        std::vector<double> y;
        for (int64_t i = 0; i < x.rows; ++i) {
            project(x.row(i), y);
            for (int r = 0; r < m; ++r)
                p.data[size_t(i * m + r)] = float(y[size_t(r)] + sigma * noiseRng.normal());
        }
    };
    proxies(out.baseExpensive, out.baseProxy);
    proxies(out.queryExpensive, out.queryProxy);
    return out;
}

} // namespace pl::search
