#include "streams/CareWorkload.h"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <numeric>

namespace pl::streams {

namespace {

using Mat = std::vector<std::vector<double>>;

Mat gaussian(Rng& rng, int rows, int cols) {
    Mat m(size_t(rows), std::vector<double>(size_t(cols), 0.0));
    for (auto& r : m)
        for (double& x : r)
            x = rng.normal();
    return m;
}

double dot(const std::vector<double>& a, const std::vector<double>& b) {
    double s = 0;
    for (size_t k = 0; k < a.size(); ++k)
        s += a[k] * b[k];
    return s;
}

/// One constituent: per user its ranked top list and each item's rank in it (−1 when not listed).
struct Recommender {
    std::vector<int32_t> rankOf; ///< users × items
};

void addRecommender(const CareWorld& w, const Mat& userF, const Mat& itemF, const std::vector<double>& pop,
                    double noise, Rng& rng, RecStream& out, Recommender& rec) {
    const double sd = 1.0 / std::sqrt(double(w.dim));
    rec.rankOf.assign(size_t(w.users) * size_t(w.items), -1);
    std::vector<double> score(size_t(w.items));
    std::vector<int64_t> order(size_t(w.items));
    for (int u = 0; u < w.users; ++u) {
        std::vector<double> uh = userF[size_t(u)];
        for (double& x : uh)
            x += noise * rng.normal();
        for (int i = 0; i < w.items; ++i)
            score[size_t(i)] = w.beta * sd * dot(uh, itemF[size_t(i)]) + pop[size_t(i)];
        std::iota(order.begin(), order.end(), int64_t(0));
        const int c = std::min(w.candidates, w.items);
        std::partial_sort(order.begin(), order.begin() + c, order.end(),
                          [&](int64_t a, int64_t b) { return score[size_t(a)] > score[size_t(b)]; });
        std::vector<int64_t> items(order.begin(), order.begin() + c);
        std::vector<double> sc(size_t(c), 0.0);
        for (int r = 0; r < c; ++r)
            sc[size_t(r)] = score[size_t(items[size_t(r)])];
        CandidateList list;
        rankCandidates(items, sc, -1, list);
        for (int r = 0; r < c; ++r)
            rec.rankOf[size_t(u) * size_t(w.items) + size_t(list.items[size_t(r)])] = r;
        out.lists.push_back(std::move(list));
    }
}

/// Cumulative preference of every user over items (users × items).
void preferenceCdf(const CareWorld& w, const Mat& userF, const Mat& itemF, const std::vector<double>& pop,
                   std::vector<double>& cdf) {
    const double sd = 1.0 / std::sqrt(double(w.dim));
    cdf.assign(size_t(w.users) * size_t(w.items), 0.0);
    for (int u = 0; u < w.users; ++u) {
        double* c = cdf.data() + size_t(u) * size_t(w.items);
        double hi = -1e300;
        for (int i = 0; i < w.items; ++i)
            hi = std::max(hi, c[i] = w.beta * sd * dot(userF[size_t(u)], itemF[size_t(i)]) + pop[size_t(i)]);
        double s = 0;
        for (int i = 0; i < w.items; ++i)
            c[i] = s += std::exp(c[i] - hi);
        for (int i = 0; i < w.items; ++i)
            c[i] /= s;
    }
}

} // namespace

CareStandIn generateCareStandIn(const CareWorld& w, const Rng& rng) {
    CareStandIn out;
    Rng gen = rng.fork("world");
    Mat userF = gaussian(gen, w.users, w.dim);
    std::vector<size_t> perm(size_t(w.users));
    std::iota(perm.begin(), perm.end(), size_t(0));
    for (size_t i = perm.size(); i > 1; --i) // Fisher-Yates: the drifting groups
        std::swap(perm[i - 1], perm[size_t(gen.uniformInt(i))]);
    const Mat itemF = gaussian(gen, w.items, w.dim);
    std::vector<double> pop(size_t(w.items));
    for (double& p : pop)
        p = w.popularitySd * gen.normal();
    out.names = {"factors, noise σ 0.15", "factors, noise σ 0.3", "factors, noise σ 0.5"};
    const double noises[] = {0.15, 0.3, 0.5};
    std::vector<Recommender> recs(3);
    out.models.resize(3);
    Rng fit = rng.fork("recommenders");
    for (size_t m = 0; m < 3; ++m)
        addRecommender(w, userF, itemF, pop, noises[m], fit, out.models[m], recs[m]);
    const int64_t span = w.length - w.calibration;
    for (int c = 1; c <= w.changePoints; ++c)
        out.changeRows.push_back(w.calibration + span * c / (w.changePoints + 1));
    std::vector<double> cdf;
    preferenceCdf(w, userF, itemF, pop, cdf);
    std::vector<int64_t> steps(size_t(w.users), 0);
    Rng draw = rng.fork("stream");
    const double theta = w.drift * std::numbers::pi / 3;
    size_t nextChange = 0;
    for (int64_t t = 0; t < w.length; ++t) {
        if (nextChange < out.changeRows.size() && t == out.changeRows[nextChange]) {
            ++nextChange;
            const size_t group = size_t(std::min(w.subgroup, 1.0 / double(w.changePoints)) * w.users);
            for (size_t g = (nextChange - 1) * group; g < nextChange * group && g < perm.size(); ++g)
                for (double& x : userF[perm[g]])
                    x = std::cos(theta) * x + std::sin(theta) * draw.normal();
            preferenceCdf(w, userF, itemF, pop, cdf);
        }
        const int u = int(draw.uniformInt(uint64_t(w.users)));
        const double* c = cdf.data() + size_t(u) * size_t(w.items);
        const int64_t item =
            std::min<int64_t>(w.items - 1, std::upper_bound(c, c + w.items, draw.uniform()) - c);
        for (size_t m = 0; m < 3; ++m) {
            RecRow row;
            row.user = u;
            row.step = steps[size_t(u)];
            row.trueItem = item;
            row.list = int32_t(u);
            row.rank = recs[m].rankOf[size_t(u) * size_t(w.items) + size_t(item)];
            out.models[m].missingTrue += row.rank < 0;
            out.models[m].rows.push_back(row);
        }
        ++steps[size_t(u)];
    }
    return out;
}

} // namespace pl::streams
