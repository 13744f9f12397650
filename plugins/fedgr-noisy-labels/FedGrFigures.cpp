// The fedgr-noisy-labels panel: its engine and figure table (ids, kinds and titles as in
// paper.json), and the figure builders. Pure functions of the result (thread-safe).
#include "robusttrain/FedGrEngine.h"
#include "robusttrain/FedGrKeys.h"
#include "sdk/FigureHelpers.h"
#include "sdk/PanelDefinition.h"

#include <cmath>

namespace pl::fedgrfig {

using gui::FigureKind;
using gui::FigureSpec;
using gui::SeriesSpec;
namespace keys = robusttrain::fedgr::keys;

namespace {

struct MethodName {
    const char* key;
    const char* name;
};
constexpr MethodName kMethods[] = {
    {"fedavg", "FedAvg"}, {"fedprox", "FedProx"},       {"local_sieve", "local"}, {"centralised", "central"},
    {"fedgr", "FedGR"},   {"fedgr_no_sieve", "-sieve"}, {"fedgr_no_ema", "-EMA"}, {"fedgr_no_rep", "-rep"}};

double acc(const ResultDocument& d, const char* m) {
    return fig::metricOr(d, keys::metric::kTestAccPrefix + std::string(m), NAN);
}

void testAccuracy(const ResultDocument& d, FigureSpec& f) {
    f.chart.xLabel = QStringLiteral("communication round");
    f.chart.yLabel = QStringLiteral("test accuracy (clean labels)");
    int colour = 0;
    for (const auto& m : kMethods) {
        SeriesSpec s = fig::series(d, keys::series::kTestAccPrefix + std::string(m.key),
                                   QString::fromLatin1(m.name), SeriesSpec::Style::Line, colour++);
        if (std::string(m.key).rfind("fedgr_", 0) == 0) {
            s.dashed = true;
            s.lineWidth = 1.2;
        }
        if (std::string(m.key) == "fedgr")
            s.lineWidth = 3;
        f.chart.series << s;
    }
    const double warm = std::atof(fig::param(d, keys::param::kWarmupRounds).c_str());
    f.chart.markers << gui::MarkerSpec{gui::MarkerSpec::Axis::X, warm + 0.5,
                                       QStringLiteral("end of warm-up")};
    f.caption =
        QStringLiteral(
            "After the last round: FedGR %1, FedAvg %2, FedProx %3, local sieve %4, "
            "centralised %5. Dashed: FedGR ablations (-sieve, -EMA, -rep: without that module); local = "
            "local-only sieving; central = centralised training on the pooled rows.")
            .arg(acc(d, "fedgr"), 0, 'f', 3)
            .arg(acc(d, "fedavg"), 0, 'f', 3)
            .arg(acc(d, "fedprox"), 0, 'f', 3)
            .arg(acc(d, "local_sieve"), 0, 'f', 3)
            .arg(acc(d, "centralised"), 0, 'f', 3);
}

void memorisation(const ResultDocument& d, FigureSpec& f) {
    f.chart.xLabel = QStringLiteral("communication round (centralised: local-epochs epochs per round)");
    f.chart.yLabel = QStringLiteral("memorisation of noisy labels");
    f.chart.series << fig::series(d, keys::series::kMemorisationCentralised, QStringLiteral("centralised"),
                                  SeriesSpec::Style::Line, 3)
                   << fig::series(d, keys::series::kMemorisationGlobal, QStringLiteral("FedAvg global model"),
                                  SeriesSpec::Style::Line, 0)
                   << fig::series(d, keys::series::kMemorisationFedGr, QStringLiteral("FedGR global model"),
                                  SeriesSpec::Style::Line, 4);
    f.chart.markers << gui::MarkerSpec{gui::MarkerSpec::Axis::Y, 0.5, QStringLiteral("50 %")};
    const double r = fig::metricOr(d, keys::metric::kMemorisationRound, NAN);
    if (std::isfinite(r))
        f.chart.markers << gui::MarkerSpec{gui::MarkerSpec::Axis::X, r,
                                           QStringLiteral("centralised passes 50 %")};
    f.chart.fixedYRange = true;
    f.chart.yMin = 0;
    f.chart.yMax = 1;
    f.caption =
        QStringLiteral("The paper's observation: the federated global model memorises noisy labels more "
                       "slowly than centralised training on the pooled data.");
}

void noiseEstimate(const ResultDocument& d, FigureSpec& f) {
    const auto* truth = fig::findVector(d, keys::vector::kTrueNoise);
    const auto* est = fig::findVector(d, keys::vector::kNoiseEstimate);
    if (!truth || !est) {
        f.message = QStringLiteral("No noise estimates in this run.");
        return;
    }
    f.chart.xLabel = QStringLiteral("true noise rate of the client (measured)");
    f.chart.yLabel = QStringLiteral("estimated noise rate: mean(1 - p_clean)");
    SeriesSpec pts;
    pts.name = QStringLiteral("clients");
    pts.style = SeriesSpec::Style::Scatter;
    pts.colorIndex = 4;
    double hi = 0;
    for (size_t k = 0; k < truth->size() && k < est->size(); ++k) {
        pts.x << (*truth)[k];
        pts.y << (*est)[k];
        hi = std::max(
            {hi, std::isfinite((*truth)[k]) ? (*truth)[k] : 0.0, std::isfinite((*est)[k]) ? (*est)[k] : 0.0});
    }
    SeriesSpec diag;
    diag.name = QStringLiteral("estimate = truth");
    diag.x = {0.0, hi};
    diag.y = {0.0, hi};
    diag.dashed = true;
    diag.lineWidth = 1;
    diag.colorIndex = 7;
    f.chart.series << diag << pts;
    f.caption = QStringLiteral("One point per client, from FedGR's last sieve. Pearson r = %1.")
                    .arg(fig::metricOr(d, keys::metric::kNoiseCorr, NAN), 0, 'f', 3);
}

/// Log-axis display: points below \a floor are left out (drawn as gaps).
SeriesSpec aboveFloor(SeriesSpec s, double floor) {
    for (double& y : s.y)
        if (!(y >= floor))
            y = NAN;
    return s;
}

void lossHistogram(const ResultDocument& d, FigureSpec& f) {
    if (!fig::hasSeries(d, keys::series::kLossHistogram)) {
        f.message = QStringLiteral("No sieve in this run.");
        return;
    }
    f.chart.xLabel = fig::xlabel(d, keys::series::kLossHistogram);
    f.chart.yLabel = QStringLiteral("density (log scale)");
    f.chart.logY = true;
    constexpr double kFloor = 1e-3;
    SeriesSpec mix = aboveFloor(
        fig::series(d, keys::series::kGmmPdf, QStringLiteral("GMM: mixture"), SeriesSpec::Style::Line, 0),
        kFloor);
    mix.dashed = true;
    mix.lineWidth = 1.2;
    f.chart.series << aboveFloor(fig::series(d, keys::series::kLossHistogram, QStringLiteral("pooled losses"),
                                             SeriesSpec::Style::Step, 5),
                                 kFloor)
                   << mix
                   << aboveFloor(fig::series(d, keys::series::kGmmPdfClean,
                                             QStringLiteral("GMM: clean component"), SeriesSpec::Style::Line,
                                             2),
                                 kFloor)
                   << aboveFloor(fig::series(d, keys::series::kGmmPdfNoisy,
                                             QStringLiteral("GMM: noisy component"), SeriesSpec::Style::Line,
                                             1),
                                 kFloor);
    f.caption =
        QStringLiteral("Last sieve (statistics: %1). Clean component: weight %2, mean %3, var %4; noisy: "
                       "mean %5, var %6. Densities below 1e-3 are not drawn.")
            .arg(QString::fromStdString(fig::param(d, keys::param::kSieveStats)))
            .arg(fig::metricOr(d, keys::metric::kGmmWeightClean, NAN), 0, 'f', 3)
            .arg(fig::metricOr(d, keys::metric::kGmmMeanClean, NAN), 0, 'f', 3)
            .arg(fig::metricOr(d, keys::metric::kGmmVarClean, NAN), 0, 'g', 3)
            .arg(fig::metricOr(d, keys::metric::kGmmMeanNoisy, NAN), 0, 'f', 3)
            .arg(fig::metricOr(d, keys::metric::kGmmVarNoisy, NAN), 0, 'g', 3);
}

void sieveQuality(const ResultDocument& d, FigureSpec& f) {
    const auto* p = fig::findVector(d, keys::vector::kSievePrecision);
    const auto* r = fig::findVector(d, keys::vector::kSieveRecall);
    const auto* ids = fig::findVector(d, keys::vector::kClientId);
    if (!p || !r) {
        f.message = QStringLiteral("No sieve in this run.");
        return;
    }
    f.chart.xLabel = QStringLiteral("client");
    f.chart.yLabel = QStringLiteral("fraction");
    f.chart.series << fig::bars(*p, QStringLiteral("precision (kept rows that are clean)"), 4)
                   << fig::bars(*r, QStringLiteral("recall (clean rows that are kept)"), 2);
    for (size_t k = 0; k < p->size(); ++k)
        f.chart.categories << (ids && k < ids->size() ? QString::number((*ids)[k]) : QString::number(k));
    f.chart.fixedYRange = true;
    f.chart.yMin = 0;
    f.chart.yMax = 1;
    f.caption =
        QStringLiteral("Kept set = p_clean > 0.5 at FedGR's last sieve. Pooled: precision %1, recall %2.")
            .arg(fig::metricOr(d, keys::metric::kSievePrecision, NAN), 0, 'f', 3)
            .arg(fig::metricOr(d, keys::metric::kSieveRecall, NAN), 0, 'f', 3);
}

void clientClassCounts(const ResultDocument& d, FigureSpec& f) {
    f.heatmap = fig::heatmap(d, keys::matrix::kClientClassCounts);
    f.heatmap.rowTitle = QStringLiteral("client");
    f.heatmap.colTitle = QStringLiteral("observed label");
    f.heatmap.unit = QStringLiteral("training rows");
    f.caption = QStringLiteral(
                    "Dirichlet(alpha = %1) split: how many rows of each (observed) class each client holds.")
                    .arg(QString::fromStdString(fig::param(d, keys::param::kDirichletAlpha)));
}

void noiseTransition(const ResultDocument& d, FigureSpec& f) {
    f.heatmap = fig::heatmap(d, keys::matrix::kNoiseTransition);
    f.heatmap.rowTitle = QStringLiteral("clean label");
    f.heatmap.colTitle = QStringLiteral("observed label");
    f.heatmap.unit = QStringLiteral("fraction of the clean class");
    f.heatmap.fixedRange = true;
    f.heatmap.vMin = 0;
    f.heatmap.vMax = 1;
    f.caption = QStringLiteral("Noise transition over all training rows (rows sum to 1); mean flip rate %1.")
                    .arg(fig::metricOr(d, keys::metric::kMeanTrueNoise, NAN), 0, 'f', 3);
}

} // namespace

const PanelDefinition& panel() {
    static const auto def = PanelDefinition::of<robusttrain::FedGrEngine>({
        {"test_accuracy", FigureKind::Chart, "Test accuracy vs round", testAccuracy},
        {"memorisation", FigureKind::Chart, "Memorisation of noisy labels", memorisation},
        {"noise_estimate", FigureKind::Chart, "Estimated vs true client noise", noiseEstimate},
        {"loss_histogram", FigureKind::Chart, "Loss histogram and GMM", lossHistogram},
        {"sieve_quality", FigureKind::Chart, "Sieve precision and recall", sieveQuality},
        {"client_class_counts", FigureKind::Heatmap, "Client x class counts", clientClassCounts},
        {"noise_transition", FigureKind::Heatmap, "Noise transition matrix", noiseTransition},
    });
    return def;
}

} // namespace pl::fedgrfig
