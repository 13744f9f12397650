// The visual-persuasion panel: its engine and figure table (ids, kinds and titles as in
// paper.json), and the figure builders. Pure functions of the result (thread-safe).
#include "convimg/PersuasionEngine.h"
#include "convimg/PersuasionKeys.h"
#include "sdk/FigureHelpers.h"
#include "sdk/PanelDefinition.h"

namespace pl::persuasionfig {

using gui::FigureKind;
using gui::FigureSpec;
using gui::SeriesSpec;
namespace keys = convimg::persuasion::keys;

namespace {

QString num(const ResultDocument& d, const char* key, int digits = 3) {
    return QString::number(fig::metric(d, key), 'g', digits);
}

/// The optimised edit chain as chips: [group: option] [group: option] ...
QString chips(const ResultDocument& d) {
    const Matrix* e = fig::findMatrix(d, keys::matrix::kEdits);
    const std::vector<double>* on = fig::findVector(d, keys::vector::kOptimisedEdits);
    QStringList out;
    for (size_t i = 0; e && on && i < on->size() && i < e->rowLabels.size(); ++i)
        if ((*on)[i] > 0.5)
            out << QStringLiteral("[%1]").arg(QString::fromStdString(e->rowLabels[i]));
    return out.isEmpty() ? QStringLiteral("(none: the original was kept)") : out.join(QLatin1Char(' '));
}

/// One-letter edit codes A, B, ... (the full names do not fit under 27 bars) and their legend.
QStringList editLabels(const ResultDocument& d, QString* legend = nullptr) {
    QStringList out, parts;
    if (const Matrix* e = fig::findMatrix(d, keys::matrix::kEdits))
        for (size_t i = 0; i < e->rowLabels.size(); ++i) {
            const QChar code = i < 26 ? QChar(char16_t(u'A' + i)) : QChar(char16_t(u'a' + (i - 26)));
            out << QString(code);
            parts << QStringLiteral("%1 %2").arg(code).arg(QString::fromStdString(e->rowLabels[i]));
        }
    if (legend)
        *legend = parts.join(QStringLiteral(", "));
    return out;
}

void images(const ResultDocument& d, FigureSpec& f) {
    f.heatmap = fig::heatmap(d, keys::matrix::kImages);
    f.heatmap.colormap = QStringLiteral("gray");
    f.heatmap.fixedRange = true;
    f.heatmap.vMin = 0;
    f.heatmap.vMax = 1;
    f.heatmap.unit = QStringLiteral("luminance (0-1)");
    f.heatmap.rowTitle = QStringLiteral("original (top) | optimised (bottom), pixel row");
    f.heatmap.colTitle = QStringLiteral("products 1-3 (pixel column)");
    f.caption =
        QStringLiteral("Top: the originals; bottom: the same products with the optimised edits %1. "
                       "Rendered by the procedural stand-in (the products' shapes and colours are fixed).")
            .arg(chips(d));
}

void winRate(const ResultDocument& d, FigureSpec& f) {
    f.chart.xLabel = QStringLiteral("optimiser iteration");
    f.chart.yLabel = QStringLiteral("incumbent's win rate vs the original");
    f.chart.series << fig::series(d, keys::series::kWinRateVsIteration, QStringLiteral("win rate"),
                                  SeriesSpec::Style::LineWithPoints, 0);
    for (const char* k : {keys::series::kWinRateLower, keys::series::kWinRateUpper}) {
        SeriesSpec s =
            fig::series(d, k, QStringLiteral("Wilson 95% band (lower)"), SeriesSpec::Style::Line, 0);
        s.dashed = true;
        s.lineWidth = 1.0;
        if (k == keys::series::kWinRateUpper)
            s.name = QStringLiteral("Wilson 95% band (upper)");
        f.chart.series << s;
    }
    f.chart.markers << gui::MarkerSpec{gui::MarkerSpec::Axis::Y, 0.7, QStringLiteral("claim: 0.7")};
    f.chart.markers << gui::MarkerSpec{gui::MarkerSpec::Axis::Y, 0.5, QStringLiteral("chance")};
    f.chart.fixedYRange = true;
    f.chart.yMin = 0;
    f.chart.yMax = 1;
    f.caption =
        QStringLiteral("40 monitor duels per iteration (outside the budget). Final, on %1 fresh duels: "
                       "%2 (Wilson lower %3), %4 search queries used.")
            .arg(num(d, keys::metric::kDuels))
            .arg(num(d, keys::metric::kWinRate))
            .arg(num(d, keys::metric::kWinRateLcb))
            .arg(num(d, keys::metric::kQueriesUsed, 6));
}

void btCoef(const ResultDocument& d, FigureSpec& f) {
    QString legend;
    f.chart.categories = editLabels(d, &legend);
    f.chart.series << fig::bars(*fig::vector(d, keys::vector::kBtCoef), QStringLiteral("BT coefficient"), 0);
    f.chart.series << fig::bars(*fig::vector(d, keys::vector::kTrueCoef),
                                QStringLiteral("planted effect / tau"), 1);
    SeriesSpec lo = fig::bars(*fig::vector(d, keys::vector::kBtCoefLo), QStringLiteral("bootstrap 2.5%"), 2);
    SeriesSpec hi = fig::bars(*fig::vector(d, keys::vector::kBtCoefHi), QStringLiteral("bootstrap 97.5%"), 2);
    lo.style = hi.style = SeriesSpec::Style::Scatter;
    f.chart.series << lo << hi;
    f.chart.xLabel = QStringLiteral("edit (letter code, see caption)");
    f.chart.yLabel = QStringLiteral("utility effect (logit units)");
    f.caption =
        QStringLiteral(
            "Bradley-Terry on edit indicators, fitted on the search's duels (bt_l2 = %1), with "
            "bootstrap 95% intervals, against the planted effect of each edit alone. Spearman %2. Edits: %3.")
            .arg(QString::fromStdString(fig::param(d, keys::param::kBtL2)))
            .arg(num(d, keys::metric::kSpearman))
            .arg(legend);
}

void coefScatter(const ResultDocument& d, FigureSpec& f) {
    SeriesSpec s;
    s.name = QStringLiteral("edits");
    s.style = SeriesSpec::Style::Scatter;
    const auto& t = *fig::vector(d, keys::vector::kTrueCoef);
    const auto& b = *fig::vector(d, keys::vector::kBtCoef);
    for (size_t i = 0; i < t.size(); ++i) {
        s.x << t[i];
        s.y << b[i];
    }
    f.chart.series << s;
    f.chart.xLabel = QStringLiteral("planted effect of the edit alone / tau (logit units)");
    f.chart.yLabel = QStringLiteral("BT coefficient (logit units)");
    f.caption = QStringLiteral("One point per edit. Spearman (mid-ranks) %1; claim: >= 0.8.")
                    .arg(num(d, keys::metric::kSpearman));
}

void pairwise(const ResultDocument& d, FigureSpec& f) {
    f.heatmap = fig::heatmap(d, keys::matrix::kPairwise);
    f.heatmap.fixedRange = true;
    f.heatmap.vMin = 0;
    f.heatmap.vMax = 1;
    f.heatmap.colormap = QStringLiteral("diverging");
    f.heatmap.annotateCells = true;
    f.heatmap.unit = QStringLiteral("row's win rate vs column");
    f.heatmap.rowTitle = QStringLiteral("variant");
    f.heatmap.colTitle = QStringLiteral("opponent");
    QStringList defs;
    for (const auto& n : d.notes)
        if (n.size() > 1 && n[0] == 'V' && n.find(" = ") != std::string::npos)
            defs << QString::fromStdString(n);
    f.caption =
        QStringLiteral("40 fresh duels per pair (both orders). %1").arg(defs.join(QStringLiteral("; ")));
}

void positionBias(const ResultDocument& d, FigureSpec& f) {
    f.chart.categories = {QStringLiteral("challenger 1st"), QStringLiteral("challenger 2nd"),
                          QStringLiteral("first shown")};
    f.chart.series << fig::bars({fig::metric(d, keys::metric::kChallengerFirstWinRate),
                                 fig::metric(d, keys::metric::kChallengerSecondWinRate),
                                 fig::metric(d, keys::metric::kFirstShownWinRate)},
                                QStringLiteral("win rate in the search's duels"), 0);
    f.chart.markers << gui::MarkerSpec{gui::MarkerSpec::Axis::Y, 0.5, QStringLiteral("no bias")};
    f.chart.fixedYRange = true;
    f.chart.yMin = 0;
    f.chart.yMax = 1;
    f.chart.xLabel = QStringLiteral("order");
    f.chart.yLabel = QStringLiteral("win rate");
    f.caption = QStringLiteral(
                    "Win rate of the challenger when shown first / second, and of whichever image was shown "
                    "first. Every pair is asked in both orders. BT position term on the search log: %1 "
                    "(planted b_pos / tau = %2 / %3).")
                    .arg(num(d, keys::metric::kSearchPositionBias))
                    .arg(QString::fromStdString(fig::param(d, keys::param::kBPos)))
                    .arg(QString::fromStdString(fig::param(d, keys::param::kTau)));
    if (fig::hasMetric(d, keys::metric::kPositionBias))
        f.caption +=
            QStringLiteral(" Choice log: position term %1.").arg(num(d, keys::metric::kPositionBias));
}

void normalisation(const ResultDocument& d, FigureSpec& f) {
    f.chart.categories = {QStringLiteral("raw images"), QStringLiteral("normalised images")};
    f.chart.series << fig::bars(
        {fig::metric(d, keys::metric::kWinRate), fig::metric(d, keys::metric::kWinRateNormalised)},
        QStringLiteral("win rate of the optimised image"), 0);
    f.chart.series << fig::bars(
        {fig::metric(d, keys::metric::kWinRateLcb), fig::metric(d, keys::metric::kWinRateNormalisedLcb)},
        QStringLiteral("Wilson 95% lower bound"), 1);
    f.chart.markers << gui::MarkerSpec{gui::MarkerSpec::Axis::Y, 0.5, QStringLiteral("chance")};
    f.chart.fixedYRange = true;
    f.chart.yMin = 0;
    f.chart.yMax = 1;
    f.chart.xLabel = QStringLiteral("what the agent sees");
    f.chart.yLabel = QStringLiteral("win rate vs the original");
    f.caption =
        QStringLiteral("Mitigation: background made uniform, object recentred, luminance standardised "
                       "before the agent sees either image. Excess win rate removed: %1 (claim: >= 0.5).")
            .arg(num(d, keys::metric::kExcessRemoved));
}

void logUtility(const ResultDocument& d, FigureSpec& f) {
    const Matrix* m = fig::findMatrix(d, keys::matrix::kLogUtility);
    if (!m) {
        f.message = QStringLiteral("No choice log loaded (open an image_a,image_b,chosen,order CSV).");
        return;
    }
    for (const auto& l : m->rowLabels)
        f.chart.categories << QString::fromStdString(l);
    f.chart.series << fig::bars(m->data, QStringLiteral("BT utility"), 0);
    f.chart.xLabel = QStringLiteral("image (names sorted)");
    f.chart.yLabel = QStringLiteral("utility (logit units)");
    QStringList names;
    for (int i = 0; i < f.chart.categories.size(); ++i)
        names << f.chart.categories[i];
    f.caption =
        QStringLiteral("One utility per image of the log (%1 duels), position term %2, log-likelihood %3. "
                       "Bars left to right: %4.")
            .arg(num(d, keys::metric::kLogDuels, 6))
            .arg(num(d, keys::metric::kPositionBias))
            .arg(num(d, keys::metric::kLogLikelihood, 5))
            .arg(names.join(QStringLiteral(", ")));
}

} // namespace

const PanelDefinition& panel() {
    static const auto def = PanelDefinition::of<convimg::PersuasionEngine>({
        {"images", FigureKind::Heatmap, "Original vs optimised", images},
        {"win_rate", FigureKind::Chart, "Win rate vs iteration", winRate},
        {"bt_coef", FigureKind::Chart, "Bradley-Terry coefficients vs truth", btCoef},
        {"coef_scatter", FigureKind::Chart, "Estimated vs planted effects", coefScatter},
        {"pairwise", FigureKind::Heatmap, "Pairwise win rates", pairwise},
        {"position_bias", FigureKind::Chart, "Position bias", positionBias},
        {"normalisation", FigureKind::Chart, "Normalisation (mitigation)", normalisation},
        {"log_utility", FigureKind::Chart, "Choice-log utilities", logUtility},
    });
    return def;
}

} // namespace pl::persuasionfig
