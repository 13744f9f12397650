#include "SaeMarkov.h"

#include <algorithm>
#include <cmath>

namespace pl::hiddenstate {

void MarkovTransitions::fit(const LayerCodes& codes, const std::vector<int>& rows, int m, double alpha) {
    const size_t L = codes.size();
    Eigen::VectorXd n0 = Eigen::VectorXd::Zero(m);
    std::vector<Eigen::MatrixXd> n(L > 0 ? L - 1 : 0, Eigen::MatrixXd::Zero(m, m));
    for (int x : rows) {
        const SparseCode& c0 = codes[0][size_t(x)];
        for (size_t a = 0; a < c0.index.size(); ++a)
            n0(c0.index[a]) += c0.weight[a];
        for (size_t l = 0; l + 1 < L; ++l) {
            const SparseCode& u = codes[l][size_t(x)];
            const SparseCode& v = codes[l + 1][size_t(x)];
            for (size_t a = 0; a < u.index.size(); ++a)
                for (size_t b = 0; b < v.index.size(); ++b)
                    n[l](u.index[a], v.index[b]) += u.weight[a] * v.weight[b];
        }
    }
    m_logP0 = ((n0.array() + alpha) / (n0.sum() + alpha * m)).log().matrix();
    m_logP.clear();
    for (const Eigen::MatrixXd& c : n) {
        const Eigen::VectorXd rowTotal = c.rowwise().sum().array() + alpha * m;
        Eigen::MatrixXd lp = (c.array() + alpha).log().matrix();
        lp.colwise() -= rowTotal.array().log().matrix();
        m_logP.push_back(lp);
    }
}

double MarkovTransitions::score(const LayerCodes& codes, int x) const {
    const size_t L = codes.size();
    double s = 0;
    const SparseCode& c0 = codes[0][size_t(x)];
    for (size_t a = 0; a < c0.index.size(); ++a)
        s += c0.weight[a] * m_logP0(c0.index[a]);
    for (size_t l = 0; l + 1 < L; ++l) {
        const SparseCode& u = codes[l][size_t(x)];
        const SparseCode& v = codes[l + 1][size_t(x)];
        for (size_t a = 0; a < u.index.size(); ++a)
            for (size_t b = 0; b < v.index.size(); ++b)
                s += u.weight[a] * v.weight[b] * m_logP[l](u.index[a], v.index[b]);
    }
    return s / double(L);
}

std::vector<double> naiveBayesScores(const std::vector<SparseCode>& codes, const std::vector<int>& rows,
                                     int m, double alpha) {
    std::vector<double> count(static_cast<size_t>(m), 0.0), logOn, logOff;
    for (int x : rows)
        for (int i : codes[size_t(x)].index)
            count[size_t(i)] += 1;
    double base = 0;
    for (int i = 0; i < m; ++i) {
        const double p = (count[size_t(i)] + alpha) / (double(rows.size()) + 2 * alpha);
        logOn.push_back(std::log(p));
        logOff.push_back(std::log(1 - p));
        base += logOff.back();
    }
    std::vector<double> out;
    for (const SparseCode& c : codes) {
        std::vector<double> terms;
        for (int i : c.index)
            terms.push_back(logOn[size_t(i)] - logOff[size_t(i)]);
        std::sort(terms.begin(), terms.end()); // equal multisets of terms give equal sums (ties stay ties)
        double s = base;
        for (double v : terms)
            s += v;
        out.push_back(s);
    }
    return out;
}

} // namespace pl::hiddenstate
