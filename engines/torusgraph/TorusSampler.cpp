#include "TorusSampler.h"

#include "core/Errors.h"
#include "core/Rng.h"

#include <cmath>
#include <numbers>

namespace pl::torusgraph {

GraphKind graphKindFromString(const std::string& s) {
    if (s == "erdos_renyi")
        return GraphKind::ErdosRenyi;
    if (s == "ring")
        return GraphKind::Ring;
    if (s == "chain")
        return GraphKind::Chain;
    if (s == "regions")
        return GraphKind::Regions;
    throw UsageError("graph: unknown kind '" + s + "' (one of erdos_renyi|ring|chain|regions)");
}

PlantedTg randomSparseTg(const SparseTgSpec& spec, Rng& rng) {
    const int d = spec.d;
    const TorusLayout L(d);
    PlantedTg out;
    out.eta = Vec::Zero(L.dim());
    out.adjacency = Mat::Zero(d, d);
    Rng gr = rng.fork("graph"), cr = rng.fork("couplings");
    const int regions = std::max(2, std::min(4, d / 4));
    for (int j = 0; j < d; ++j)
        for (int k = j + 1; k < d; ++k) {
            bool e = false;
            switch (spec.graph) {
            case GraphKind::ErdosRenyi:
                e = gr.uniform() < spec.edgeProb;
                break;
            case GraphKind::Ring:
                e = (k == j + 1) || (j == 0 && k == d - 1 && d > 2);
                break;
            case GraphKind::Chain:
                e = (k == j + 1);
                break;
            case GraphKind::Regions: {
                const bool same = (j * regions / d) == (k * regions / d);
                e = gr.uniform() < (same ? spec.edgeProb * 3.0 : spec.edgeProb / 6.0);
                break;
            }
            }
            if (!e)
                continue;
            out.adjacency(j, k) = out.adjacency(k, j) = 1;
            Eigen::Vector4d v;
            for (int r = 0; r < 4; ++r)
                v(r) = cr.normal();
            if (spec.differenceOnly)
                v.tail<2>().setZero();
            v /= std::max(1e-12, v.norm());
            v *= cr.uniform(spec.couplingMin, spec.couplingMax);
            out.eta.segment<4>(L.pairOffset(j, k)) = v;
        }
    Rng mr = rng.fork("marginals");
    for (int j = 0; j < d; ++j) {
        const double kap = mr.uniform(0, spec.marginalMax), mu = mr.uniform(0, 2 * std::numbers::pi);
        out.eta(2 * j) = kap * std::cos(mu);
        out.eta(2 * j + 1) = kap * std::sin(mu);
    }
    return out;
}

void conditionalParameters(const Vec& ell, const Mat& W, const Eigen::Ref<const Vec>& x, Vec* A, Vec* B) {
    const int d = int(x.size());
    Vec z(2 * d);
    z << x.array().cos().matrix(), x.array().sin().matrix();
    const Vec v = ell + W * z;
    *A = v.head(d);
    *B = v.tail(d);
}

RowMat gibbsSample(const Vec& eta, int d, const GibbsOptions& opt, Rng& rng, const Poll& poll) {
    Vec ell;
    Mat W;
    toQuadratic(eta, d, &ell, &W);
    Rng r = rng.fork("gibbs");
    Vec x(d), z(2 * d);
    for (int j = 0; j < d; ++j)
        x(j) = r.uniform(0, 2 * std::numbers::pi);
    z << x.array().cos().matrix(), x.array().sin().matrix();
    Vec v = ell + W * z; // v_j, v_{d+j}: natural parameters of x_j given the rest (W has no self blocks)
    RowMat out(opt.samples, d);
    const int thin = std::max(1, opt.thin);
    const int64_t sweeps = int64_t(std::max(0, opt.burnIn)) + opt.samples * thin;
    int64_t kept = 0;
    for (int64_t s = 0; s < sweeps; ++s) {
        if (poll && (s & 255) == 0)
            poll();
        for (int j = 0; j < d; ++j) {
            const double A = v(j), B = v(d + j);
            const double kappa = std::hypot(A, B);
            const double mu = std::atan2(B, A);
            const double xn = wrapAngle(r.vonMises(mu, kappa));
            const double dc = std::cos(xn) - z(j), ds = std::sin(xn) - z(d + j);
            x(j) = xn;
            z(j) += dc;
            z(d + j) += ds;
            v.noalias() += W.col(j) * dc + W.col(d + j) * ds;
        }
        const int64_t after = s - opt.burnIn;
        if (after >= 0 && (after + 1) % thin == 0 && kept < opt.samples)
            out.row(kept++) = x.transpose();
    }
    return out;
}

double logBesselI0(double kappa) {
    // Abramowitz & Stegun 9.8.1 / 9.8.2 (relative error < 2e-7): written out because the
    // standard library's Bessel functions are slow and implementation-specific.
    const double x = std::abs(kappa);
    if (x < 3.75) {
        const double t = (x / 3.75) * (x / 3.75);
        return std::log(
            1.0 +
            t * (3.5156229 +
                 t * (3.0899424 + t * (1.2067492 + t * (0.2659732 + t * (0.0360768 + t * 0.0045813))))));
    }
    const double t = 3.75 / x;
    const double p =
        0.39894228 +
        t * (0.01328592 +
             t * (0.00225319 +
                  t * (-0.00157565 +
                       t * (0.00916281 +
                            t * (-0.02057706 + t * (0.02635537 + t * (-0.01647633 + t * 0.00392377)))))));
    return x + std::log(p / std::sqrt(x));
}

Vec pseudoLogLikelihood(const TrigTables& t, const Vec& eta) {
    const int d = t.d();
    Vec ell;
    Mat W;
    toQuadratic(eta, d, &ell, &W);
    Mat Z(t.n(), 2 * d);
    Z << t.C, t.S;
    Mat V = Z * W;
    V.rowwise() += ell.transpose();
    Vec out(t.n());
    const double log2pi = std::log(2 * std::numbers::pi);
    for (int64_t i = 0; i < t.n(); ++i) {
        double s = 0;
        for (int j = 0; j < d; ++j) {
            const double A = V(i, j), B = V(i, d + j);
            s += A * Z(i, j) + B * Z(i, d + j) - log2pi - logBesselI0(std::hypot(A, B));
        }
        out(i) = s;
    }
    return out;
}

Mat phaseLockingValue(const TrigTables& t) {
    // mean e^{i(xj−xk)} = mean (cj ck + sj sk) + i (sj ck − cj sk)
    const double n = double(t.n());
    const Mat cc = t.C.transpose() * t.C, ss = t.S.transpose() * t.S, sc = t.S.transpose() * t.C;
    Mat re = (cc + ss) / n, im = (sc - sc.transpose()) / n;
    return (re.array().square() + im.array().square()).sqrt().matrix();
}

} // namespace pl::torusgraph
