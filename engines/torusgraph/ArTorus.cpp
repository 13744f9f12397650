#include "ArTorus.h"

#include "core/Errors.h"
#include "core/Numeric.h"
#include "core/Rng.h"

#include <Eigen/Cholesky>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>

namespace pl::torusgraph {

double besselRatio(double kappa) {
    // I1/I0 from Abramowitz & Stegun 9.8.1–9.8.4 (relative error < 3e-7), scaled by e^−x above 3.75.
    const double x = std::abs(kappa);
    if (x < 3.75) {
        const double t = (x / 3.75) * (x / 3.75);
        const double i0 =
            1.0 + t * (3.5156229 +
                       t * (3.0899424 + t * (1.2067492 + t * (0.2659732 + t * (0.0360768 + t * 0.0045813)))));
        const double i1 =
            x * (0.5 + t * (0.87890594 +
                            t * (0.51498869 +
                                 t * (0.15084934 + t * (0.02658733 + t * (0.00301532 + t * 0.00032411))))));
        return i1 / i0;
    }
    const double t = 3.75 / x;
    const double p0 =
        0.39894228 +
        t * (0.01328592 +
             t * (0.00225319 +
                  t * (-0.00157565 +
                       t * (0.00916281 +
                            t * (-0.02057706 + t * (0.02635537 + t * (-0.01647633 + t * 0.00392377)))))));
    const double p1 =
        0.39894228 +
        t * (-0.03988024 +
             t * (-0.00362018 +
                  t * (0.00163801 +
                       t * (-0.01031555 +
                            t * (0.02282967 + t * (-0.02895312 + t * (0.01787654 - t * 0.00420059)))))));
    return p1 / p0;
}

RowMat simulateArTorus(const ArSimSpec& spec, Rng& rng) {
    const int d = spec.d;
    Rng br = rng.fork("ar-baseline"), sr = rng.fork("ar-sim");
    Vec b0(d), b1(d);
    for (int j = 0; j < d; ++j) {
        const double mu = br.uniform(0, 2 * std::numbers::pi);
        b0(j) = spec.baseline * std::cos(mu);
        b1(j) = spec.baseline * std::sin(mu);
    }
    RowMat x(spec.T, d);
    const int L = std::max(1, spec.lag);
    for (int64_t t = 0; t < spec.T; ++t)
        for (int j = 0; j < d; ++j) {
            double a = b0(j), b = b1(j);
            if (t >= 1) {
                a += spec.selfCoupling * std::cos(x(t - 1, j));
                b += spec.selfCoupling * std::sin(x(t - 1, j));
            }
            if (t >= L)
                for (const auto& [s, tg, c] : spec.drives)
                    if (tg == j) {
                        a += c * std::cos(x(t - L, s));
                        b += c * std::sin(x(t - L, s));
                    }
            x(t, j) = wrapAngle(sr.vonMises(std::atan2(b, a), std::hypot(a, b)));
        }
    return x;
}

namespace {

double objective(const Mat& F, const Vec& cy, const Vec& sy, const Mat& th, double lambda) {
    const Mat E = F * th;
    double s = 0;
    for (Eigen::Index t = 0; t < F.rows(); ++t)
        s +=
            E(t, 0) * cy(t) + E(t, 1) * sy(t) - logBesselI0(std::sqrt(E(t, 0) * E(t, 0) + E(t, 1) * E(t, 1)));
    return s - 0.5 * lambda * th.bottomRows(th.rows() - 1).squaredNorm();
}

} // namespace

Mat fitVonMisesRegression(const Mat& F, const Vec& cy, const Vec& sy, double lambda, const Mat* init) {
    const Eigen::Index m = F.cols(), n = F.rows();
    Mat th = (init && init->rows() == m && init->cols() == 2) ? *init : Mat::Zero(m, 2);
    double f0 = objective(F, cy, sy, th, lambda);
    Vec h11(n), h12(n), h22(n);
    Mat R(n, 2);
    for (int it = 0; it < 50; ++it) {
        const Mat E = F * th;
        for (Eigen::Index t = 0; t < n; ++t) {
            const double k = std::sqrt(E(t, 0) * E(t, 0) + E(t, 1) * E(t, 1));
            const double A = besselRatio(k);
            double u0 = 1, u1 = 0, aOverK = 0.5;
            if (k > 1e-10) {
                u0 = E(t, 0) / k;
                u1 = E(t, 1) / k;
                aOverK = A / k;
            }
            const double dA = 1.0 - aOverK - A * A; // A'(κ)
            R(t, 0) = cy(t) - A * u0;
            R(t, 1) = sy(t) - A * u1;
            h11(t) = dA * u0 * u0 + aOverK * (1 - u0 * u0);
            h12(t) = (dA - aOverK) * u0 * u1;
            h22(t) = dA * u1 * u1 + aOverK * (1 - u1 * u1);
        }
        Mat grad = F.transpose() * R;
        Mat pen = th;
        pen.row(0).setZero();
        grad -= lambda * pen;
        // Σ_t h_t ⊗ f_t f_tᵀ as one product Fᵀ [h11 F | h12 F | h22 F].
        Mat Fh(n, 3 * m);
        Fh.leftCols(m) = F.array().colwise() * h11.array();
        Fh.middleCols(m, m) = F.array().colwise() * h12.array();
        Fh.rightCols(m) = F.array().colwise() * h22.array();
        Mat G3(m, 3 * m);
        G3.noalias() = F.transpose() * Fh;
        Mat Hs(2 * m, 2 * m);
        Hs.topLeftCorner(m, m) = G3.leftCols(m);
        Hs.topRightCorner(m, m) = G3.middleCols(m, m);
        Hs.bottomLeftCorner(m, m) = G3.middleCols(m, m).transpose();
        Hs.bottomRightCorner(m, m) = G3.rightCols(m);
        Hs.diagonal().array() += lambda + 1e-9;
        Vec gv(2 * m);
        gv << grad.col(0), grad.col(1);
        const Vec step = Hs.ldlt().solve(gv);
        Mat st(m, 2);
        st.col(0) = step.head(m);
        st.col(1) = step.tail(m);
        double a = 1.0, f1 = f0;
        Mat cand;
        for (int ls = 0; ls < 30; ++ls) {
            cand = th + a * st;
            f1 = objective(F, cy, sy, cand, lambda);
            if (f1 >= f0 - 1e-12)
                break;
            a *= 0.5;
        }
        if (!(f1 >= f0 - 1e-12))
            break;
        th = cand;
        const double gain = f1 - f0;
        f0 = f1;
        if (gain < 1e-8 * (1 + std::abs(f0)))
            break;
    }
    return th;
}

double vonMisesMeanLogLik(const Mat& F, const Vec& cy, const Vec& sy, const Mat& theta) {
    const Mat E = F * theta;
    double s = 0;
    const double log2pi = std::log(2 * std::numbers::pi);
    for (Eigen::Index t = 0; t < F.rows(); ++t)
        s += E(t, 0) * cy(t) + E(t, 1) * sy(t) - log2pi -
             logBesselI0(std::sqrt(E(t, 0) * E(t, 0) + E(t, 1) * E(t, 1)));
    return s / double(std::max<Eigen::Index>(1, F.rows()));
}

namespace {

/// Features [1, cos/sin x_{t−l,c} for l = 1..L and c in channels] for t = L..T−1.
Mat features(const RowMat& x, int L, const std::vector<int>& channels, const std::vector<int64_t>& shift) {
    const int64_t T = x.rows(), n = T - L;
    Mat F(n, 1 + 2 * L * int(channels.size()));
    F.col(0).setOnes();
    int col = 1;
    for (int l = 1; l <= L; ++l)
        for (size_t ci = 0; ci < channels.size(); ++ci) {
            const int c = channels[ci];
            const int64_t sh = shift.empty() ? 0 : shift[ci];
            for (int64_t t = L; t < T; ++t) {
                const int64_t src = ((t - l + sh) % T + T) % T;
                F(t - L, col) = std::cos(x(src, c));
                F(t - L, col + 1) = std::sin(x(src, c));
            }
            col += 2;
        }
    return F;
}

double heldOutLogLik(const Mat& F, const RowMat& x, int L, int target, int64_t ntrain, double lambda,
                     const Mat* init = nullptr, Mat* fitted = nullptr) {
    const int64_t n = F.rows();
    Vec cy(n), sy(n);
    for (int64_t t = 0; t < n; ++t) {
        cy(t) = std::cos(x(t + L, target));
        sy(t) = std::sin(x(t + L, target));
    }
    const Mat th = fitVonMisesRegression(F.topRows(ntrain), cy.head(ntrain), sy.head(ntrain), lambda, init);
    if (fitted)
        *fitted = th;
    return vonMisesMeanLogLik(F.bottomRows(n - ntrain), cy.tail(n - ntrain), sy.tail(n - ntrain), th);
}

std::vector<int> allBut(int d, int skip) {
    std::vector<int> c;
    for (int i = 0; i < d; ++i)
        if (i != skip)
            c.push_back(i);
    return c;
}

} // namespace

double transferEntropyPair(const RowMat& x, int source, int target, const TransferEntropyOptions& opt) {
    const int d = int(x.cols());
    const int L = std::max(1, opt.lag);
    const int64_t n = x.rows() - L;
    const int64_t ntrain =
        std::clamp<int64_t>(int64_t(std::llround(opt.trainFraction * double(n))), 8, n - 8);
    std::vector<int> all = allBut(d, -1);
    const double full = heldOutLogLik(features(x, L, all, {}), x, L, target, ntrain, opt.lambda);
    const double red = heldOutLogLik(features(x, L, allBut(d, source), {}), x, L, target, ntrain, opt.lambda);
    return full - red;
}

TransferEntropyResult transferEntropy(const RowMat& x, const TransferEntropyOptions& opt, Rng& rng,
                                      const Poll& poll) {
    const int d = int(x.cols());
    const int L = std::max(1, opt.lag);
    const int64_t T = x.rows();
    if (T < 4 * (L + 8))
        throw EngineError("AR-TG: too few time points for the lag");
    const int64_t n = T - L;
    const int64_t ntrain =
        std::clamp<int64_t>(int64_t(std::llround(opt.trainFraction * double(n))), 8, n - 8);
    TransferEntropyResult r;
    r.te = Mat::Zero(d, d);
    r.null95 = Mat::Constant(d, d, kNaN);
    r.pValue = Mat::Constant(d, d, kNaN);
    const std::vector<int> all = allBut(d, -1);
    const Mat Ffull = features(x, L, all, {});
    Rng sr = rng.fork("te-shifts");
    for (int j = 0; j < d; ++j) {
        if (poll)
            poll();
        Mat thFull;
        const double full = heldOutLogLik(Ffull, x, L, j, ntrain, opt.lambda, nullptr, &thFull);
        for (int i = 0; i < d; ++i) {
            if (i == j)
                continue;
            if (poll)
                poll();
            const double red = heldOutLogLik(features(x, L, allBut(d, i), {}), x, L, j, ntrain, opt.lambda);
            r.te(i, j) = full - red;
            if (opt.shifts > 0) {
                std::vector<double> nulls;
                for (int s = 0; s < opt.shifts; ++s) {
                    if (poll)
                        poll();
                    std::vector<int64_t> sh(all.size(), 0);
                    sh[size_t(i)] =
                        int64_t(T / 10 + int64_t(sr.uniformInt(uint64_t(std::max<int64_t>(1, 8 * T / 10)))));
                    const Mat Fs = features(x, L, all, sh);
                    nulls.push_back(heldOutLogLik(Fs, x, L, j, ntrain, opt.lambda, &thFull) - red);
                }
                std::sort(nulls.begin(), nulls.end());
                const double q = 0.95 * double(nulls.size() - 1);
                const size_t lo = size_t(std::floor(q)), hi = std::min(nulls.size() - 1, lo + 1);
                r.null95(i, j) = nulls[lo] + (q - double(lo)) * (nulls[hi] - nulls[lo]);
                int ge = 0;
                for (double v : nulls)
                    ge += v >= r.te(i, j) ? 1 : 0;
                r.pValue(i, j) = double(1 + ge) / double(1 + opt.shifts);
            }
        }
    }
    return r;
}

} // namespace pl::torusgraph
