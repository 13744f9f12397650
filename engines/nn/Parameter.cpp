#include "nn/Parameter.h"

#include <cmath>
#include <stdexcept>

namespace pl::nn {

Parameter::Parameter(std::string n, Mat init) : name(std::move(n)), value(std::move(init)) {
    grad = Mat::Zero(value.rows(), value.cols());
    m = grad;
    v = grad;
}

Mat glorotUniform(int rows, int cols, Rng& rng) {
    const double a = std::sqrt(6.0 / double(rows + cols));
    Mat w(rows, cols);
    for (int j = 0; j < cols; ++j)
        for (int i = 0; i < rows; ++i)
            w(i, j) = rng.uniform(-a, a);
    return w;
}

Mat normalMatrix(int rows, int cols, double sd, Rng& rng) {
    Mat w(rows, cols);
    for (int j = 0; j < cols; ++j)
        for (int i = 0; i < rows; ++i)
            w(i, j) = sd * rng.normal();
    return w;
}

Adam::Adam(double lr, double beta1, double beta2, double eps)
    : m_lr(lr), m_b1(beta1), m_b2(beta2), m_eps(eps) {}

void Adam::step(const std::vector<Parameter*>& params) {
    ++m_t;
    double factor = 1.0;
    if (m_clip > 0) {
        double sq = 0;
        for (const Parameter* p : params)
            sq += p->grad.squaredNorm();
        const double norm = std::sqrt(sq);
        if (std::isfinite(norm) && norm > m_clip)
            factor = m_clip / norm;
    }
    const double c1 = 1.0 - std::pow(m_b1, m_t), c2 = 1.0 - std::pow(m_b2, m_t);
    for (Parameter* p : params) {
        if (p->m.rows() != p->value.rows() || p->m.cols() != p->value.cols()) {
            p->m = Mat::Zero(p->value.rows(), p->value.cols());
            p->v = p->m;
        }
        // One fused pass per parameter (same arithmetic, element by element, as the array form).
        double* m = p->m.data();
        double* v = p->v.data();
        double* w = p->value.data();
        const double* gr = p->grad.data();
        for (Eigen::Index i = 0, n = p->value.size(); i < n; ++i) {
            const double g = factor * gr[i];
            m[i] = m_b1 * m[i] + (1 - m_b1) * g;
            v[i] = m_b2 * v[i] + (1 - m_b2) * (g * g);
            w[i] -= m_lr * (m[i] / c1) / (std::sqrt(v[i] / c2) + m_eps);
        }
    }
}

} // namespace pl::nn
