#include "FedSieve.h"

#include "core/Numeric.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace pl::robusttrain {

namespace {

int binOf(double l, double hi, int bins) {
    if (!(hi > 0))
        return 0;
    return std::clamp(int(std::floor(l / hi * bins)), 0, bins - 1);
}

/// Relabels or drops the rows the sieve did not keep.
void refine(const Mlp& global, const Federation& f, const SieveConfig& c, SieveOutcome& s) {
    const Eigen::MatrixXd logits = forward(global, f.train.X);
    s.targets.y = f.train.y;
    s.targets.weight.assign(f.train.y.size(), 1.0);
    for (Eigen::Index i = 0; i < logits.rows(); ++i) {
        if (s.kept[size_t(i)])
            continue;
        Eigen::Index arg = 0;
        const double m = logits.row(i).maxCoeff(&arg);
        const double pmax = 1.0 / (logits.row(i).array() - m).exp().sum();
        if (pmax > c.relabelConfidence) {
            s.targets.y[size_t(i)] = int(arg);
            ++s.relabelled;
        } else {
            s.targets.weight[size_t(i)] = 0;
            ++s.dropped;
        }
    }
}

} // namespace

SieveOutcome globalSieve(const Mlp& global, const Federation& f, const SieveConfig& c) {
    SieveOutcome s;
    const std::vector<double> exact = crossEntropyRows(forward(global, f.train.X), f.train.y);
    const size_t n = exact.size();
    s.maxLoss = n ? *std::max_element(exact.begin(), exact.end()) : 0.0;
    const int B = std::max(2, c.bins);
    std::vector<double> x, w;
    std::vector<int> bin(n);
    if (c.histogram) {
        // Each client sends counts / n_k over the common bins; the server weights them by n_k.
        std::vector<double> pooled(size_t(B), 0.0);
        for (int k = 0; k < f.clients(); ++k) {
            std::vector<double> h(size_t(B), 0.0);
            const auto& rows = f.members[size_t(k)];
            for (int i : rows)
                h[size_t(bin[size_t(i)] = binOf(exact[size_t(i)], s.maxLoss, B))] +=
                    1.0 / double(rows.size());
            for (int b = 0; b < B; ++b)
                pooled[size_t(b)] += h[size_t(b)] * double(rows.size());
        }
        for (int b = 0; b < B; ++b) {
            x.push_back((b + 0.5) * s.maxLoss / B);
            w.push_back(pooled[size_t(b)]);
        }
        s.loss.resize(n);
        for (size_t i = 0; i < n; ++i)
            s.loss[i] = x[size_t(bin[i])];
    } else {
        s.loss = x = exact;
    }
    s.pClean.assign(n, 1.0);
    try {
        s.gmm = fitGmm1d(x, w);
        s.fitted = true;
        for (size_t i = 0; i < n; ++i)
            s.pClean[i] = s.gmm.posteriorLow(s.loss[i]);
    } catch (const std::invalid_argument&) {
        s.fitted = false;
    }
    s.kept.resize(n);
    for (size_t i = 0; i < n; ++i)
        s.kept[i] = s.pClean[i] > 0.5 ? 1 : 0;
    s.noiseEstimate.assign(size_t(f.clients()), kNaN);
    for (int k = 0; k < f.clients(); ++k) {
        const auto& rows = f.members[size_t(k)];
        if (rows.empty())
            continue;
        double sum = 0;
        for (int i : rows)
            sum += 1 - s.pClean[size_t(i)];
        s.noiseEstimate[size_t(k)] = sum / double(rows.size());
    }
    refine(global, f, c, s);
    return s;
}

LocalTargets localSieve(const std::vector<Mlp>& local, const Federation& f) {
    LocalTargets t{f.train.y, std::vector<double>(f.train.y.size(), 1.0)};
    for (int k = 0; k < f.clients(); ++k) {
        const auto& rows = f.members[size_t(k)];
        if (rows.size() < 2)
            continue;
        std::vector<int> y;
        for (int i : rows)
            y.push_back(f.train.y[size_t(i)]);
        const std::vector<double> l = crossEntropyRows(forward(local[size_t(k)], rowsOf(f.train.X, rows)), y);
        try {
            const Gmm1d g = fitGmm1d(l);
            for (size_t j = 0; j < rows.size(); ++j)
                if (g.posteriorLow(l[j]) <= 0.5)
                    t.weight[size_t(rows[j])] = 0;
        } catch (const std::invalid_argument&) {
            // all losses equal: keep every row
        }
    }
    return t;
}

void sieveQuality(const SieveOutcome& s, const Federation& f, std::vector<double>& precision,
                  std::vector<double>& recall) {
    precision.assign(size_t(f.clients()), kNaN);
    recall.assign(size_t(f.clients()), kNaN);
    for (int k = 0; k < f.clients(); ++k) {
        int kept = 0, clean = 0, both = 0;
        for (int i : f.members[size_t(k)]) {
            const bool c = f.train.y[size_t(i)] == f.clean[size_t(i)];
            kept += s.kept[size_t(i)];
            clean += c;
            both += c && s.kept[size_t(i)];
        }
        if (kept)
            precision[size_t(k)] = double(both) / kept;
        if (clean)
            recall[size_t(k)] = double(both) / clean;
    }
}

void densityHistogram(const std::vector<double>& x, double hi, int bins, std::vector<double>& centres,
                      std::vector<double>& density) {
    centres.assign(size_t(bins), 0.0);
    density.assign(size_t(bins), 0.0);
    const double width = hi > 0 ? hi / bins : 1.0;
    for (int b = 0; b < bins; ++b)
        centres[size_t(b)] = (b + 0.5) * width;
    for (double v : x)
        density[size_t(binOf(v, hi, bins))] += 1.0;
    for (double& d : density)
        d /= std::max<double>(1.0, double(x.size())) * width;
}

double pearson(const std::vector<double>& a, const std::vector<double>& b) {
    const size_t n = a.size();
    if (n < 2 || b.size() != n)
        return kNaN;
    double ma = 0, mb = 0;
    for (size_t i = 0; i < n; ++i) {
        ma += a[i];
        mb += b[i];
    }
    ma /= double(n);
    mb /= double(n);
    double sab = 0, saa = 0, sbb = 0;
    for (size_t i = 0; i < n; ++i) {
        sab += (a[i] - ma) * (b[i] - mb);
        saa += (a[i] - ma) * (a[i] - ma);
        sbb += (b[i] - mb) * (b[i] - mb);
    }
    return saa > 0 && sbb > 0 ? sab / std::sqrt(saa * sbb) : kNaN;
}

} // namespace pl::robusttrain
