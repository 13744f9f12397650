#include "ScoreMatching.h"

#include "TorusCuda.h"
#include "core/Errors.h"
#include "core/Rng.h"

#include <Eigen/Cholesky>

#include <algorithm>
#include <cmath>

namespace pl::torusgraph {

TrigTables TrigTables::of(const RowMat& x) {
    TrigTables t;
    t.C = x.array().cos().matrix();
    t.S = x.array().sin().matrix();
    t.Z.resize(x.rows(), 2 * x.cols());
    t.Z.leftCols(x.cols()) = t.C;
    t.Z.rightCols(x.cols()) = t.S;
    return t;
}

namespace {

/// Canonical indices of the rows of D(x) with a non-zero in column c, in local order:
/// cos_c, sin_c, then the four parameters of each pair (c, o), o ≠ c in increasing o.
std::vector<int64_t> nodeRows(const TorusLayout& L, int c) {
    std::vector<int64_t> idx{2ll * c, 2ll * c + 1};
    for (int o = 0; o < L.d; ++o) {
        if (o == c)
            continue;
        const int64_t base = L.pairOffset(std::min(c, o), std::max(c, o));
        for (int r = 0; r < 4; ++r)
            idx.push_back(base + r);
    }
    return idx;
}

} // namespace

GammaH accumulateGammaH(const TrigTables& t, const Vec& weights, const Poll& poll, bool useCuda) {
    const int d = t.d();
    const int64_t n = t.n();
    const TorusLayout L(d);
    const int64_t P = L.dim();
    const int m = 2 + 4 * (d - 1);
    const bool weighted = weights.size() == n;
    GammaH out;
    out.gamma.setZero(P, P);
    out.h.setZero(P);
    out.weight = weighted ? weights.sum() : double(n);
    Vec sw;
    if (weighted)
        sw = weights.cwiseMax(0.0).cwiseSqrt();

    // H: Σ w z and M = Zᵀ diag(w) Z give every univariate and pairwise harmonic.
    {
        Mat Z(n, 2 * d);
        Z << t.C, t.S;
        Mat Zw = Z;
        if (weighted)
            Zw = weights.asDiagonal() * Z;
        const Vec zs = Zw.colwise().sum().transpose();
        const Mat M = Zw.transpose() * Z;
        for (int j = 0; j < d; ++j) {
            out.h(2 * j) = zs(j);
            out.h(2 * j + 1) = zs(d + j);
        }
        for (int j = 0; j < d; ++j)
            for (int k = j + 1; k < d; ++k) {
                const int64_t o = L.pairOffset(j, k);
                const double cc = M(j, k), ss = M(d + j, d + k), sc = M(d + j, k), cs = M(j, d + k);
                out.h(o) = 2 * (cc + ss);
                out.h(o + 1) = 2 * (sc - cs);
                out.h(o + 2) = 2 * (cc - ss);
                out.h(o + 3) = 2 * (sc + cs);
            }
    }

    if (useCuda) {
#ifdef PAPERLAB_WITH_CUDA
        std::vector<double> blocks(size_t(d) * size_t(m) * size_t(m));
        cuda::accumulateNodeBlocks(t.C.data(), t.S.data(), weighted ? sw.data() : nullptr, n, d,
                                   blocks.data());
        for (int c = 0; c < d; ++c) {
            const Eigen::Map<const Mat> G(blocks.data() + size_t(c) * size_t(m) * size_t(m), m, m);
            const std::vector<int64_t> idx = nodeRows(L, c);
            for (int b = 0; b < m; ++b)
                for (int a = 0; a < m; ++a)
                    out.gamma(idx[a], idx[b]) += G(a, b);
        }
        return out;
#else
        throw EngineError("torus-graph: this build has no CUDA kernels");
#endif
    }
    // Γ: per node c, the block of rows touching c; V (chunk × m) holds D_{p,c} for those rows.
    constexpr int64_t kChunk = 1024;
    Mat V(kChunk, m), G(m, m);
    for (int c = 0; c < d; ++c) {
        if (poll)
            poll();
        G.setZero();
        for (int64_t r0 = 0; r0 < n; r0 += kChunk) {
            const int64_t nb = std::min(kChunk, n - r0);
            auto cc = t.C.col(c).segment(r0, nb).array();
            auto sc = t.S.col(c).segment(r0, nb).array();
            auto Vb = V.topRows(nb);
            Vb.col(0) = -sc;
            Vb.col(1) = cc;
            int col = 2;
            for (int o = 0; o < d; ++o) {
                if (o == c)
                    continue;
                auto co = t.C.col(o).segment(r0, nb).array();
                auto so = t.S.col(o).segment(r0, nb).array();
                // δ = x_c − x_o, σ = x_c + x_o
                const auto sinD = sc * co - cc * so;
                const auto cosD = cc * co + sc * so;
                Vb.col(col) = -sinD;
                if (c < o)
                    Vb.col(col + 1) = cosD;
                else
                    Vb.col(col + 1) = -cosD;
                Vb.col(col + 2) = -(sc * co + cc * so);
                Vb.col(col + 3) = cc * co - sc * so;
                col += 4;
            }
            if (weighted)
                Vb = sw.segment(r0, nb).asDiagonal() * Vb;
            G.selfadjointView<Eigen::Lower>().rankUpdate(Vb.transpose(), 1.0);
        }
        const std::vector<int64_t> idx = nodeRows(L, c);
        for (int b = 0; b < m; ++b)
            for (int a = b; a < m; ++a) {
                out.gamma(idx[a], idx[b]) += G(a, b);
                if (a != b)
                    out.gamma(idx[b], idx[a]) += G(a, b);
            }
    }
    return out;
}

GammaH accumulateGammaHDense(const RowMat& x) {
    const int d = int(x.cols());
    const TorusLayout L(d);
    GammaH out;
    out.gamma.setZero(L.dim(), L.dim());
    out.h.setZero(L.dim());
    out.weight = double(x.rows());
    for (int64_t i = 0; i < x.rows(); ++i) {
        const Vec xi = x.row(i).transpose();
        const Mat D = statsJacobian(xi);
        out.gamma.noalias() += D * D.transpose();
        out.h += statsLaplacianNeg(xi);
    }
    return out;
}

Vec solveClosedForm(const GammaH& gh, double lambda) {
    Mat A = gh.gamma / gh.weight;
    A.diagonal().array() += lambda;
    Eigen::LLT<Eigen::Ref<Mat>> llt(A); // in place: no second P × P copy
    if (llt.info() != Eigen::Success)
        throw EngineError("closed-form score matching: Γ + λI is not positive definite (too few samples "
                          "for 2d² parameters); set lambda > 0 or use more samples");
    return llt.solve(gh.h / gh.weight);
}

double scoreMatchingLoss(const GammaH& gh, const Vec& eta, double lambda) {
    return 0.5 * eta.dot(gh.gamma * eta) / gh.weight - eta.dot(gh.h) / gh.weight +
           0.5 * lambda * eta.squaredNorm();
}

double chi2Dof4Tail(double t) {
    if (!(t > 0))
        return 1.0;
    return std::exp(-0.5 * t) * (1.0 + 0.5 * t);
}

namespace {

/// Per-sample gradients of the loss (rows, n × P) at η for rows [r0, r0+nb).
Mat perSampleGradients(const TrigTables& t, int64_t r0, int64_t nb, const Vec& ell, const Mat& W,
                       const Vec& eta, double lambda) {
    const int d = t.d();
    Mat Z(nb, 2 * d);
    Z << t.C.middleRows(r0, nb), t.S.middleRows(r0, nb);
    Mat Vv = Z * W;
    Vv.rowwise() += ell.transpose();
    Mat R(nb, TorusLayout(d).dim());
    Vec q(2 * d);
    for (int64_t i = 0; i < nb; ++i) {
        for (int j = 0; j < d; ++j) {
            const double c = Z(i, j), s = Z(i, d + j);
            const double g = c * Vv(i, d + j) - s * Vv(i, j);
            q(j) = -s * g;
            q(d + j) = c * g;
        }
        const Vec z = Z.row(i).transpose();
        const Mat dW = (q - z) * z.transpose();
        R.row(i) = (fromQuadraticGradient(q - z, dW, d) + lambda * eta).transpose();
    }
    return R;
}

} // namespace

EdgeTests waldEdgeTests(const TrigTables& t, const GammaH& gh, const Vec& eta, double lambda,
                        const Poll& poll) {
    const int d = t.d();
    const int64_t n = t.n();
    const TorusLayout L(d);
    Mat A = gh.gamma / gh.weight;
    A.diagonal().array() += lambda;
    Eigen::LLT<Eigen::Ref<Mat>> llt(A); // in place: no second P × P copy
    if (llt.info() != Eigen::Success)
        throw EngineError("Wald test: Γ + λI is not positive definite");
    Vec ell;
    Mat W;
    toQuadratic(eta, d, &ell, &W);
    // V = Σ r_i r_iᵀ (per-sample loss gradients), X = Γ⁻¹ V Γ⁻¹; Σ_e = X_ee / n².
    const int64_t P = L.dim();
    Mat Vs = Mat::Zero(P, P);
    constexpr int64_t kChunk = 256;
    for (int64_t r0 = 0; r0 < n; r0 += kChunk) {
        if (poll)
            poll();
        const int64_t nb = std::min(kChunk, n - r0);
        const Mat R = perSampleGradients(t, r0, nb, ell, W, eta, lambda);
        Vs.selfadjointView<Eigen::Lower>().rankUpdate(R.transpose(), 1.0);
    }
    Vs.triangularView<Eigen::StrictlyUpper>() = Vs.transpose();
    if (poll)
        poll();
    const Mat Ginv = llt.solve(Mat::Identity(P, P));
    if (poll)
        poll();
    const Mat X = Vs * Ginv;
    std::vector<Eigen::Matrix4d> sig(size_t(L.pairs()));
    for (int p = 0; p < L.pairs(); ++p) {
        const int64_t o = 2ll * d + 4ll * p;
        sig[size_t(p)] = Ginv.middleRows(o, 4) * X.middleCols(o, 4);
    }
    EdgeTests e;
    e.statistic = Mat::Zero(d, d);
    e.pValue = Mat::Ones(d, d);
    for (int p = 0; p < L.pairs(); ++p) {
        int j = 0, k = 0;
        L.pairNodes(p, &j, &k);
        const Eigen::Matrix4d S = sig[size_t(p)] / (double(n) * double(n));
        const Eigen::Vector4d phi = eta.segment<4>(2ll * d + 4ll * p);
        Eigen::LDLT<Eigen::Matrix4d> ldlt(S);
        double stat = ldlt.info() == Eigen::Success ? phi.dot(ldlt.solve(phi)) : 0.0;
        if (!std::isfinite(stat) || stat < 0)
            stat = 0;
        e.statistic(j, k) = e.statistic(k, j) = stat;
        e.pValue(j, k) = e.pValue(k, j) = chi2Dof4Tail(stat);
    }
    return e;
}

Vec ssmGradient(const TrigTables& t, const std::vector<int64_t>& rows, const Vec& eta, double lambda,
                double* loss) {
    const int d = t.d();
    const int64_t b = int64_t(rows.size());
    Mat Z(b, 2 * d);
    const bool haveZ = t.Z.rows() == t.n();
    for (int64_t i = 0; i < b; ++i) {
        const int64_t r = rows[size_t(i)];
        if (haveZ) {
            Z.row(i) = t.Z.row(r);
        } else {
            for (int j = 0; j < d; ++j) {
                Z(i, j) = t.C(r, j);
                Z(i, d + j) = t.S(r, j);
            }
        }
    }
    Vec ell;
    Mat W;
    toQuadratic(eta, d, &ell, &W);
    Mat Vv = Z * W; // ∂(pair energy)/∂z
    const auto Cb = Z.leftCols(d).array();
    const auto Sb = Z.rightCols(d).array();
    const Mat g = (Cb * (Vv.rightCols(d).rowwise() + ell.tail(d).transpose()).array() -
                   Sb * (Vv.leftCols(d).rowwise() + ell.head(d).transpose()).array())
                      .matrix();
    Mat Q(b, 2 * d);
    Q.leftCols(d) = (-Sb * g.array()).matrix();
    Q.rightCols(d) = (Cb * g.array()).matrix();
    if (loss) {
        // −ηᵀH(x) = −(ℓᵀz + zᵀWz); + ½‖g‖²
        const double lin = (Z * ell).sum(), quad = (Z.array() * Vv.array()).sum();
        *loss = (-lin - quad + 0.5 * g.squaredNorm()) / double(b) + 0.5 * lambda * eta.squaredNorm();
    }
    Q -= Z; // ∂ℓ/∂v − z: the ½‖g‖² part minus the −ηᵀH(x) part
    const Vec dEll = Q.colwise().sum().transpose() / double(b);
    Mat dW(2 * d, 2 * d);
    dW.noalias() = Q.transpose() * Z;
    dW /= double(b);
    Vec grad = fromQuadraticGradient(dEll, dW, d);
    if (lambda > 0)
        grad += lambda * eta;
    return grad;
}

SsmResult stochasticScoreMatching(const TrigTables& t, const SsmOptions& opt, Rng& rng, const Poll& poll) {
    const int d = t.d();
    const int64_t n = t.n();
    const int64_t P = TorusLayout(d).dim();
    SsmResult res;
    Vec eta = (opt.init && opt.init->size() == P) ? *opt.init : Vec::Zero(P);
    Vec m1 = Vec::Zero(P), m2 = Vec::Zero(P), avg = Vec::Zero(P);
    const double b1 = 0.9, b2 = 0.999, eps = 1e-8;
    double b1t = 1, b2t = 1;
    const int T = std::max(1, opt.iterations);
    const int tailStart = opt.tailFraction > 0 ? int(std::floor(T * (1.0 - opt.tailFraction))) : T;
    int tailCount = 0;
    std::vector<double> cum;
    if (opt.sampleWeights && opt.sampleWeights->size() == n) {
        cum.resize(size_t(n));
        double s = 0;
        for (int64_t i = 0; i < n; ++i) {
            s += std::max(0.0, (*opt.sampleWeights)(i));
            cum[size_t(i)] = s;
        }
        if (!(s > 0))
            cum.clear();
    }
    std::vector<int64_t> rows(size_t(std::max(1, opt.batch)));
    double ema = 0;
    bool emaInit = false;
    double bestEma = 0;
    int lastImprove = 0;
    const double decay = std::log(std::max(1e-6, opt.finalLrRatio)) / T;
    for (int it = 0; it < T; ++it) {
        if (poll && (it & 63) == 0)
            poll();
        for (auto& r : rows) {
            if (!cum.empty()) {
                const double u = rng.uniform() * cum.back();
                r = int64_t(std::upper_bound(cum.begin(), cum.end(), u) - cum.begin());
                r = std::min(r, n - 1);
            } else {
                r = int64_t(rng.uniformInt(uint64_t(n)));
            }
        }
        double loss = 0;
        const Vec g = ssmGradient(t, rows, eta, opt.lambda, &loss);
        m1 = b1 * m1 + (1 - b1) * g;
        m2 = b2 * m2 + (1 - b2) * g.cwiseAbs2();
        const double lr = opt.learningRate * std::exp(decay * it);
        b1t *= b1;
        b2t *= b2;
        const double c1 = 1 - b1t, c2 = 1 - b2t;
        eta.array() -= lr * (m1.array() / c1) / ((m2.array() / c2).sqrt() + eps);
        if (it >= tailStart) {
            avg += eta;
            ++tailCount;
        }
        ema = emaInit ? opt.emaBeta * ema + (1 - opt.emaBeta) * loss : loss;
        emaInit = true;
        res.iterationsRun = it + 1;
        if (opt.recordEvery > 0 && (it % opt.recordEvery == 0 || it == T - 1)) {
            res.recordIter.push_back(it + 1);
            res.recordLoss.push_back(ema);
            if (opt.reference && opt.reference->size() == P) {
                const double rn = opt.reference->norm();
                res.recordError.push_back(rn > 0 ? (eta - *opt.reference).norm() / rn : 0.0);
            }
        }
        if (opt.tolerance > 0) {
            if (it == 0 || ema < bestEma - opt.tolerance * std::abs(bestEma)) {
                bestEma = ema;
                lastImprove = it;
            } else if (it - lastImprove > opt.patience && it < tailStart) {
                res.stoppedEarly = true;
                break;
            }
        }
    }
    res.eta = tailCount > 0 ? Vec(avg / tailCount) : eta;
    return res;
}

} // namespace pl::torusgraph
