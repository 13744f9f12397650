#include "TorusHmm.h"

#include "core/Errors.h"
#include "core/Numeric.h"
#include "core/Rng.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <numeric>

namespace pl::torusgraph {

namespace {

double logSumExp(const Eigen::Ref<const Eigen::VectorXd>& v) {
    const double m = v.maxCoeff();
    if (!std::isfinite(m))
        return m;
    return m + std::log((v.array() - m).exp().sum());
}

/// Windowed features: mean cos/sin of every phase difference in each window.
Mat windowFeatures(const TrigTables& t, int window) {
    const int d = t.d();
    const int64_t nw = std::max<int64_t>(1, t.n() / window);
    Mat F(nw, d * (d - 1));
    for (int64_t w = 0; w < nw; ++w) {
        const int64_t r0 = w * window, nb = (w == nw - 1) ? t.n() - r0 : window;
        const auto C = t.C.middleRows(r0, nb), S = t.S.middleRows(r0, nb);
        const Mat cc = C.transpose() * C, ss = S.transpose() * S, sc = S.transpose() * C;
        int f = 0;
        for (int j = 0; j < d; ++j)
            for (int k = j + 1; k < d; ++k) {
                F(w, f++) = (cc(j, k) + ss(j, k)) / double(nb);
                F(w, f++) = (sc(j, k) - sc(k, j)) / double(nb);
            }
    }
    return F;
}

std::vector<int> kmeans(const Mat& F, int K, Rng& rng) {
    const int64_t n = F.rows();
    std::vector<int> lab(size_t(n), 0);
    if (n == 0)
        return lab;
    Mat cent(K, F.cols());
    cent.row(0) = F.row(int64_t(rng.uniformInt(uint64_t(n))));
    Vec dist(n);
    for (int k = 1; k < K; ++k) {
        for (int64_t i = 0; i < n; ++i) {
            double best = std::numeric_limits<double>::infinity();
            for (int c = 0; c < k; ++c)
                best = std::min(best, (F.row(i) - cent.row(c)).squaredNorm());
            dist(i) = best;
        }
        const double u = rng.uniform() * dist.sum();
        double s = 0;
        int64_t pick = n - 1;
        for (int64_t i = 0; i < n; ++i) {
            s += dist(i);
            if (s >= u) {
                pick = i;
                break;
            }
        }
        cent.row(k) = F.row(pick);
    }
    for (int it = 0; it < 50; ++it) {
        bool changed = false;
        for (int64_t i = 0; i < n; ++i) {
            int best = 0;
            double bd = std::numeric_limits<double>::infinity();
            for (int c = 0; c < K; ++c) {
                const double dd = (F.row(i) - cent.row(c)).squaredNorm();
                if (dd < bd) {
                    bd = dd;
                    best = c;
                }
            }
            changed = changed || lab[size_t(i)] != best;
            lab[size_t(i)] = best;
        }
        for (int c = 0; c < K; ++c) {
            Vec s = Vec::Zero(F.cols());
            int cnt = 0;
            for (int64_t i = 0; i < n; ++i)
                if (lab[size_t(i)] == c) {
                    s += F.row(i).transpose();
                    ++cnt;
                }
            if (cnt > 0)
                cent.row(c) = s.transpose() / cnt;
        }
        if (!changed && it > 0)
            break;
    }
    return lab;
}

} // namespace

HmmResult fitTorusHmm(const RowMat& x, const HmmOptions& opt, Rng& rng, const Poll& poll) {
    const int K = opt.states;
    const int d = int(x.cols());
    const int64_t T = x.rows();
    if (K < 1)
        throw UsageError("hmm: at least one state");
    if (T < int64_t(K) * opt.window)
        throw EngineError("hmm: too few samples for the number of states");
    const TrigTables t = TrigTables::of(x);
    const int64_t P = TorusLayout(d).dim();
    HmmResult res;
    res.eta.assign(size_t(K), Vec::Zero(P));
    res.transition = Mat::Constant(K, K, 0.05 / std::max(1, K - 1));
    res.transition.diagonal().setConstant(K > 1 ? 0.95 : 1.0);
    res.posterior = Mat::Zero(T, K);
    Rng initRng = rng.fork("hmm-init");
    const std::vector<int> wl = kmeans(windowFeatures(t, opt.window), K, initRng);
    for (int64_t i = 0; i < T; ++i) {
        const int64_t w = std::min<int64_t>(int64_t(wl.size()) - 1, i / opt.window);
        res.posterior(i, wl[size_t(w)]) = 1.0;
    }
    Mat logE(T, K);
    Rng mRng = rng.fork("hmm-mstep");
    for (int round = 0; round < opt.emIterations; ++round) {
        // M-step: weighted SSM per state, warm-started.
        for (int k = 0; k < K; ++k) {
            if (poll)
                poll();
            const Vec w = res.posterior.col(k);
            if (!(w.sum() > 1e-9))
                continue;
            SsmOptions so;
            so.iterations = opt.mStepIterations;
            so.batch = opt.batch;
            so.learningRate = round == 0 ? opt.learningRate : opt.learningRate * 0.5;
            so.finalLrRatio = 0.1;
            so.lambda = opt.lambda;
            so.recordEvery = 0;
            so.init = &res.eta[size_t(k)];
            so.sampleWeights = &w;
            Rng r = mRng.fork("state" + std::to_string(k) + "-round" + std::to_string(round));
            res.eta[size_t(k)] = stochasticScoreMatching(t, so, r, poll).eta;
        }
        // E-step: forward–backward with pseudo-log-likelihood emissions.
        for (int k = 0; k < K; ++k)
            logE.col(k) = pseudoLogLikelihood(t, res.eta[size_t(k)]);
        if (poll)
            poll();
        const Mat logA = res.transition.array().log().matrix();
        Mat alpha(T, K), beta(T, K);
        alpha.row(0) = logE.row(0).array() - std::log(double(K));
        Vec tmp(K);
        for (int64_t i = 1; i < T; ++i)
            for (int k = 0; k < K; ++k) {
                for (int j = 0; j < K; ++j)
                    tmp(j) = alpha(i - 1, j) + logA(j, k);
                alpha(i, k) = logSumExp(tmp) + logE(i, k);
            }
        beta.row(T - 1).setZero();
        for (int64_t i = T - 1; i-- > 0;)
            for (int j = 0; j < K; ++j) {
                for (int k = 0; k < K; ++k)
                    tmp(k) = logA(j, k) + logE(i + 1, k) + beta(i + 1, k);
                beta(i, j) = logSumExp(tmp);
            }
        const double ll = logSumExp(alpha.row(T - 1).transpose());
        res.logLikelihood.push_back(ll);
        for (int64_t i = 0; i < T; ++i) {
            const Vec g = (alpha.row(i) + beta.row(i)).transpose();
            const double z = logSumExp(g);
            res.posterior.row(i) = (g.array() - z).exp().matrix().transpose();
        }
        Mat counts = Mat::Constant(K, K, 1.0);
        counts.diagonal().array() += opt.stickiness;
        for (int64_t i = 0; i + 1 < T; ++i)
            for (int j = 0; j < K; ++j)
                for (int k = 0; k < K; ++k)
                    counts(j, k) += std::exp(alpha(i, j) + logA(j, k) + logE(i + 1, k) + beta(i + 1, k) - ll);
        for (int j = 0; j < K; ++j)
            res.transition.row(j) = counts.row(j) / counts.row(j).sum();
    }
    // Viterbi path with the final parameters.
    for (int k = 0; k < K; ++k)
        logE.col(k) = pseudoLogLikelihood(t, res.eta[size_t(k)]);
    const Mat logA = res.transition.array().log().matrix();
    Mat delta(T, K);
    Eigen::MatrixXi back(T, K);
    delta.row(0) = logE.row(0).array() - std::log(double(K));
    for (int64_t i = 1; i < T; ++i)
        for (int k = 0; k < K; ++k) {
            int bj = 0;
            double bv = -std::numeric_limits<double>::infinity();
            for (int j = 0; j < K; ++j)
                if (delta(i - 1, j) + logA(j, k) > bv) {
                    bv = delta(i - 1, j) + logA(j, k);
                    bj = j;
                }
            delta(i, k) = bv + logE(i, k);
            back(i, k) = bj;
        }
    res.states.assign(size_t(T), 0);
    Eigen::Index last = 0;
    delta.row(T - 1).maxCoeff(&last);
    res.states[size_t(T - 1)] = last;
    for (int64_t i = T - 1; i > 0; --i)
        res.states[size_t(i - 1)] = back(i, int(res.states[size_t(i)]));
    return res;
}

SwitchingData sampleSwitching(const std::vector<Vec>& etas, int d, int64_t T, double dwell, int thin,
                              Rng& rng, const Poll& poll) {
    const int K = int(etas.size());
    std::vector<Vec> ells(static_cast<size_t>(K));
    std::vector<Mat> Ws(static_cast<size_t>(K));
    for (int k = 0; k < K; ++k)
        toQuadratic(etas[size_t(k)], d, &ells[size_t(k)], &Ws[size_t(k)]);
    Rng sr = rng.fork("switch-states"), gr = rng.fork("switch-gibbs");
    SwitchingData out;
    out.x.resize(T, d);
    out.states.resize(size_t(T));
    const double stay = 1.0 - 1.0 / std::max(1.0, dwell);
    int s = int(sr.uniformInt(uint64_t(K)));
    Vec x(d), z(2 * d);
    for (int j = 0; j < d; ++j)
        x(j) = gr.uniform(0, 2 * std::numbers::pi);
    z << x.array().cos().matrix(), x.array().sin().matrix();
    auto sweep = [&](int st) {
        const Vec& ell = ells[size_t(st)];
        const Mat& W = Ws[size_t(st)];
        Vec v = ell + W * z;
        for (int j = 0; j < d; ++j) {
            const double A = v(j), B = v(d + j);
            const double xn = wrapAngle(gr.vonMises(std::atan2(B, A), std::hypot(A, B)));
            const double dc = std::cos(xn) - z(j), ds = std::sin(xn) - z(d + j);
            x(j) = xn;
            z(j) += dc;
            z(d + j) += ds;
            v.noalias() += W.col(j) * dc + W.col(d + j) * ds;
        }
    };
    for (int b = 0; b < 200; ++b)
        sweep(s);
    for (int64_t i = 0; i < T; ++i) {
        if (poll && (i & 255) == 0)
            poll();
        if (i > 0 && K > 1 && sr.uniform() > stay) {
            int ns = int(sr.uniformInt(uint64_t(K - 1)));
            s = ns >= s ? ns + 1 : ns;
        }
        for (int r = 0; r < std::max(1, thin); ++r)
            sweep(s);
        out.x.row(i) = x.transpose();
        out.states[size_t(i)] = s;
    }
    return out;
}

double matchedAccuracy(const std::vector<int64_t>& truth, const std::vector<int64_t>& est, int K,
                       std::vector<int>* mapping) {
    if (truth.size() != est.size() || truth.empty() || K < 1 || K > 6)
        return kNaN;
    std::vector<int> perm(static_cast<size_t>(K));
    std::iota(perm.begin(), perm.end(), 0);
    double best = -1;
    do {
        int64_t ok = 0;
        for (size_t i = 0; i < truth.size(); ++i)
            if (est[i] >= 0 && est[i] < K && perm[size_t(est[i])] == truth[i])
                ++ok;
        const double acc = double(ok) / double(truth.size());
        if (acc > best) {
            best = acc;
            if (mapping)
                *mapping = perm;
        }
    } while (std::next_permutation(perm.begin(), perm.end()));
    return best;
}

} // namespace pl::torusgraph
