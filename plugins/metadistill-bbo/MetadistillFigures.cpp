// The metadistill-bbo panel: its engine and figure table (ids, kinds and titles as in paper.json), and
// the figure builders. Pure functions of the result (thread-safe).
#include "sdk/FigureHelpers.h"
#include "sdk/PanelDefinition.h"
#include "search/MetadistillEngine.h"
#include "search/MetadistillKeys.h"

#include <string>

namespace pl::metadistillfig {

using gui::FigureKind;
using gui::FigureSpec;
using gui::SeriesSpec;
namespace keys = search::metadistill::keys;

namespace {

const char* kNames[] = {"distilled LES", "from scratch", "random search", "CMA-ES (teacher)",
                        "distilled + SSFT"};

std::string mk(const char* prefix, int m) {
    return std::string(prefix) + keys::kMethods[m];
}

QString functionName(const ResultDocument& d) {
    return QString::fromStdString(fig::param(d, keys::param::kFunction));
}

void convergence(const ResultDocument& d, FigureSpec& f) {
    for (int m = 0; m < 4; ++m)
        if (fig::hasSeries(d, mk(keys::series::kConvergencePrefix, m)))
            f.chart.series << fig::series(d, mk(keys::series::kConvergencePrefix, m),
                                          QString::fromLatin1(kNames[m]), SeriesSpec::Style::Line, m);
    f.chart.logY = true;
    f.chart.xLabel = QStringLiteral("function evaluations");
    f.chart.yLabel = QStringLiteral("best f - f_opt so far (median over repeats, log)");
    f.chart.markers << gui::MarkerSpec{gui::MarkerSpec::Axis::Y,
                                       std::atof(fig::param(d, keys::param::kTarget).c_str()),
                                       QStringLiteral("target")};
    f.caption = QStringLiteral("BBOB %1 in %2-D, every method from the same uniform start in [-4, 4]^d "
                               "with sigma0 = 2. CMA-ES best f %3 (evaluations to target: %4).")
                    .arg(functionName(d), QString::fromStdString(fig::param(d, keys::param::kDim)))
                    .arg(fig::metric(d, keys::metric::kCmaesBestF), 0, 'g', 3)
                    .arg(fig::metric(d, keys::metric::kCmaesEvalsToTarget), 0, 'f', 0);
}

void clouds(const ResultDocument& d, FigureSpec& f) {
    // The contour dots carry no legend entry (empty name); teacher and student get their own colours.
    f.chart.series << fig::series(d, keys::series::kContour, QString(), SeriesSpec::Style::Scatter, 5);
    const std::vector<double>* gens = fig::vector(d, keys::vector::kCloudGenerations);
    const int teacherColour[] = {0, 1, 2}, studentColour[] = {3, 4, 6};
    for (int i = 0; i < keys::kCloudCount; ++i) {
        const QString g = QString::number(gens && size_t(i) < gens->size() ? (*gens)[size_t(i)] : i);
        const std::string tk = keys::series::kCloudTeacherPrefix + std::to_string(i);
        const std::string sk = keys::series::kCloudStudentPrefix + std::to_string(i);
        if (fig::hasSeries(d, tk))
            f.chart.series << fig::series(d, tk, QStringLiteral("CMA-ES g%1").arg(g),
                                          SeriesSpec::Style::Scatter, teacherColour[i]);
        if (fig::hasSeries(d, sk))
            f.chart.series << fig::series(d, sk, QStringLiteral("LES g%1").arg(g), SeriesSpec::Style::Scatter,
                                          studentColour[i]);
    }
    f.chart.xLabel = QStringLiteral("x1");
    f.chart.yLabel = QStringLiteral("x2");
    f.chart.fixedXRange = f.chart.fixedYRange = true;
    f.chart.xMin = f.chart.yMin = -5;
    f.chart.xMax = f.chart.yMax = 5;
    const std::vector<double>* xo = fig::vector(d, keys::vector::kXOpt);
    f.caption =
        QStringLiteral("%1: light-blue dots trace six levels of log10 f on the 2-D slice through x_opt = "
                       "(%2, %3, ...); the populations of CMA-ES and of the distilled student (LES) in "
                       "the first repeat at three generations, projected on (x1, x2) when d > 2.")
            .arg(functionName(d))
            .arg(xo && xo->size() > 1 ? (*xo)[0] : 0.0, 0, 'f', 2)
            .arg(xo && xo->size() > 1 ? (*xo)[1] : 0.0, 0, 'f', 2);
}

void ecdf(const ResultDocument& d, FigureSpec& f) {
    int shown = 0;
    for (int m = 0; m < keys::kMethodCount; ++m)
        if (fig::hasSeries(d, mk(keys::series::kEcdfPrefix, m))) {
            f.chart.series << fig::series(d, mk(keys::series::kEcdfPrefix, m), QString::fromLatin1(kNames[m]),
                                          SeriesSpec::Style::Step, m);
            ++shown;
        }
    f.chart.logX = true;
    f.chart.fixedYRange = true;
    f.chart.yMin = 0;
    f.chart.yMax = 1;
    f.chart.xLabel = QStringLiteral("function evaluations (log)");
    f.chart.yLabel = QStringLiteral("share of (function, run, target) reached");
    f.caption = shown
                    ? QStringLiteral("BBOB-style ECDF over the held-out functions, their runs and 51 targets "
                                     "10^2 .. 10^-8.")
                    : QStringLiteral("stage = teacher: no held-out evaluation.");
}

void losses(const ResultDocument& d, FigureSpec& f) {
    if (fig::hasSeries(d, keys::series::kLossKl)) {
        f.chart.series << fig::series(d, keys::series::kLossKl, QStringLiteral("KL term log(1 + KL/d)"),
                                      SeriesSpec::Style::LineWithPoints, 0);
        f.chart.series << fig::series(d, keys::series::kLossFit, QStringLiteral("fitness term"),
                                      SeriesSpec::Style::LineWithPoints, 1);
        SeriesSpec div = fig::series(d, keys::series::kLossDiv, QStringLiteral("diversity term / 10"),
                                     SeriesSpec::Style::LineWithPoints, 2);
        for (double& y : div.y)
            y /= 10.0;
        f.chart.series << div;
    }
    f.chart.xLabel = QStringLiteral("distillation epoch");
    f.chart.yLabel = QStringLiteral("mean loss term (unweighted)");
    f.caption =
        QStringLiteral("Teacher-forced distillation: the KL term pulls the student's next distribution "
                       "to the teacher's; the fitness and diversity weights ramp up over the first half.");
}

void weights(const ResultDocument& d, FigureSpec& f) {
    if (fig::hasSeries(d, keys::series::kWeights))
        f.chart.series << fig::series(d, keys::series::kWeights, QStringLiteral("distilled w(rank)"),
                                      SeriesSpec::Style::LineWithPoints, 0);
    if (fig::hasSeries(d, keys::series::kWeightsCmaes)) {
        SeriesSpec c = fig::series(d, keys::series::kWeightsCmaes, QStringLiteral("CMA-ES weights"),
                                   SeriesSpec::Style::Line, 3);
        c.dashed = true;
        f.chart.series << c;
    }
    f.chart.xLabel = QStringLiteral("fitness rank (1 = best)");
    f.chart.yLabel = QStringLiteral("recombination weight w");
    f.caption = QStringLiteral("The learned recombination weights for a population whose fitness equals its "
                               "rank, against CMA-ES's log-decreasing weights on the better half (dashed).");
}

} // namespace

const PanelDefinition& panel() {
    static const auto def = PanelDefinition::of<search::metadistill::MetadistillEngine>({
        {"convergence", FigureKind::Chart, "Convergence (log y)", convergence},
        {"clouds", FigureKind::Chart, "Population clouds on the contour", clouds},
        {"ecdf", FigureKind::Chart, "ECDF of targets reached", ecdf},
        {"losses", FigureKind::Chart, "Distillation losses", losses},
        {"weights", FigureKind::Chart, "Learned weights w(rank)", weights},
    });
    return def;
}

} // namespace pl::metadistillfig
