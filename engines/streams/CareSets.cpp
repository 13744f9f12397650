#include "streams/CareSets.h"

#include "core/Errors.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace pl::streams {

double crcLambda(const std::vector<double>& needs, const std::vector<double>& weights, double alpha) {
    const size_t n = needs.size();
    std::vector<size_t> order(n);
    std::iota(order.begin(), order.end(), size_t(0));
    std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return needs[a] < needs[b]; });
    double above = 0; // Σ w over rows whose need exceeds the candidate λ
    for (size_t i = 0; i < n; ++i)
        above += weights.empty() ? 1.0 : weights[i];
    const double budget = alpha * double(n + 1) - 1.0;
    if (above <= budget)
        return 0.0;
    for (size_t r = 0; r < n;) {
        const double lam = needs[order[r]];
        if (!std::isfinite(lam))
            break;
        while (r < n && needs[order[r]] == lam) { // every row with need = λ enters at λ
            above -= weights.empty() ? 1.0 : weights[order[r]];
            ++r;
        }
        if (above <= budget + 1e-12)
            return lam;
    }
    return 1.0;
}

double crcOnRows(const RecStream& s, size_t from, size_t to, const CareParams& p) {
    std::vector<double> needs, w;
    needs.reserve(to - from);
    for (size_t t = from; t < to; ++t) {
        needs.push_back(s.needTrue(t, p.maxSize));
        if (p.weighted)
            w.push_back(s.rows[t].weight);
    }
    return crcLambda(needs, w, p.alpha);
}

namespace {

double lossAt(const RecStream& s, size_t t, double lambda, const CareParams& p) {
    const double miss = s.needTrue(t, p.maxSize) > lambda ? 1.0 : 0.0;
    return p.weighted ? miss * s.rows[t].weight : miss;
}

double clip01(double x) {
    return std::min(1.0, std::max(0.0, x));
}

} // namespace

ModelRun runMethods(const RecStream& s, const CareParams& p, RunContext& ctx) {
    const size_t N = s.rows.size(), n0 = size_t(p.nCal);
    if (N <= n0)
        throw UsageError("care-recsets needs more rows than n_cal = " + std::to_string(p.nCal) +
                         " (the stream has " + std::to_string(N) + ")");
    ModelRun m;
    m.lambdaStatic = crcOnRows(s, 0, n0, p);
    double lamAci = m.lambdaStatic, lamCare = m.lambdaStatic, lamCal = m.lambdaStatic;
    Cusum cusum(p.alpha, p.kappa, p.h);
    cusum.reset(int64_t(n0) - 1);
    int64_t pauseEnd = -1, change = -1;
    for (size_t t = n0; t < N; ++t) {
        if ((t & 8191) == 0)
            ctx.throwIfCancelled();
        m.lossStatic.push_back(lossAt(s, t, m.lambdaStatic, p));
        m.sizeStatic.push_back(s.setSize(t, m.lambdaStatic, p.maxSize));
        const double la = lossAt(s, t, lamAci, p);
        m.lambdaAci.push_back(lamAci);
        m.lossAci.push_back(la);
        m.sizeAci.push_back(s.setSize(t, lamAci, p.maxSize));
        lamAci = clip01(lamAci + p.eta * (la - p.alpha));
        const double lc = lossAt(s, t, lamCare, p);
        m.lambdaCare.push_back(lamCare);
        m.lossCare.push_back(lc);
        m.sizeCare.push_back(s.setSize(t, lamCare, p.maxSize));
        lamCare = clip01(lamCare + p.eta * (lc - p.alpha));
        const int64_t ti = int64_t(t);
        if (ti < pauseEnd) { // monitor paused; recalibrate on the post-change rows at the pause's end
            if (ti == pauseEnd - 1) {
                const size_t from = size_t(std::max<int64_t>(change, ti + 1 - p.nCal));
                lamCal = crcOnRows(s, from, t + 1, p);
                lamCare = lamCal;
                cusum.reset(ti);
                m.recalibrations.push_back(ti);
            }
            continue;
        }
        if (cusum.update(lossAt(s, t, lamCal, p), ti)) {
            m.alarms.push_back(ti);
            change = cusum.changeEstimate();
            m.changes.push_back(change);
            pauseEnd = ti + 1 + p.nMin;
        }
    }
    return m;
}

