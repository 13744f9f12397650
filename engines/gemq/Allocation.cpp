#include "Allocation.h"

#include <algorithm>
#include <stdexcept>

namespace pl::gemq {

std::vector<MckpItem> mckpItems(const AllocProblem& p, int from, int to) {
    std::vector<MckpItem> items;
    for (int i = from; i < to; ++i) {
        MckpItem it;
        for (size_t j = 0; j < p.bits.size(); ++j) {
            it.weight.push_back(double(p.bits[j]) * p.params[size_t(i)]);
            it.cost.push_back(p.cost(i, Eigen::Index(j)));
        }
        items.push_back(std::move(it));
    }
    return items;
}

double minAverageBits(const AllocProblem& p) {
    return double(*std::min_element(p.bits.begin(), p.bits.end()));
}

namespace {

double paramSum(const AllocProblem& p, int from, int to) {
    double s = 0;
    for (int i = from; i < to; ++i)
        s += p.params[size_t(i)];
    return s;
}

} // namespace

Allocation allocate(const AllocProblem& p, double avgBits, bool global) {
    if (avgBits < minAverageBits(p))
        throw std::invalid_argument("avg_bits below the minimum");
    Allocation a;
    const int n = p.layers * p.experts;
    a.option.assign(size_t(n), 0);
    const int parts = global ? 1 : p.layers;
    const int per = global ? n : p.experts;
    double bitsUsed = 0;
    for (int k = 0; k < parts; ++k) {
        const int from = k * per, to = from + per;
        const auto items = mckpItems(p, from, to);
        const MckpSolution s = solveMckpGreedy(items, avgBits * paramSum(p, from, to));
        for (int i = from; i < to; ++i)
            a.option[size_t(i)] = s.choice[size_t(i - from)];
        a.lpObjective += s.lpObjective;
        a.cost += s.integerObjective;
        bitsUsed += s.weightUsed;
        a.fractional += s.fractionalItem >= 0;
    }
    a.avgBits = bitsUsed / paramSum(p, 0, n);
    return a;
}

double allocateLpByClp(const AllocProblem& p, double avgBits, bool global) {
    const int n = p.layers * p.experts;
    const int parts = global ? 1 : p.layers;
    const int per = global ? n : p.experts;
    double obj = 0;
    for (int k = 0; k < parts; ++k) {
        const int from = k * per, to = from + per;
        obj += solveMckpLpClp(mckpItems(p, from, to), avgBits * paramSum(p, from, to));
    }
    return obj;
}

Eigen::MatrixXd bitsMatrix(const AllocProblem& p, const Allocation& a) {
    Eigen::MatrixXd m(p.layers, p.experts);
    for (int l = 0; l < p.layers; ++l)
        for (int e = 0; e < p.experts; ++e)
            m(l, e) = p.bits[size_t(a.option[size_t(l * p.experts + e)])];
    return m;
}

} // namespace pl::gemq
