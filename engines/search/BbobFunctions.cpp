#include "BbobFunctions.h"

#include "core/Errors.h"

#include <Eigen/QR>

#include <algorithm>
#include <cmath>

namespace pl::search {

namespace {

constexpr double kPi = 3.14159265358979323846;

const int kIds[] = {1, 2, 3, 4, 8, 10, 11, 12, 13, 15, 16, 17, 19, 21};

double tOszScalar(double x) {
    if (x == 0)
        return 0;
    const double xh = std::log(std::fabs(x));
    const double c1 = x > 0 ? 10.0 : 5.5, c2 = x > 0 ? 7.9 : 3.1;
    return (x > 0 ? 1.0 : -1.0) * std::exp(xh + 0.049 * (std::sin(c1 * xh) + std::sin(c2 * xh)));
}

double rastrigin(const Eigen::VectorXd& z) {
    double c = 0;
    for (Eigen::Index i = 0; i < z.size(); ++i)
        c += std::cos(2 * kPi * z[i]);
    return 10.0 * (double(z.size()) - c) + z.squaredNorm();
}

} // namespace

const std::vector<std::string>& bbobNames() {
    static const std::vector<std::string> names = {"sphere",
                                                   "ellipsoid",
                                                   "rastrigin",
                                                   "buche_rastrigin",
                                                   "rosenbrock",
                                                   "ellipsoid_rotated",
                                                   "discus",
                                                   "bent_cigar",
                                                   "sharp_ridge",
                                                   "rastrigin_rotated",
                                                   "weierstrass",
                                                   "schaffers_f7",
                                                   "griewank_rosenbrock",
                                                   "gallagher21"};
    return names;
}

int bbobId(const std::string& name) {
    const auto& n = bbobNames();
    const auto it = std::find(n.begin(), n.end(), name);
    return it == n.end() ? -1 : kIds[it - n.begin()];
}

Eigen::VectorXd tOsz(const Eigen::VectorXd& x) {
    Eigen::VectorXd y(x.size());
    for (Eigen::Index i = 0; i < x.size(); ++i)
        y[i] = tOszScalar(x[i]);
    return y;
}

Eigen::VectorXd tAsy(const Eigen::VectorXd& x, double beta) {
    const Eigen::Index d = x.size();
    Eigen::VectorXd y = x;
    for (Eigen::Index i = 0; i < d; ++i)
        if (x[i] > 0)
            y[i] = std::pow(x[i], 1.0 + beta * (d > 1 ? double(i) / double(d - 1) : 0.0) * std::sqrt(x[i]));
    return y;
}

Eigen::VectorXd lambdaDiag(int d, double alpha) {
    Eigen::VectorXd l(d);
    for (int i = 0; i < d; ++i)
        l[i] = std::pow(alpha, 0.5 * (d > 1 ? double(i) / double(d - 1) : 0.0));
    return l;
}

double fPen(const Eigen::VectorXd& x) {
    double s = 0;
    for (Eigen::Index i = 0; i < x.size(); ++i) {
        const double e = std::fabs(x[i]) - 5.0;
        if (e > 0)
            s += e * e;
    }
    return s;
}

Eigen::MatrixXd randomOrthogonal(int d, Rng& rng) {
    Eigen::MatrixXd g(d, d);
    for (int c = 0; c < d; ++c)
        for (int r = 0; r < d; ++r)
            g(r, c) = rng.normal();
    // Gram-Schmidt on the columns (modified, twice for stability).
    for (int c = 0; c < d; ++c) {
        for (int pass = 0; pass < 2; ++pass)
            for (int k = 0; k < c; ++k)
                g.col(c) -= g.col(k).dot(g.col(c)) * g.col(k);
        g.col(c).normalize();
    }
    return g;
}

BbobFunction::BbobFunction(const std::string& name, int d, Rng& rng) : m_name(name), m_d(d) {
    m_id = bbobId(name);
    if (m_id < 0)
        throw UsageError("unknown BBOB function '" + name + "'");
    if (d < 2)
        throw UsageError("BBOB functions need d >= 2");
    m_xopt.resize(d);
    for (int i = 0; i < d; ++i)
        m_xopt[i] = rng.uniform(-4.0, 4.0);
    if (m_id == 8)
        m_xopt *= 0.75;
    if (m_id == 4)
        for (int i = 0; i < d; i += 2)
            m_xopt[i] = std::fabs(m_xopt[i]);
    m_R = randomOrthogonal(d, rng);
    m_Q = randomOrthogonal(d, rng);
    m_l10 = lambdaDiag(d, 10.0);
    m_l100inv = lambdaDiag(d, 0.01);
    m_cond6.resize(d);
    for (int i = 0; i < d; ++i)
        m_cond6[i] = std::pow(10.0, 6.0 * double(i) / double(d - 1));
    m_f0 = 0;
    for (int k = 0; k < 12; ++k)
        m_f0 += std::pow(0.5, k) * std::cos(kPi * std::pow(3.0, k));
    if (m_id == 21) {
        const int n = 21;
        m_peaks.resize(n, d);
        m_peakC.resize(n, d);
        m_peakW.resize(n);
        m_peaks.row(0) = m_xopt.transpose();
        for (int i = 1; i < n; ++i)
            for (int j = 0; j < d; ++j)
                m_peaks(i, j) = rng.uniform(-4.9, 4.9);
        std::vector<double> alphas;
        for (int j = 0; j < 20; ++j)
            alphas.push_back(std::pow(1000.0, 2.0 * j / 19.0));
        for (int j = 19; j > 0; --j) // Fisher-Yates: alpha_2..alpha_21 without replacement
            std::swap(alphas[size_t(j)], alphas[size_t(rng.uniformInt(uint64_t(j + 1)))]);
        for (int i = 0; i < n; ++i) {
            const double a = i == 0 ? 1000.0 : alphas[size_t(i - 1)];
            Eigen::VectorXd l = lambdaDiag(d, a) / std::pow(a, 0.25);
            for (int j = d - 1; j > 0; --j) // randomly permuted diagonal
                std::swap(l[j], l[Eigen::Index(rng.uniformInt(uint64_t(j + 1)))]);
            m_peakC.row(i) = l.transpose();
            m_peakW[i] = i == 0 ? 10.0 : 1.1 + 8.0 * double(i - 1) / 19.0;
        }
        m_peaksR = m_peaks * m_R.transpose(); // rows (R y_i)^T
    }
}

double BbobFunction::operator()(const Eigen::VectorXd& x) const {
    const int d = m_d;
    if (m_id == 1)
        return (x - m_xopt).squaredNorm(); // no temporary
    const Eigen::VectorXd s = x - m_xopt;
    switch (m_id) {
    case 2:
        return m_cond6.dot(tOsz(s).array().square().matrix());
    case 3: {
        const Eigen::VectorXd z = m_l10.cwiseProduct(tAsy(tOsz(s), 0.2));
        return rastrigin(z);
    }
    case 4: {
        Eigen::VectorXd z = tOsz(s);
        for (int i = 0; i < d; ++i) {
            const double si = std::pow(10.0, 0.5 * double(i) / double(d - 1));
            z[i] *= (i % 2 == 0 && z[i] > 0) ? 10.0 * si : si;
        }
        return rastrigin(z) + 100.0 * fPen(x);
    }
    case 8: {
        const Eigen::VectorXd z = std::max(1.0, std::sqrt(double(d)) / 8.0) * s + Eigen::VectorXd::Ones(d);
        double f = 0;
        for (int i = 0; i + 1 < d; ++i) {
            const double a = z[i] * z[i] - z[i + 1], b = z[i] - 1.0;
            f += 100.0 * a * a + b * b;
        }
        return f;
    }
    case 10:
        return m_cond6.dot(tOsz(m_R * s).array().square().matrix());
    case 11: {
        const Eigen::VectorXd z = tOsz(m_R * s);
        return 1e6 * z[0] * z[0] + z.tail(d - 1).squaredNorm();
    }
    case 12: {
        const Eigen::VectorXd z = m_R * tAsy(m_R * s, 0.5);
        return z[0] * z[0] + 1e6 * z.tail(d - 1).squaredNorm();
    }
    case 13: {
        const Eigen::VectorXd z = m_Q * m_l10.cwiseProduct(m_R * s);
        return z[0] * z[0] + 100.0 * z.tail(d - 1).norm();
    }
    case 15: {
        const Eigen::VectorXd z = m_R * m_l10.cwiseProduct(m_Q * tAsy(tOsz(m_R * s), 0.2));
        return rastrigin(z);
    }
    case 16: {
        const Eigen::VectorXd z = m_R * m_l100inv.cwiseProduct(m_Q * tOsz(m_R * s));
        double sum = 0;
        for (int i = 0; i < d; ++i) {
            // cos(2 pi 3^k (z + 1/2)) by the triple-angle identity cos 3a = 4 cos^3 a - 3 cos a
            double p = 1, c = std::cos(2 * kPi * (z[i] + 0.5));
            for (int k = 0; k < 12; ++k, p *= 0.5, c = (4.0 * c * c - 3.0) * c)
                sum += p * c;
        }
        const double a = sum / d - m_f0;
        return 10.0 * a * a * a + 10.0 / d * fPen(x);
    }
    case 17: {
        const Eigen::VectorXd z = m_l10.cwiseProduct(m_Q * tAsy(m_R * s, 0.5));
        double sum = 0;
        for (int i = 0; i + 1 < d; ++i) {
            const double si = std::sqrt(z[i] * z[i] + z[i + 1] * z[i + 1]);
            const double r = std::sqrt(si), sn = std::sin(50.0 * std::pow(si, 0.2));
            sum += r + r * sn * sn;
        }
        const double a = sum / (d - 1);
        return a * a + 10.0 * fPen(x);
    }
    case 19: {
        const Eigen::VectorXd z =
            std::max(1.0, std::sqrt(double(d)) / 8.0) * (m_R * s) + Eigen::VectorXd::Ones(d);
        double sum = 0;
        for (int i = 0; i + 1 < d; ++i) {
            const double a = z[i] * z[i] - z[i + 1], b = z[i] - 1.0;
            const double si = 100.0 * a * a + b * b;
            sum += si / 4000.0 - std::cos(si);
        }
        return 10.0 / (d - 1) * sum + 10.0;
    }
    case 21: {
        const Eigen::RowVectorXd rx = (m_R * x).transpose();
        double best = 0;
        for (Eigen::Index i = 0; i < m_peaks.rows(); ++i) {
            const double q = m_peakC.row(i).dot((rx - m_peaksR.row(i)).array().square().matrix());
            best = std::max(best, m_peakW[i] * std::exp(-q / (2.0 * d)));
        }
        const double t = tOszScalar(10.0 - best);
        return t * t + fPen(x);
    }
    default:
        return 0;
    }
}

Eigen::VectorXd BbobFunction::evalRows(const Eigen::MatrixXd& X) const {
    Eigen::VectorXd f(X.rows()), x(X.cols());
    for (Eigen::Index r = 0; r < X.rows(); ++r) {
        x = X.row(r).transpose();
        f[r] = (*this)(x);
    }
    return f;
}

} // namespace pl::search
