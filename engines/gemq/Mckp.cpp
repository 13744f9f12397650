#include "Mckp.h"

#include <ClpSimplex.hpp>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>
#include <string>

namespace pl::gemq {

std::vector<int> lowerHull(const MckpItem& item) {
    const size_t n = item.weight.size();
    std::vector<int> order(n);
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
        if (item.weight[size_t(a)] != item.weight[size_t(b)])
            return item.weight[size_t(a)] < item.weight[size_t(b)];
        return item.cost[size_t(a)] < item.cost[size_t(b)];
    });
    std::vector<int> undominated;
    for (int j : order) {
        if (!undominated.empty()) {
            const int last = undominated.back();
            if (item.weight[size_t(j)] == item.weight[size_t(last)] ||
                item.cost[size_t(j)] >= item.cost[size_t(last)])
                continue;
        }
        undominated.push_back(j);
    }
    std::vector<int> hull;
    for (int j : undominated) {
        while (hull.size() >= 2) {
            const int a = hull[hull.size() - 2], b = hull.back();
            const double w0 = item.weight[size_t(a)], c0 = item.cost[size_t(a)];
            const double w1 = item.weight[size_t(b)], c1 = item.cost[size_t(b)];
            const double w2 = item.weight[size_t(j)], c2 = item.cost[size_t(j)];
            // b stays only when strictly below the chord a-j: slope(a,b) < slope(b,j).
            if ((c1 - c0) * (w2 - w1) >= (c2 - c1) * (w1 - w0))
                hull.pop_back();
            else
                break;
        }
        hull.push_back(j);
    }
    return hull;
}

double minimumWeight(const std::vector<MckpItem>& items) {
    double s = 0;
    for (const MckpItem& it : items) {
        if (it.weight.empty())
            throw std::invalid_argument("MCKP: an item without options");
        s += *std::min_element(it.weight.begin(), it.weight.end());
    }
    return s;
}

MckpSolution solveMckpGreedy(const std::vector<MckpItem>& items, double capacity) {
    const double wmin = minimumWeight(items);
    if (capacity < wmin * (1 - 1e-12))
        throw std::invalid_argument("MCKP: capacity below the minimum weight");
    struct Segment {
        double slope, dw, dc;
        int item, k;
    };
    std::vector<std::vector<int>> hulls;
    std::vector<Segment> segs;
    MckpSolution s;
    double rem = capacity;
    for (size_t i = 0; i < items.size(); ++i) {
        hulls.push_back(lowerHull(items[i]));
        const std::vector<int>& h = hulls.back();
        rem -= items[i].weight[size_t(h[0])];
        for (size_t k = 0; k + 1 < h.size(); ++k) {
            const double dw = items[i].weight[size_t(h[k + 1])] - items[i].weight[size_t(h[k])];
            const double dc = items[i].cost[size_t(h[k + 1])] - items[i].cost[size_t(h[k])];
            segs.push_back({dc / dw, dw, dc, int(i), int(k)});
        }
    }
    rem = std::max(rem, 0.0);
    std::stable_sort(segs.begin(), segs.end(), [](const Segment& a, const Segment& b) {
        if (a.slope != b.slope)
            return a.slope < b.slope;
        if (a.item != b.item)
            return a.item < b.item;
        return a.k < b.k;
    });
    std::vector<int> pos(items.size(), 0);
    double fracGain = 0;
    for (const Segment& g : segs) {
        if (g.dw <= rem) {
            rem -= g.dw;
            pos[size_t(g.item)] = g.k + 1;
            continue;
        }
        if (rem > 0) {
            s.fractionalItem = g.item;
            s.upperOption = hulls[size_t(g.item)][size_t(g.k + 1)];
            s.fraction = rem / g.dw;
            fracGain = s.fraction * g.dc;
        }
        break;
    }
    for (size_t i = 0; i < items.size(); ++i) {
        const int j = hulls[i][size_t(pos[i])];
        s.choice.push_back(j);
        s.integerObjective += items[i].cost[size_t(j)];
        s.weightUsed += items[i].weight[size_t(j)];
    }
    s.lpObjective = s.integerObjective + fracGain;
    return s;
}

double solveMckpLpClp(const std::vector<MckpItem>& items, double capacity) {
    double cmax = 0, wmax = 0;
    for (const MckpItem& it : items)
        for (size_t j = 0; j < it.cost.size(); ++j) {
            cmax = std::max(cmax, std::abs(it.cost[j]));
            wmax = std::max(wmax, std::abs(it.weight[j]));
        }
    cmax = cmax > 0 ? cmax : 1;
    wmax = wmax > 0 ? wmax : 1;
    const int nItems = int(items.size());
    std::vector<CoinBigIndex> start;
    std::vector<int> index;
    std::vector<double> value, obj, collb, colub;
    for (int i = 0; i < nItems; ++i)
        for (size_t j = 0; j < items[size_t(i)].cost.size(); ++j) {
            start.push_back(CoinBigIndex(index.size()));
            index.push_back(i);
            value.push_back(1.0);
            index.push_back(nItems);
            value.push_back(items[size_t(i)].weight[j] / wmax);
            obj.push_back(items[size_t(i)].cost[j] / cmax);
            collb.push_back(0.0);
            colub.push_back(1.0);
        }
    const int nCols = int(obj.size());
    start.push_back(CoinBigIndex(index.size()));
    std::vector<double> rowlb(size_t(nItems) + 1, 1.0), rowub(size_t(nItems) + 1, 1.0);
    rowlb[size_t(nItems)] = -COIN_DBL_MAX;
    rowub[size_t(nItems)] = capacity / wmax;
    ClpSimplex model;
    model.setLogLevel(0);
    model.setPrimalTolerance(1e-10);
    model.setDualTolerance(1e-10);
    model.loadProblem(nCols, nItems + 1, start.data(), index.data(), value.data(), collb.data(), colub.data(),
                      obj.data(), rowlb.data(), rowub.data());
    model.dual();
    if (!model.isProvenOptimal())
        throw std::runtime_error("CLP found no optimum (status " + std::to_string(model.status()) + ")");
    // Re-evaluate in the caller's units from the primal solution.
    const double* z = model.primalColumnSolution();
    double o = 0;
    int col = 0;
    for (const MckpItem& it : items)
        for (size_t j = 0; j < it.cost.size(); ++j)
            o += it.cost[j] * z[col++];
    return o;
}

} // namespace pl::gemq
