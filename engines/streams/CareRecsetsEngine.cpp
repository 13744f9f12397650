#include "streams/CareRecsetsEngine.h"

#include "core/Errors.h"
#include "core/Numeric.h"
#include "core/ResultBuilders.h"
#include "streams/CareRecsetsKeys.h"
#include "streams/CareSets.h"
#include "streams/CareWorkload.h"

#include <algorithm>
#include <cmath>
#include <fstream>

namespace pl::care {

using namespace pl::streams;
namespace P = keys::param;

std::vector<ParamSpec> CareRecsetsEngine::params() const {
    return {
        ParamSpec::real(P::kAlpha, "α", 0.01, 0.5, 0.1, "target risk (expected miss rate)"),
        ParamSpec::real(P::kEta, "η", 0.001, 1, 0.05, "ACI step: λ ← clip(λ + η(L − α), 0, 1)"),
        ParamSpec::real(P::kEtaW, "η_w", 0, 100, 1, "aggregation: weights ∝ exp(−η_w · decayed size loss)"),
        ParamSpec::real(P::kGamma, "γ", 0.5, 1, 0.9, "decay of the size loss per segment (recalibration)"),
        ParamSpec::integer(P::kNCal, "n_cal", 20, 1000000, 1000,
                           "rows of the first calibration; recalibration "
                           "window cap",
                           "rows"),
        ParamSpec::real(P::kKappa, "κ", 0, 1, 0.05, "CUSUM allowance above α"),
        ParamSpec::real(P::kH, "h", 0.1, 1000, 15, "CUSUM alarm threshold"),
        ParamSpec::integer(P::kNMin, "n_min", 10, 100000, 200,
                           "rows the monitor pauses after an alarm before it "
                           "recalibrates on the post-change rows",
                           "rows"),
        ParamSpec::integer(P::kMaxSize, "max set size", 1, 10000, 50,
                           "sets keep at most this many best items", "items"),
        ParamSpec::choice(
            P::kAggregation, "aggregation", {"random", "vote", "union"}, "random",
            "random: one constituent per row drawn by weight; vote: items with weight ≥ 1/2; union"),
        ParamSpec::choice(
            P::kLoss, "loss", {"miss", "recall"}, "miss",
            "miss: 1 if the true item is no candidate of the set; recall: the miss weighted by the "
            "file's loss column"),
        ParamSpec::integer(P::kLength, "stand-in length", 2000, 2000000, 50000,
                           "interactions of the stand-in", "rows"),
        ParamSpec::integer(P::kChangePoints, "change points", 0, 10, 2, "abrupt drifts of the stand-in"),
        ParamSpec::real(P::kDrift, "drift", 0, 1, 0.6, "rotation of the drifting users' factors (× π/3)"),
        ParamSpec::integer(P::kWindow, "risk window", 50, 100000, 1000, "rows of the running-risk window",
                           "rows"),
    };
}

std::shared_ptr<const LoadedInput> CareRecsetsEngine::load(const std::string& path) const {
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw InputError(path, "cannot open the file");
    auto out = std::make_shared<CareFileInput>();
    out->stream = readRecStream(in, path);
    out->path = path;
    out->kind = "care-csv";
    out->summary = std::to_string(out->stream.rows.size()) + " interactions, " +
                   std::to_string(out->stream.missingTrue) + " with the true item outside the candidates";
    return out;
}

namespace {

CareParams paramsOf(const ParamSet& p) {
    CareParams c;
    c.alpha = p.getDouble(P::kAlpha);
    c.eta = p.getDouble(P::kEta);
    c.etaW = p.getDouble(P::kEtaW);
    c.gamma = p.getDouble(P::kGamma);
    c.nCal = p.getInt(P::kNCal);
    c.kappa = p.getDouble(P::kKappa);
    c.h = p.getDouble(P::kH);
    c.nMin = p.getInt(P::kNMin);
    c.maxSize = int(p.getInt(P::kMaxSize));
    c.aggregation = p.getString(P::kAggregation);
    c.weighted = p.getString(P::kLoss) == "recall";
    return c;
}

template <class T> double mean(const std::vector<T>& v) {
    double s = 0;
    for (T x : v)
        s += double(x);
    return v.empty() ? kNaN : s / double(v.size());
}

/// Windowed mean of \a v (row t ↦ x = n0 + t), sampled every \a stride rows and at the end.
template <class T>
Series windowed(const std::vector<T>& v, size_t n0, int64_t window, size_t stride,
                const std::string& ylabel) {
    Series s = emptySeries("interaction (row)", ylabel);
    double sum = 0;
    for (size_t t = 0; t < v.size(); ++t) {
        sum += double(v[t]);
        if (t >= size_t(window))
            sum -= double(v[t - size_t(window)]);
        if (t % stride == 0 || t + 1 == v.size())
            addPoint(s, double(n0 + t), sum / double(std::min<size_t>(t + 1, size_t(window))));
    }
    return s;
}

Series sampled(const std::vector<double>& v, size_t n0, size_t stride, const std::string& ylabel) {
    Series s = emptySeries("interaction (row)", ylabel);
    for (size_t t = 0; t < v.size(); ++t)
        if (t % stride == 0 || t + 1 == v.size())
            addPoint(s, double(n0 + t), v[t]);
    return s;
}

/// Mean delay of the first alarm in each [cᵢ, cᵢ₊₁) (undetected: the whole segment) and the number of
/// other alarms.
std::pair<double, double> detection(const std::vector<int64_t>& alarms, const std::vector<int64_t>& cps,
                                    int64_t N) {
    if (cps.empty())
        return {kNaN, double(alarms.size())};
    double delay = 0;
    int64_t detected = 0;
    for (size_t i = 0; i < cps.size(); ++i) {
        const int64_t end = i + 1 < cps.size() ? cps[i + 1] : N;
        const auto it = std::lower_bound(alarms.begin(), alarms.end(), cps[i]);
        if (it != alarms.end() && *it < end) {
            delay += double(*it - cps[i]);
            ++detected;
        } else {
            delay += double(end - cps[i]);
        }
    }
    return {delay / double(cps.size()), double(int64_t(alarms.size()) - detected)};
}

struct Streams {
    std::vector<const RecStream*> models;
    std::vector<int64_t> changeRows;
    CareStandIn standIn; // owns generated streams
    bool generated = false;
};

Streams gather(const InputList& inputs, const ParamSet& p, int64_t nCal, uint64_t seed) {
    Streams s;
    if (inputs.empty()) {
        CareWorld w;
        w.length = p.getInt(P::kLength);
        w.changePoints = int(p.getInt(P::kChangePoints));
        w.drift = p.getDouble(P::kDrift);
        w.calibration = std::min(nCal, w.length / 2);
        s.standIn = generateCareStandIn(w, Rng(seed).fork("stand-in"));
        for (const RecStream& m : s.standIn.models)
            s.models.push_back(&m);
        s.changeRows = s.standIn.changeRows;
        s.generated = true;
        return s;
    }
    for (const auto& in : inputs) {
        const auto* f = dynamic_cast<const CareFileInput*>(in.get());
        if (!f)
            throw InputError(in->path, "not a CARE stream loaded by this engine");
        s.models.push_back(&f->stream);
    }
    const RecStream& a = *s.models[0];
    for (size_t m = 1; m < s.models.size(); ++m) {
        const RecStream& b = *s.models[m];
        const std::string& path = inputs[m]->path;
        for (size_t t = 0; t < std::min(a.rows.size(), b.rows.size()); ++t)
            if (a.rows[t].user != b.rows[t].user || a.rows[t].step != b.rows[t].step ||
                a.rows[t].trueItem != b.rows[t].trueItem)
                throw InputError(path,
                                 "row " + std::to_string(t + 1) + " disagrees with " + inputs[0]->path +
                                     " (user, step or true item)",
                                 b.rows[t].line);
        if (a.rows.size() != b.rows.size())
            throw InputError(path, std::to_string(b.rows.size()) + " rows, but " + inputs[0]->path + " has " +
                                       std::to_string(a.rows.size()));
    }
    return s;
}

void writeMethod(ResultDocument& d, const std::string& m, const std::vector<double>& loss,
                 const std::vector<int>& size, size_t n0, int64_t window, size_t stride) {
    using namespace keys;
    d.metrics[key(metric::kRiskPrefix, m)] = mean(loss);
    d.metrics[key(metric::kSizePrefix, m)] = mean(size);
    d.series[key(series::kRiskPrefix, m)] = windowed(loss, n0, window, stride, "risk (window mean loss)");
    d.series[key(series::kSizePrefix, m)] = windowed(size, n0, window, stride, "set size (window mean)");
}

void addClaims(ResultDocument& d, const CareParams& c, const Streams& s, const ParamSet& p, size_t rows) {
    using namespace keys;
    auto M = [&](const char* prefix, const char* m) { return d.metrics.at(key(prefix, m)); };
    const double care = M(metric::kRiskPrefix, "care"), stat = M(metric::kRiskPrefix, "static");
    d.claims.push_back(claimOf(
        claim::kCareRisk, "CARE's long-run risk stays at most α + 0.01.", care <= c.alpha + 0.01, care,
        c.alpha + 0.01, "mean miss loss of the first constituent's CARE sets after the first n_cal rows"));
    const bool drifted = s.generated && p.getDouble(P::kDrift) >= 0.5 && !s.changeRows.empty();
    if (drifted)
        d.claims.push_back(
            claimOf(claim::kStaticViolates,
                    "After a drift of magnitude ≥ 0.5, static CRC violates the target: risk ≥ α + 0.05.",
                    stat >= c.alpha + 0.05, stat, c.alpha + 0.05,
                    "mean miss loss of the once-calibrated λ after the first n_cal rows"));
    if (!s.changeRows.empty()) {
        const double delay = d.metrics.at(metric::kDetectionDelay);
        d.claims.push_back(claimOf(
            claim::kDetectionDelay, "CARE's monitor detects each abrupt change within 500 rows.", delay < 500,
            delay, 500, "mean rows from each true change to the first alarm in its segment"));
    }
    if (s.generated) {
        const double per = d.metrics.at(metric::kFalseAlarms) * 50000.0 / double(rows);
        d.claims.push_back(
            claimOf(claim::kFalseAlarms, "At most 1 false alarm per 50,000 rows.", per <= 1, per, 1,
                    "alarms other than the first in each drift segment, per 50,000 monitored rows"));
    }
    if (s.models.size() >= 2) {
        const auto& sizes = d.vectors.at(vector::kSizeByModel);
        const double best = *std::min_element(sizes.begin(), sizes.end());
        const double agg = M(metric::kSizePrefix, "aggregate"), uni = M(metric::kSizePrefix, "union");
        d.claims.push_back(claimOf(claim::kAggregateSize,
                                   "The aggregated predictor's mean set size is at most 1.1 × the best "
                                   "constituent's, and below the union's.",
                                   agg <= 1.1 * best && agg < uni, agg, 1.1 * best,
                                   "mean sizes: best constituent " + formatSignificant(best) + ", union " +
                                       formatSignificant(uni) + "; aggregate risk " +
                                       formatSignificant(M(metric::kRiskPrefix, "aggregate"))));
    }
}

} // namespace

ResultDocument CareRecsetsEngine::run(const InputList& inputs, const ParamSet& p, RunContext& ctx) const {
    using namespace keys;
    const CareParams c = paramsOf(p);
    ctx.progress(0.0, inputs.empty() ? "generating the stand-in" : "checking the files");
    const Streams s = gather(inputs, p, c.nCal, ctx.seed());
    ctx.throwIfCancelled();
    std::vector<ModelRun> runs;
    for (size_t m = 0; m < s.models.size(); ++m) {
        ctx.progress(0.2 + 0.6 * double(m) / double(s.models.size()),
                     "calibrating constituent " + std::to_string(m));
        runs.push_back(runMethods(*s.models[m], c, ctx));
    }
    ctx.progress(0.8, "aggregating");
    const AggregateRun agg = aggregate(s.models, runs, c, Rng(ctx.seed()).fork("aggregate"), ctx);
    ResultDocument d;
    const size_t n0 = size_t(c.nCal), rows = runs[0].lossCare.size();
    const size_t stride = std::max<size_t>(1, rows / 500);
    const int64_t window = p.getInt(P::kWindow);
    const ModelRun& r0 = runs[0];
    writeMethod(d, "static", r0.lossStatic, r0.sizeStatic, n0, window, stride);
    writeMethod(d, "aci", r0.lossAci, r0.sizeAci, n0, window, stride);
    writeMethod(d, "care", r0.lossCare, r0.sizeCare, n0, window, stride);
    writeMethod(d, "aggregate", agg.lossAggregate, agg.sizeAggregate, n0, window, stride);
    writeMethod(d, "union", agg.lossUnion, agg.sizeUnion, n0, window, stride);
    d.metrics[metric::kLambdaStatic] = r0.lambdaStatic;
    d.series[key(series::kLambdaPrefix, "static")] =
        sampled(std::vector<double>(rows, r0.lambdaStatic), n0, stride, "λ (served)");
    d.series[key(series::kLambdaPrefix, "aci")] = sampled(r0.lambdaAci, n0, stride, "λ (served)");
    d.series[key(series::kLambdaPrefix, "care")] = sampled(r0.lambdaCare, n0, stride, "λ (served)");
    for (size_t m = 0; m < runs.size(); ++m) {
        d.series[series::kWeightPrefix + std::to_string(m)] = sampled(agg.weights[m], n0, stride, "weight");
        d.vectors[vector::kRiskByModel].push_back(mean(runs[m].lossCare));
        d.vectors[vector::kSizeByModel].push_back(mean(runs[m].sizeCare));
    }
    d.vectors[vector::kAlarms].assign(r0.alarms.begin(), r0.alarms.end());
    d.vectors[vector::kChangeEstimates].assign(r0.changes.begin(), r0.changes.end());
    d.vectors[vector::kChangePoints].assign(s.changeRows.begin(), s.changeRows.end());
    const auto [delay, falseAlarms] = detection(r0.alarms, s.changeRows, int64_t(s.models[0]->rows.size()));
    d.metrics[metric::kDetectionDelay] = delay;
    d.metrics[metric::kFalseAlarms] = s.generated ? falseAlarms : kNaN;
    d.metrics[metric::kRows] = double(s.models[0]->rows.size());
    d.metrics[metric::kConstituents] = double(s.models.size());
    d.metrics[metric::kMissingTrue] = double(s.models[0]->missingTrue);
    if (s.generated)
        for (size_t m = 0; m < s.standIn.names.size(); ++m)
            d.notes.push_back("constituent " + std::to_string(m) + ": " + s.standIn.names[m]);
    addClaims(d, c, s, p, rows);
    ctx.progress(1.0, "done");
    return d;
}

} // namespace pl::care
