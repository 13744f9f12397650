// The care-recsets panel: its engine and figure table (ids, kinds and titles exactly as in
// paper.json) and one builder per figure. Builders read the result only through pl::fig lookups
// with the engine's key constants.
#include "sdk/FigureHelpers.h"
#include "sdk/PanelDefinition.h"
#include "streams/CareRecsetsEngine.h"
#include "streams/CareRecsetsKeys.h"

#include <cmath>
#include <string>

namespace pl::carefig {

using gui::FigureKind;
using gui::FigureSpec;
using gui::SeriesSpec;
namespace K = care::keys;

namespace {

const char* const kNames[] = {"static CRC", "ACI", "CARE", "aggregate", "union"};

/// True change points and detected alarms as vertical markers.
void changeMarkers(const ResultDocument& d, FigureSpec& f) {
    if (const auto* cps = fig::findVector(d, K::vector::kChangePoints))
        for (double c : *cps)
            f.chart.markers << gui::MarkerSpec{gui::MarkerSpec::Axis::X, c, QStringLiteral("change")};
    if (const auto* al = fig::findVector(d, K::vector::kAlarms))
        for (double a : *al)
            f.chart.markers << gui::MarkerSpec{gui::MarkerSpec::Axis::X, a, QStringLiteral("alarm")};
}

void perMethod(const ResultDocument& d, FigureSpec& f, const char* prefix) {
    int i = 0;
    for (const char* m : K::kMethods) {
        f.chart.series << fig::series(d, K::key(prefix, m), QString::fromLatin1(kNames[i]),
                                      SeriesSpec::Style::Line, i);
        ++i;
    }
}

QString metricText(const ResultDocument& d, const char* prefix, int digits) {
    QString s;
    int i = 0;
    for (const char* m : K::kMethods) {
        s += QStringLiteral("%1%2 %3")
                 .arg(i ? QStringLiteral(", ") : QString(), QString::fromLatin1(kNames[i]))
                 .arg(fig::metric(d, K::key(prefix, m)), 0, 'f', digits);
        ++i;
    }
    return s;
}

void runningRisk(const ResultDocument& d, FigureSpec& f) {
    f.chart.xLabel = QStringLiteral("interaction (row)");
    f.chart.yLabel = QStringLiteral("risk (window mean miss loss)");
    perMethod(d, f, K::series::kRiskPrefix);
    const double alpha = std::stod(fig::param(d, K::param::kAlpha));
    f.chart.markers << gui::MarkerSpec{gui::MarkerSpec::Axis::Y, alpha, QStringLiteral("α")};
    changeMarkers(d, f);
    f.caption = QStringLiteral("Window of %1 rows; lines mark true changes and CARE alarms. Mean risk after "
                               "the first n_cal rows: %2. "
                               "Detection delay %3 rows.")
                    .arg(QString::fromStdString(fig::param(d, K::param::kWindow)),
                         metricText(d, K::metric::kRiskPrefix, 3))
                    .arg(fig::metric(d, K::metric::kDetectionDelay), 0, 'f', 0);
}

void setSize(const ResultDocument& d, FigureSpec& f) {
    f.chart.xLabel = QStringLiteral("interaction (row)");
    f.chart.yLabel = QStringLiteral("set size (items, window mean)");
    perMethod(d, f, K::series::kSizePrefix);
    changeMarkers(d, f);
    f.caption = QStringLiteral("Mean size after the first n_cal rows: %1.")
                    .arg(metricText(d, K::metric::kSizePrefix, 1));
}

void lambda(const ResultDocument& d, FigureSpec& f) {
    f.chart.xLabel = QStringLiteral("interaction (row)");
    f.chart.yLabel = QStringLiteral("λ served (set = items with 1 − ŝ ≤ λ)");
    int i = 0;
    for (const char* m : K::kLambdaMethods) {
        f.chart.series << fig::series(d, K::key(K::series::kLambdaPrefix, m), QString::fromLatin1(kNames[i]),
                                      SeriesSpec::Style::Line, i);
        ++i;
    }
    changeMarkers(d, f);
    f.caption =
        QStringLiteral(
            "Static CRC's λ̂ = %1 from the first n_cal rows; ACI moves λ by η(L − α) each row; CARE also "
            "jumps to a fresh CRC value after each alarm.")
            .arg(fig::metric(d, K::metric::kLambdaStatic), 0, 'f', 3);
}

void weights(const ResultDocument& d, FigureSpec& f) {
    f.chart.xLabel = QStringLiteral("interaction (row)");
    f.chart.yLabel = QStringLiteral("aggregation weight");
    f.chart.fixedYRange = true;
    f.chart.yMin = 0;
    f.chart.yMax = 1;
    const int M = int(fig::metric(d, K::metric::kConstituents));
    const auto* sizes = fig::vector(d, K::vector::kSizeByModel);
    const auto* risks = fig::vector(d, K::vector::kRiskByModel);
    for (int m = 0; m < M; ++m) {
        QString name = QStringLiteral("#%1").arg(m + 1);
        if (sizes && risks && size_t(m) < sizes->size() && size_t(m) < risks->size())
            name += QStringLiteral(": size %1, risk %2")
                        .arg((*sizes)[size_t(m)], 0, 'f', 1)
                        .arg((*risks)[size_t(m)], 0, 'f', 3);
        f.chart.series << fig::series(d, K::series::kWeightPrefix + std::to_string(m), name,
                                      SeriesSpec::Style::Line, m);
    }
    changeMarkers(d, f);
    f.caption =
        QStringLiteral(
            "w_m ∝ exp(−η_w Σ_s γ^(seg(t)−seg(s)) |C_m,s| / max_size), updated every row; a segment ends at "
            "each recalibration of any constituent. Aggregate size %1 vs union %2.")
            .arg(fig::metric(d, K::key(K::metric::kSizePrefix, "aggregate")), 0, 'f', 1)
            .arg(fig::metric(d, K::key(K::metric::kSizePrefix, "union")), 0, 'f', 1);
}

} // namespace

const PanelDefinition& panel() {
    static const auto def = PanelDefinition::of<care::CareRecsetsEngine>({
        {"running_risk", FigureKind::Chart, "Running risk per method", runningRisk},
        {"set_size", FigureKind::Chart, "Set size per method", setSize},
        {"lambda", FigureKind::Chart, "Threshold λ per method", lambda},
        {"weights", FigureKind::Chart, "Aggregation weights of the constituents", weights},
    });
    return def;
}

} // namespace pl::carefig
