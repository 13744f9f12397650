#include "MlaWorkload.h"

#include "core/Errors.h"

#include <algorithm>
#include <cmath>

namespace pl::tilesparse {

namespace {

/// `count` unit vectors in R^d; orthonormal (modified Gram-Schmidt) while count <= d.
std::vector<Eigen::VectorXd> directions(int count, int d, Rng& rng) {
    std::vector<Eigen::VectorXd> out;
    for (int i = 0; i < count; ++i) {
        Eigen::VectorXd v(d);
        for (int k = 0; k < d; ++k)
            v[k] = rng.normal();
        if (i < d)
            for (const auto& u : out)
                v -= u.dot(v) * u;
        v.normalize();
        out.push_back(v);
    }
    return out;
}

Eigen::VectorXd noise(int d, double norm, Rng& rng) {
    Eigen::VectorXd v(d);
    for (int k = 0; k < d; ++k)
        v[k] = rng.normal() * norm / std::sqrt(double(d));
    return v;
}

} // namespace

Workload generateWorkload(const WorkloadSpec& s, const Rng& rng) {
    if (s.dv > s.dk)
        throw UsageError("d_v must not exceed d_k (V is the first d_v coordinates of the MLA latent)");
    if (s.topicsPerHead > s.topics)
        throw UsageError("topics_per_head must not exceed topics");
    if (s.context < 2 * s.recentTokens + 2)
        throw UsageError("context too short for the recent window");
    const int d = s.dk, N = s.context;
    Rng rDir = rng.fork("directions"), rKeys = rng.fork("keys"), rHeads = rng.fork("heads"),
        rQ = rng.fork("queries");
    const auto dirs = directions(s.topics + s.needles, d, rDir);
    const std::vector<Eigen::VectorXd> topic(dirs.begin(), dirs.begin() + s.topics);
    const std::vector<Eigen::VectorXd> needle(dirs.begin() + s.topics, dirs.end());

    Workload w;
    w.heads = s.heads;
    w.mtpTokens = s.mtpTokens;
    w.K.resize(N, d);
    w.topicOfKey.assign(size_t(N), 0);
    // Keys in contiguous topic runs with geometric lengths.
    const int current = int(rKeys.uniformInt(uint64_t(s.topics)));
    int j = 1;
    while (j < N) {
        const int t = int(rKeys.uniformInt(uint64_t(s.topics)));
        const int len = 1 + int(std::floor(rKeys.exponential(1.0 / std::max(1.0, s.meanRunLength - 1))));
        for (int k = 0; k < len && j < N; ++k, ++j) {
            const int tt = j >= N - s.recentTokens ? current : t;
            w.K.row(j) = (topic[size_t(tt)] + noise(d, s.keyNoise, rKeys)).transpose();
            w.topicOfKey[size_t(j)] = tt;
        }
    }
    // Head preferences and retrieval heads.
    std::vector<std::vector<int>> prefs(size_t(s.heads));
    for (auto& p : prefs) {
        std::vector<int> all(size_t(s.topics));
        for (int t = 0; t < s.topics; ++t)
            all[size_t(t)] = t;
        for (int k = 0; k < s.topicsPerHead; ++k) {
            const size_t pick = size_t(k) + size_t(rHeads.uniformInt(uint64_t(s.topics - k)));
            std::swap(all[size_t(k)], all[pick]);
            p.push_back(all[size_t(k)]);
        }
    }
    w.retrievalHead.assign(size_t(s.heads), -1);
    if (s.needles > 0 && s.retrievalFraction > 0) {
        const int nRet = std::max(1, int(std::lround(s.retrievalFraction * s.heads)));
        for (int i = 0; i < nRet; ++i)
            w.retrievalHead[size_t(i * s.heads / nRet)] = i % s.needles;
    }
    const double lambda = s.sharpness * std::sqrt(double(d));
    std::vector<Eigen::VectorXd> base(size_t(s.heads));
    Eigen::VectorXd mean = Eigen::VectorXd::Zero(d);
    for (int h = 0; h < s.heads; ++h) {
        Eigen::VectorXd q = Eigen::VectorXd::Zero(d);
        for (int t = 0; t < s.topics; ++t) {
            const bool pref =
                std::find(prefs[size_t(h)].begin(), prefs[size_t(h)].end(), t) != prefs[size_t(h)].end();
            q += (pref ? 1.0 : (1.0 - s.specialisation)) * topic[size_t(t)];
        }
        q += 0.5 * topic[size_t(current)];
        q *= lambda;
        if (w.retrievalHead[size_t(h)] >= 0)
            q += (s.sharpness + 3) * std::sqrt(double(d)) * needle[size_t(w.retrievalHead[size_t(h)])];
        base[size_t(h)] = q;
        mean += q / s.heads;
    }
    // Attention sink along the mean query; needles at random positions.
    const double mn = std::max(mean.norm(), 1e-12);
    w.K.row(0) = ((s.sharpness + 1) * std::sqrt(double(d)) / (mn * mn) * mean).transpose();
    w.topicOfKey[0] = -1;
    for (int n = 0; n < s.needles; ++n) {
        const int pos = 1 + int(rKeys.uniformInt(uint64_t(N - s.recentTokens - 1)));
        w.K.row(pos) = (needle[size_t(n)] + noise(d, s.keyNoise, rKeys)).transpose();
        w.topicOfKey[size_t(pos)] = -2;
        w.needleKey.push_back(pos);
    }
    w.V = w.K.leftCols(s.dv);
    if (w.V.row(0).norm() > 0)
        w.V.row(0).normalize(); // a sink carries little value
    // Decode steps: fresh query noise per step and per MTP row.
    for (int step = 0; step < s.steps; ++step) {
        Eigen::MatrixXd Q(s.heads * s.mtpTokens, d);
        for (int h = 0; h < s.heads; ++h) {
            const Eigen::VectorXd qh = base[size_t(h)] + noise(d, s.queryNoise * lambda, rQ);
            for (int t = 0; t < s.mtpTokens; ++t)
                Q.row(h * s.mtpTokens + t) = (qh + noise(d, 0.25 * s.queryNoise * lambda, rQ)).transpose();
        }
        w.Q.push_back(std::move(Q));
    }
    return w;
}

} // namespace pl::tilesparse
