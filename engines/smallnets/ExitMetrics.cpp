#include "ExitMetrics.h"

#include "core/Detection.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

namespace pl::smallnets {

namespace {
constexpr double kNan = std::numeric_limits<double>::quiet_NaN();
}

Eigen::MatrixXd softmaxRows(const Eigen::MatrixXd& logits, double T) {
    Eigen::MatrixXd p(logits.rows(), logits.cols());
    for (Eigen::Index i = 0; i < logits.rows(); ++i) {
        const Eigen::RowVectorXd z = logits.row(i) / T;
        const Eigen::RowVectorXd e = (z.array() - z.maxCoeff()).exp().matrix();
        p.row(i) = e / e.sum();
    }
    return p;
}

Eigen::VectorXd confidence(const Eigen::MatrixXd& p, ConfidenceKind kind) {
    Eigen::VectorXd c(p.rows());
    const double lnC = std::log(double(p.cols()));
    for (Eigen::Index i = 0; i < p.rows(); ++i) {
        if (kind == ConfidenceKind::MaxProb) {
            c(i) = p.row(i).maxCoeff();
        } else if (kind == ConfidenceKind::Margin) {
            double a = -1, b = -1;
            for (Eigen::Index j = 0; j < p.cols(); ++j) {
                const double v = p(i, j);
                if (v > a) {
                    b = a;
                    a = v;
                } else if (v > b) {
                    b = v;
                }
            }
            c(i) = a - std::max(b, 0.0);
        } else {
            double h = 0;
            for (Eigen::Index j = 0; j < p.cols(); ++j)
                if (p(i, j) > 0)
                    h -= p(i, j) * std::log(p(i, j));
            c(i) = lnC > 0 ? 1.0 - h / lnC : 1.0;
        }
    }
    return c;
}

std::vector<int> argmaxRows(const Eigen::MatrixXd& m) {
    std::vector<int> out(size_t(m.rows()));
    for (Eigen::Index i = 0; i < m.rows(); ++i) {
        Eigen::Index j = 0;
        m.row(i).maxCoeff(&j);
        out[size_t(i)] = int(j);
    }
    return out;
}

double auroc(const Eigen::VectorXd& score, const std::vector<char>& pos) {
    return rankAuroc(std::vector<double>(score.data(), score.data() + score.size()), pos);
}

double ece(const Eigen::VectorXd& conf, const std::vector<char>& correct, int B) {
    std::vector<double> gap(size_t(B), 0.0);
    for (Eigen::Index i = 0; i < conf.size(); ++i) {
        const int b = std::clamp(int(std::floor(conf(i) * B)), 0, B - 1);
        gap[size_t(b)] += double(correct[size_t(i)]) - conf(i);
    }
    double s = 0;
    for (double g : gap)
        s += std::abs(g);
    return conf.size() ? s / double(conf.size()) : kNan;
}

Reliability reliability(const Eigen::VectorXd& conf, const std::vector<char>& correct, int B) {
    Reliability r{std::vector<double>(size_t(B), 0), std::vector<double>(size_t(B), 0),
                  std::vector<double>(size_t(B), 0)};
    for (Eigen::Index i = 0; i < conf.size(); ++i) {
        const auto b = size_t(std::clamp(int(std::floor(conf(i) * B)), 0, B - 1));
        r.meanConf[b] += conf(i);
        r.accuracy[b] += double(correct[size_t(i)]);
        r.count[b] += 1;
    }
    for (size_t b = 0; b < size_t(B); ++b) {
        r.meanConf[b] = r.count[b] > 0 ? r.meanConf[b] / r.count[b] : kNan;
        r.accuracy[b] = r.count[b] > 0 ? r.accuracy[b] / r.count[b] : kNan;
    }
    return r;
}

double meanNll(const Eigen::MatrixXd& logits, const std::vector<int>& labels, double T) {
    double s = 0;
    for (Eigen::Index i = 0; i < logits.rows(); ++i) {
        const Eigen::RowVectorXd z = logits.row(i) / T;
        const double m = z.maxCoeff();
        s += m + std::log((z.array() - m).exp().sum()) - z(labels[size_t(i)]);
    }
    return logits.rows() ? s / double(logits.rows()) : kNan;
}

double fitTemperature(const Eigen::MatrixXd& logits, const std::vector<int>& labels) {
    double a = std::log(0.05), b = std::log(20.0);
    const double g = (std::sqrt(5.0) - 1) / 2;
    auto f = [&](double u) { return meanNll(logits, labels, std::exp(u)); };
    double c = b - g * (b - a), d = a + g * (b - a), fc = f(c), fd = f(d);
    while (b - a > 1e-9) {
        if (fc < fd) {
            b = d;
            d = c;
            fd = fc;
            c = b - g * (b - a);
            fc = f(c);
        } else {
            a = c;
            c = d;
            fc = fd;
            d = a + g * (b - a);
            fd = f(d);
        }
    }
    double best = 0.5 * (a + b), fb = f(best);
    for (double e : {std::log(0.05), std::log(20.0)})
        if (f(e) < fb) {
            fb = f(e);
            best = e;
        }
    return std::exp(best);
}

Eigen::VectorXd Logistic::predict(const Eigen::MatrixXd& X) const {
    return ((-(X * w).array() - b).exp() + 1.0).inverse().matrix();
}

Logistic fitLogistic(const Eigen::MatrixXd& X, const std::vector<char>& y, double C) {
    const auto n = X.rows(), p = X.cols();
    Eigen::MatrixXd A(n, p + 1);
    A << X, Eigen::VectorXd::Ones(n);
    Eigen::VectorXd theta = Eigen::VectorXd::Zero(p + 1), yv(n);
    for (Eigen::Index i = 0; i < n; ++i)
        yv(i) = y[size_t(i)] ? 1.0 : 0.0;
    Eigen::VectorXd pen = Eigen::VectorXd::Ones(p + 1);
    pen(p) = 0;
    auto objective = [&](const Eigen::VectorXd& t) {
        const Eigen::ArrayXd z = (A * t).array();
        const Eigen::ArrayXd ll = z.max(0.0) + (-z.abs()).exp().log1p() - yv.array() * z;
        return C * ll.sum() + 0.5 * (pen.array() * t.array().square()).sum();
    };
    double fcur = objective(theta);
    for (int it = 0; it < 100; ++it) {
        const Eigen::ArrayXd z = (A * theta).array();
        const Eigen::ArrayXd pr = ((-z).exp() + 1.0).inverse();
        const Eigen::VectorXd grad =
            C * A.transpose() * (pr - yv.array()).matrix() + (pen.array() * theta.array()).matrix();
        Eigen::MatrixXd H = C * A.transpose() * (pr * (1 - pr)).matrix().asDiagonal() * A;
        H.diagonal() += pen + Eigen::VectorXd::Constant(p + 1, 1e-12);
        const Eigen::VectorXd step = H.ldlt().solve(grad);
        double s = 1, fn = objective(theta - step);
        while (fn > fcur && s > 1e-10) {
            s /= 2;
            fn = objective(theta - s * step);
        }
        theta -= s * step;
        const double change = fcur - fn;
        fcur = fn;
        if (grad.cwiseAbs().maxCoeff() < 1e-10 || change < 1e-14 * std::max(1.0, std::abs(fcur)))
            break;
    }
    Logistic m;
    m.w = theta.head(p);
    m.b = theta(p);
    return m;
}

SweepCurve thresholdSweep(const std::vector<Eigen::VectorXd>& score,
                          const std::vector<std::vector<char>>& correct, const std::vector<double>& flops,
                          int T) {
    const size_t K = score.size();
    const Eigen::Index N = K ? score[0].size() : 0;
    std::vector<double> dAcc(size_t(T) + 2, 0.0), dCost(size_t(T) + 2, 0.0);
    // Threshold index i exits at k iff prefix max m_{k-1} < i/T <= m_k (m_{-1} = -inf, m_{K-1} = +inf).
    auto firstAbove = [T](double m) { // smallest i in [0, T+1] with i/T > m
        if (!(m == m) || m >= 1e300)
            return int64_t(T) + 1;
        const double f = std::floor(m * T);
        if (f < 0)
            return int64_t(0);
        return std::min<int64_t>(int64_t(T) + 1, int64_t(f) + 1);
    };
    for (Eigen::Index n = 0; n < N; ++n) {
        double prefix = -std::numeric_limits<double>::infinity();
        int64_t lo = 0;
        for (size_t k = 0; k < K && lo <= T; ++k) {
            int64_t hi = int64_t(T) + 1; // exclusive
            if (k + 1 < K) {
                prefix = std::max(prefix, score[k](n));
                // i/T <= prefix  <=>  i < firstAbove(prefix)
                hi = std::max(lo, firstAbove(prefix));
            }
            if (hi > lo) {
                const double c = double(correct[k][size_t(n)]), f = flops[k] / flops.back();
                dAcc[size_t(lo)] += c;
                dAcc[size_t(hi)] -= c;
                dCost[size_t(lo)] += f;
                dCost[size_t(hi)] -= f;
            }
            lo = hi;
        }
    }
    SweepCurve out;
    double a = 0, c = 0;
    for (int i = 0; i <= T; ++i) {
        a += dAcc[size_t(i)];
        c += dCost[size_t(i)];
        out.accuracy.push_back(a / double(N));
        out.cost.push_back(c / double(N));
    }
    return out;
}

double curveArea(const SweepCurve& c, double c0, double a0, double aLast) {
    std::vector<std::pair<double, double>> pts{{c0, a0}, {1.0, aLast}};
    for (size_t i = 0; i < c.cost.size(); ++i)
        pts.emplace_back(c.cost[i], c.accuracy[i]);
    std::sort(pts.begin(), pts.end());
    double area = 0, best = -1, x = c0;
    for (const auto& [px, py] : pts) {
        const double cx = std::clamp(px, c0, 1.0);
        if (best >= 0)
            area += best * (cx - x);
        x = std::max(x, cx);
        best = std::max(best, py);
    }
    area += best * (1.0 - x);
    return 1.0 - c0 > 0 ? area / (1.0 - c0) : best;
}

double accuracyAtBudget(const SweepCurve& c, double budget) {
    double best = kNan;
    for (size_t i = 0; i < c.cost.size(); ++i)
        if (c.cost[i] <= budget + 1e-12 && !(c.accuracy[i] <= best))
            best = c.accuracy[i];
    return best;
}

namespace {
std::vector<double> ranks(const std::vector<double>& v) {
    std::vector<size_t> idx(v.size());
    std::iota(idx.begin(), idx.end(), size_t(0));
    std::sort(idx.begin(), idx.end(), [&](size_t a, size_t b) { return v[a] < v[b]; });
    std::vector<double> r(v.size());
    for (size_t i = 0; i < idx.size();) {
        size_t j = i;
        while (j < idx.size() && v[idx[j]] == v[idx[i]])
            ++j;
        for (size_t k = i; k < j; ++k)
            r[idx[k]] = 0.5 * double(i + j - 1);
        i = j;
    }
    return r;
}
} // namespace

double spearman(const std::vector<double>& a, const std::vector<double>& b) {
    const std::vector<double> ra = ranks(a), rb = ranks(b);
    const double n = double(a.size());
    const double ma = std::accumulate(ra.begin(), ra.end(), 0.0) / n,
                 mb = std::accumulate(rb.begin(), rb.end(), 0.0) / n;
    double sab = 0, saa = 0, sbb = 0;
    for (size_t i = 0; i < ra.size(); ++i) {
        sab += (ra[i] - ma) * (rb[i] - mb);
        saa += (ra[i] - ma) * (ra[i] - ma);
        sbb += (rb[i] - mb) * (rb[i] - mb);
    }
    return saa > 0 && sbb > 0 ? sab / std::sqrt(saa * sbb) : kNan;
}

} // namespace pl::smallnets