AggregateRun aggregate(const std::vector<const RecStream*>& streams, const std::vector<ModelRun>& runs,
                       const CareParams& p, Rng rng, RunContext& ctx) {
    const size_t M = streams.size(), n0 = size_t(p.nCal), N = streams[0]->rows.size();
    AggregateRun a;
    a.weights.resize(M);
    std::vector<double> A(M, 0.0), w(M, 0.0);
    std::vector<size_t> nextRecal(M, 0);
    std::vector<int64_t> items;
    std::vector<std::pair<int64_t, double>> votes;
    for (size_t t = n0; t < N; ++t) {
        if ((t & 8191) == 0)
            ctx.throwIfCancelled();
        const size_t r = t - n0;
        const double lo = *std::min_element(A.begin(), A.end());
        double z = 0;
        for (size_t m = 0; m < M; ++m)
            z += w[m] = std::exp(-p.etaW * (A[m] - lo));
        for (size_t m = 0; m < M; ++m)
            a.weights[m].push_back(w[m] /= z);
        // union and vote need the item ids of every constituent's set
        items.clear();
        bool inUnion = false;
        for (size_t m = 0; m < M; ++m) {
            const RecStream& s = *streams[m];
            const CandidateList& L = s.lists[size_t(s.rows[t].list)];
            items.insert(items.end(), L.items.begin(), L.items.begin() + runs[m].sizeCare[r]);
            inUnion = inUnion || s.needTrue(t, p.maxSize) <= runs[m].lambdaCare[r];
        }
        const double wTrue = p.weighted ? streams[0]->rows[t].weight : 1.0;
        std::sort(items.begin(), items.end());
        const int64_t unionSize = int64_t(std::unique(items.begin(), items.end()) - items.begin());
        a.lossUnion.push_back(inUnion ? 0.0 : wTrue);
        a.sizeUnion.push_back(int(unionSize));
        if (p.aggregation == "union") {
            a.lossAggregate.push_back(a.lossUnion.back());
            a.sizeAggregate.push_back(int(unionSize));
        } else if (p.aggregation == "vote") {
            votes.clear();
            for (size_t m = 0; m < M; ++m) {
                const RecStream& s = *streams[m];
                const CandidateList& L = s.lists[size_t(s.rows[t].list)];
                for (int i = 0; i < runs[m].sizeCare[r]; ++i)
                    votes.emplace_back(L.items[size_t(i)], w[m]);
            }
            std::sort(votes.begin(), votes.end());
            int size = 0;
            bool hit = false;
            for (size_t i = 0; i < votes.size();) {
                size_t j = i;
                double sum = 0;
                for (; j < votes.size() && votes[j].first == votes[i].first; ++j)
                    sum += votes[j].second;
                if (sum >= 0.5) {
                    ++size;
                    hit = hit || votes[i].first == streams[0]->rows[t].trueItem;
                }
                i = j;
            }
            a.lossAggregate.push_back(hit ? 0.0 : wTrue);
            a.sizeAggregate.push_back(size);
        } else {
            double u = rng.uniform(), c = 0;
            size_t pick = M - 1;
            for (size_t m = 0; m < M; ++m)
                if (u < (c += w[m])) {
                    pick = m;
                    break;
                }
            a.lossAggregate.push_back(runs[pick].lossCare[r]);
            a.sizeAggregate.push_back(runs[pick].sizeCare[r]);
        }
        // size loss of this row, then decay by γ for each constituent recalibration (a new segment)
        for (size_t m = 0; m < M; ++m)
            A[m] += double(runs[m].sizeCare[r]) / double(p.maxSize);
        int newSegments = 0;
        for (size_t m = 0; m < M; ++m)
            while (nextRecal[m] < runs[m].recalibrations.size() &&
                   runs[m].recalibrations[nextRecal[m]] <= int64_t(t)) {
                ++nextRecal[m];
                ++newSegments;
            }
        for (int k = 0; k < newSegments; ++k)
            for (double& x : A)
                x *= p.gamma;
    }
    return a;
}

} // namespace pl::streams
