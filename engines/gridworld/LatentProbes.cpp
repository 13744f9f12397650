#include "gridworld/LatentProbes.h"

#include "core/Numeric.h"
#include "gridworld/ClipSet.h"

#include <Eigen/Dense>
#include <Eigen/SVD>

#include <algorithm>
#include <cmath>
#include <limits>

namespace pl::gridworld {

namespace {

const std::vector<int>& act(const LabelledLatents& l) {
    return *l.action;
}
const std::vector<int>& ctxOf(const LabelledLatents& l) {
    return *l.context;
}

/// Rows of context c with a known action.
std::vector<int> labelledRows(const LabelledLatents& l, int c) {
    std::vector<int> rows;
    for (size_t r = 0; r < act(l).size(); ++r)
        if (act(l)[r] >= 0 && ctxOf(l)[r] == c)
            rows.push_back(int(r));
    return rows;
}

/// Nearest class mean over the training rows; accuracy on the test rows.
double ncmAccuracy(const LabelledLatents& l, const std::vector<int>& train, const std::vector<int>& test) {
    const Eigen::MatrixXd& z = *l.z;
    Eigen::MatrixXd sums = Eigen::MatrixXd::Zero(kActionCount, z.cols());
    std::vector<int> counts(kActionCount, 0);
    for (int r : train) {
        sums.row(act(l)[size_t(r)]) += z.row(r);
        ++counts[size_t(act(l)[size_t(r)])];
    }
    if (test.empty())
        return kNaN;
    int right = 0;
    for (int r : test) {
        int best = -1;
        double bestD = std::numeric_limits<double>::infinity();
        for (int a = 0; a < kActionCount; ++a)
            if (counts[size_t(a)] > 0) {
                const double d = (z.row(r) - sums.row(a) / counts[size_t(a)]).squaredNorm();
                if (d < bestD) {
                    bestD = d;
                    best = a;
                }
            }
        right += best == act(l)[size_t(r)];
    }
    return double(right) / double(test.size());
}

/// The first \a n of a seeded shuffle of \a rows (all when n ≥ size); the rest go to \a rest.
std::vector<int> pick(std::vector<int> rows, int n, Rng rng, std::vector<int>* rest = nullptr) {
    for (size_t i = rows.size(); i > 1; --i)
        std::swap(rows[i - 1], rows[size_t(rng.uniformInt(i))]);
    const size_t k = std::min(rows.size(), size_t(std::max(0, n)));
    if (rest)
        rest->assign(rows.begin() + long(k), rows.end());
    rows.resize(k);
    return rows;
}

} // namespace

Eigen::MatrixXd classMeans(const LabelledLatents& l, int actions) {
    const Eigen::MatrixXd& z = *l.z;
    Eigen::MatrixXd m = Eigen::MatrixXd::Zero(l.contexts * actions, z.cols());
    std::vector<int> n(size_t(l.contexts * actions), 0);
    for (size_t r = 0; r < act(l).size(); ++r) {
        const int a = act(l)[r];
        if (a < 0 || a >= actions)
            continue;
        const int row = ctxOf(l)[r] * actions + a;
        m.row(row) += z.row(Eigen::Index(r));
        ++n[size_t(row)];
    }
    for (int row = 0; row < m.rows(); ++row)
        if (n[size_t(row)] > 0)
            m.row(row) /= n[size_t(row)];
        else
            m.row(row).setConstant(kNaN);
    return m;
}

double crossContextCosine(const LabelledLatents& l, Eigen::MatrixXd* pairMatrix) {
    const int cn = l.contexts;
    if (pairMatrix)
        *pairMatrix = Eigen::MatrixXd::Identity(cn, cn);
    if (cn < 2)
        return kNaN;
    const Eigen::MatrixXd m = classMeans(l, kMoveCount);
    double total = 0;
    int count = 0;
    for (int a = 0; a < cn; ++a)
        for (int b = a + 1; b < cn; ++b) {
            double pair = 0;
            int pn = 0;
            for (int mv = 0; mv < kMoveCount; ++mv) {
                const Eigen::RowVectorXd u = m.row(a * kMoveCount + mv), v = m.row(b * kMoveCount + mv);
                if (!u.allFinite() || !v.allFinite() || u.norm() == 0 || v.norm() == 0)
                    continue;
                const double c = u.dot(v) / (u.norm() * v.norm());
                pair += c;
                ++pn;
                total += c;
                ++count;
            }
            if (pairMatrix)
                (*pairMatrix)(a, b) = (*pairMatrix)(b, a) = pn ? pair / pn : kNaN;
        }
    return count ? total / count : kNaN;
}

double probeTransfer(const LabelledLatents& l, int labels, const Rng& rng) {
    if (l.contexts < 2)
        return kNaN;
    double total = 0;
    int pairs = 0;
    for (int a = 0; a < l.contexts; ++a) {
        const std::vector<int> train =
            pick(labelledRows(l, a), labels, rng.fork("probe " + std::to_string(a)));
        for (int b = 0; b < l.contexts; ++b) {
            if (b == a)
                continue;
            const double acc = ncmAccuracy(l, train, labelledRows(l, b));
            if (std::isfinite(acc) && !train.empty()) {
                total += acc;
                ++pairs;
            }
        }
    }
    return pairs ? total / pairs : kNaN;
}

std::vector<double> labelCurve(const LabelledLatents& l, int base, const std::vector<int>& counts,
                               const Rng& rng) {
    std::vector<double> out(counts.size(), 0.0);
    std::vector<int> used(counts.size(), 0);
    for (int b = 0; b < l.contexts; ++b) {
        std::vector<int> other;
        for (int a = 0; a < l.contexts; ++a)
            if (a != b) {
                const auto p = pick(labelledRows(l, a), base, rng.fork("base " + std::to_string(a)));
                other.insert(other.end(), p.begin(), p.end());
            }
        std::vector<int> rest;
        const std::vector<int> own = pick(labelledRows(l, b), *std::max_element(counts.begin(), counts.end()),
                                          rng.fork("new " + std::to_string(b)), &rest);
        if (rest.empty())
            continue;
        for (size_t k = 0; k < counts.size(); ++k) {
            std::vector<int> train = other;
            train.insert(train.end(), own.begin(),
                         own.begin() + long(std::min(own.size(), size_t(counts[k]))));
            if (train.empty())
                continue;
            out[k] += ncmAccuracy(l, train, rest);
            ++used[k];
        }
    }
    for (size_t k = 0; k < counts.size(); ++k)
        out[k] = used[k] ? out[k] / used[k] : kNaN;
    return out;
}

double procrustesResidual(const LabelledLatents& l) {
    if (l.contexts < 2)
        return kNaN;
    const Eigen::MatrixXd m = classMeans(l, kMoveCount);
    double total = 0;
    int count = 0;
    for (int a = 0; a < l.contexts; ++a)
        for (int b = a + 1; b < l.contexts; ++b) {
            const Eigen::MatrixXd ma = m.middleRows(a * kMoveCount, kMoveCount);
            const Eigen::MatrixXd mb = m.middleRows(b * kMoveCount, kMoveCount);
            if (!ma.allFinite() || !mb.allFinite() || mb.norm() == 0)
                continue;
            const Eigen::JacobiSVD<Eigen::MatrixXd> svd(ma.transpose() * mb,
                                                        Eigen::ComputeFullU | Eigen::ComputeFullV);
            const Eigen::MatrixXd r = svd.matrixU() * svd.matrixV().transpose();
            total += (ma * r - mb).norm() / mb.norm();
            ++count;
        }
    return count ? total / count : kNaN;
}

Eigen::MatrixXd fitActionAdapter(const LabelledLatents& l, const std::vector<int>& fit) {
    const Eigen::MatrixXd& z = *l.z;
    Eigen::MatrixXd x = Eigen::MatrixXd::Zero(Eigen::Index(fit.size()), kActionCount);
    Eigen::MatrixXd y(Eigen::Index(fit.size()), z.cols());
    for (size_t i = 0; i < fit.size(); ++i) {
        x(Eigen::Index(i), act(l)[size_t(fit[i])]) = 1.0;
        y.row(Eigen::Index(i)) = z.row(fit[i]);
    }
    // least squares; a tiny ridge keeps unseen actions at zero
    Eigen::MatrixXd g = x.transpose() * x;
    g.diagonal().array() += 1e-9;
    return g.ldlt().solve(x.transpose() * y);
}

} // namespace pl::gridworld
