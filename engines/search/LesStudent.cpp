#include "LesStudent.h"

#include "OpenAiEs.h"
#include "core/Errors.h"

#include <Eigen/Cholesky>

#include <algorithm>
#include <cmath>
#include <limits>

namespace pl::search {

namespace {

constexpr int H = LesStudent::kHidden;
// Offsets of the parameter blocks in theta.
constexpr int kW1 = 0;         // H x 2, row-major
constexpr int kB1 = 2 * H;     // H
constexpr int kW2 = 3 * H;     // H
constexpr int kB2 = 4 * H;     // 1
constexpr int kV1 = 4 * H + 1; // H x 2, row-major
constexpr int kC1 = 6 * H + 1; // H
constexpr int kV2 = 7 * H + 1; // 2 x H, row-major
constexpr int kC2 = 9 * H + 1; // 2

double sigmoid(double x) {
    return 1.0 / (1.0 + std::exp(-x));
}

} // namespace

TeacherState TeacherState::of(const Eigen::VectorXd& mean, const Eigen::MatrixXd& covariance) {
    TeacherState t;
    t.mean = mean;
    t.covariance = covariance;
    t.sigma = covariance.diagonal().cwiseMax(0.0).cwiseSqrt();
    Eigen::LLT<Eigen::MatrixXd> llt(covariance);
    if (llt.info() != Eigen::Success)
        throw EngineError("teacher covariance is not positive definite");
    t.precision = llt.solve(Eigen::MatrixXd::Identity(mean.size(), mean.size()));
    t.logDet = 2.0 * llt.matrixL().toDenseMatrix().diagonal().array().log().sum();
    return t;
}

double sigmaFeature(const Eigen::VectorXd& sigma) {
    const double g = sigma.array().max(1e-300).log().mean();
    return std::tanh((g - std::log(LesStudent::kSigma0)) / std::log(10.0) / 4.0);
}

Eigen::VectorXd LesStudent::initialTheta(Rng& rng) {
    Eigen::VectorXd t = Eigen::VectorXd::Zero(paramCount());
    auto fill = [&](int off, int n, double scale) {
        for (int i = 0; i < n; ++i)
            t[off + i] = scale * rng.normal();
    };
    fill(kW1, 2 * H, 1.0 / std::sqrt(2.0));
    fill(kW2, H, 1.0 / std::sqrt(double(H)));
    fill(kV1, 2 * H, 1.0 / std::sqrt(2.0));
    fill(kV2, 2 * H, 1.0 / std::sqrt(double(H)));
    return t;
}

LesStudent::LesStudent(Eigen::VectorXd theta) : m_theta(std::move(theta)) {
    if (m_theta.size() != paramCount())
        throw EngineError("LES-lite: wrong number of parameters");
}

LesStudent::Features LesStudent::forwardWeights(const Eigen::VectorXd& f) const {
    const Eigen::Index n = f.size();
    Features F;
    F.in.resize(n, 2);
    const double mean = f.mean();
    const double sd = std::sqrt((f.array() - mean).square().mean());
    const Eigen::VectorXd r = centredRanks(f);
    for (Eigen::Index i = 0; i < n; ++i) {
        F.in(i, 0) = sd > 0 && std::isfinite(sd) ? std::clamp((f[i] - mean) / sd, -5.0, 5.0) : 0.0;
        F.in(i, 1) = r[i];
    }
    const Eigen::Map<const Eigen::Matrix<double, H, 2, Eigen::RowMajor>> W1(m_theta.data() + kW1);
    const Eigen::Map<const Eigen::Matrix<double, H, 1>> b1(m_theta.data() + kB1);
    const Eigen::Map<const Eigen::Matrix<double, H, 1>> w2(m_theta.data() + kW2);
    F.h = ((F.in * W1.transpose()).rowwise() + b1.transpose()).array().tanh();
    Eigen::VectorXd logits = (F.h * w2).array() + m_theta[kB2];
    logits.array() -= logits.maxCoeff();
    F.w = logits.array().exp();
    F.w /= F.w.sum();
    return F;
}

Eigen::VectorXd LesStudent::weights(const Eigen::VectorXd& f) const {
    return forwardWeights(f).w;
}

Eigen::Vector2d LesStudent::rates(double progress, const Eigen::VectorXd& sigma) const {
    const Eigen::Vector2d u(progress, sigmaFeature(sigma));
    const Eigen::Map<const Eigen::Matrix<double, H, 2, Eigen::RowMajor>> V1(m_theta.data() + kV1);
    const Eigen::Map<const Eigen::Matrix<double, H, 1>> c1(m_theta.data() + kC1);
    const Eigen::Map<const Eigen::Matrix<double, 2, H, Eigen::RowMajor>> V2(m_theta.data() + kV2);
    const Eigen::Matrix<double, H, 1> h = (V1 * u + c1).array().tanh();
    const Eigen::Vector2d o = V2 * h + Eigen::Vector2d(m_theta[kC2], m_theta[kC2 + 1]);
    return {sigmoid(o[0]), sigmoid(o[1])};
}

void LesStudent::update(Eigen::VectorXd& m, Eigen::VectorXd& sigma, const Eigen::MatrixXd& X,
                        const Eigen::VectorXd& f, double progress) const {
    const Eigen::VectorXd w = weights(f);
    const Eigen::Vector2d a = rates(progress, sigma);
    const Eigen::MatrixXd D = X.rowwise() - m.transpose();
    const Eigen::VectorXd delta = D.transpose() * w;
    const Eigen::VectorXd s = (D.array().square().matrix().transpose() * w).cwiseSqrt();
    m += a[0] * delta;
    sigma = ((1 - a[1]) * sigma + a[1] * s).cwiseMax(1e-300);
}

double LesStudent::distillLoss(const TeacherState& from, const TeacherState& to, const Eigen::MatrixXd& X,
                               const Eigen::VectorXd& f, double progress, const DistillWeights& c,
                               Eigen::VectorXd* grad, DistillTerms* terms) const {
    const Eigen::Index d = from.mean.size(), n = X.rows();
    const Features F = forwardWeights(f);
    const Eigen::VectorXd& w = F.w;
    // alpha network
    const Eigen::Vector2d u(progress, sigmaFeature(from.sigma));
    const Eigen::Map<const Eigen::Matrix<double, H, 2, Eigen::RowMajor>> V1(m_theta.data() + kV1);
    const Eigen::Map<const Eigen::Matrix<double, H, 1>> c1(m_theta.data() + kC1);
    const Eigen::Map<const Eigen::Matrix<double, 2, H, Eigen::RowMajor>> V2(m_theta.data() + kV2);
    const Eigen::Matrix<double, H, 1> ha = (V1 * u + c1).array().tanh();
    const Eigen::Vector2d o = V2 * ha + Eigen::Vector2d(m_theta[kC2], m_theta[kC2 + 1]);
    const double am = sigmoid(o[0]), as = sigmoid(o[1]);
    // update
    const Eigen::MatrixXd D = X.rowwise() - from.mean.transpose();
    const Eigen::VectorXd delta = D.transpose() * w;
    const Eigen::VectorXd s = (D.array().square().matrix().transpose() * w).cwiseSqrt().cwiseMax(1e-300);
    const Eigen::VectorXd m1 = from.mean + am * delta;
    const Eigen::VectorXd s1 = ((1 - as) * from.sigma + as * s).cwiseMax(1e-300);
    // KL(N(m1, diag s1^2) || N(to.mean, to.covariance))
    const Eigen::VectorXd dm = to.mean - m1;
    const Eigen::VectorXd Pdm = to.precision * dm;
    double kl = 0.5 * (to.precision.diagonal().dot(s1.cwiseAbs2()) + dm.dot(Pdm) - double(d) + to.logDet -
                       2.0 * s1.array().log().sum());
    kl = std::max(kl, 0.0);
    const double lkl = std::log1p(kl / double(d));
    const double fmin = f.minCoeff(), fmax = f.maxCoeff();
    Eigen::VectorXd r = Eigen::VectorXd::Zero(n);
    if (fmax > fmin && std::isfinite(fmax - fmin))
        r = (f.array() - fmin) / (fmax - fmin);
    const double lfit = w.dot(r);
    const double ldiv = -2.0 * s1.array().log().sum() / double(d);
    if (terms)
        *terms = {lkl, lfit, ldiv};
    if (grad) {
        const double gk = c.kl / (double(d) * (1.0 + kl / double(d)));
        const Eigen::VectorXd gm1 = -gk * Pdm;
        const Eigen::VectorXd gs1 = (gk * (to.precision.diagonal().cwiseProduct(s1) - s1.cwiseInverse()) -
                                     (2.0 * c.div / double(d)) * s1.cwiseInverse())
                                        .eval();
        const double gam = gm1.dot(delta);
        const double gas = gs1.dot(s - from.sigma);
        // d loss / d w_i
        const Eigen::VectorXd coef = (as * gs1.array() / (2.0 * s.array())).matrix();
        Eigen::VectorXd gw = am * (D * gm1) + D.array().square().matrix() * coef + c.fit * r;
        const Eigen::VectorXd gl = w.cwiseProduct((gw.array() - w.dot(gw)).matrix());
        Eigen::VectorXd& g = *grad;
        // MLP_w backward
        const Eigen::Map<const Eigen::Matrix<double, H, 1>> w2(m_theta.data() + kW2);
        g.segment(kW2, H) += F.h.transpose() * gl;
        g[kB2] += gl.sum();
        const Eigen::MatrixXd ga = ((gl * w2.transpose()).array() * (1.0 - F.h.array().square())).matrix();
        const Eigen::MatrixXd gW1 = ga.transpose() * F.in; // H x 2
        for (int hh = 0; hh < H; ++hh) {
            g[kW1 + 2 * hh] += gW1(hh, 0);
            g[kW1 + 2 * hh + 1] += gW1(hh, 1);
        }
        g.segment(kB1, H) += ga.colwise().sum().transpose();
        // MLP_alpha backward
        const Eigen::Vector2d go(gam * am * (1 - am), gas * as * (1 - as));
        for (int k = 0; k < 2; ++k)
            for (int hh = 0; hh < H; ++hh)
                g[kV2 + k * H + hh] += go[k] * ha[hh];
        g[kC2] += go[0];
        g[kC2 + 1] += go[1];
        const Eigen::Matrix<double, H, 1> gha =
            ((V2.transpose() * go).array() * (1.0 - ha.array().square())).matrix();
        for (int hh = 0; hh < H; ++hh) {
            g[kV1 + 2 * hh] += gha[hh] * u[0];
            g[kV1 + 2 * hh + 1] += gha[hh] * u[1];
        }
        g.segment(kC1, H) += gha;
    }
    return c.kl * lkl + c.fit * lfit + c.div * ldiv;
}

std::vector<double>
LesStudent::run(const std::function<double(const Eigen::VectorXd&)>& f, int d, int lambda, int generations,
                Rng& rng, const std::function<void(int, const Eigen::MatrixXd&)>& onPopulation) const {
    Eigen::VectorXd m(d);
    for (int j = 0; j < d; ++j)
        m[j] = rng.uniform(-4.0, 4.0);
    Eigen::VectorXd sigma = Eigen::VectorXd::Constant(d, kSigma0);
    std::vector<double> best;
    double b = std::numeric_limits<double>::infinity();
    Eigen::MatrixXd X(lambda, d);
    Eigen::VectorXd fx(lambda);
    for (int g = 0; g < generations; ++g) {
        for (int k = 0; k < lambda; ++k) {
            for (int j = 0; j < d; ++j)
                X(k, j) = m[j] + sigma[j] * rng.normal();
            fx[k] = f(X.row(k).transpose());
        }
        if (onPopulation)
            onPopulation(g, X);
        b = std::min(b, fx.minCoeff());
        best.push_back(b);
        update(m, sigma, X, fx, double(g) / double(generations));
    }
    return best;
}

} // namespace pl::search
