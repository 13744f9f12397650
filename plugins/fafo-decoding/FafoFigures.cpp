// The fafo-decoding panel: its engine and figure table (ids, kinds and titles as in paper.json),
// and the figure builders. Pure functions of the result (thread-safe).
#include "sdk/FigureHelpers.h"
#include "sdk/PanelDefinition.h"
#include "tinylm/FafoDecodingEngine.h"
#include "tinylm/FafoDecodingKeys.h"

#include <algorithm>

namespace pl::fafofig {

using gui::FigureKind;
using gui::FigureSpec;
using gui::SeriesSpec;
namespace keys = tinylm::fafo::keys;

namespace {

std::string m(const char* prefix, const char* mode) {
    return std::string(prefix) + mode;
}

void tokenStrip(const ResultDocument& d, FigureSpec& f) {
    const std::vector<int64_t>* src = fig::labels(d, keys::label::kSourceFafo);
    const std::vector<int64_t>* ar = fig::labels(d, m(keys::label::kTokensPrefix, "ar"));
    const std::vector<int64_t>* lossy = fig::labels(d, m(keys::label::kTokensPrefix, "lossy"));
    const int gen = std::atoi(fig::param(d, keys::param::kGenLen).c_str());
    if (!src || !ar || !lossy || gen <= 0)
        return;
    const int n = std::min<int>(gen, int(src->size()));
    f.heatmap.rows = 2;
    f.heatmap.cols = n;
    for (int i = 0; i < n; ++i)
        f.heatmap.values << double((*src)[size_t(i)]);
    for (int i = 0; i < n; ++i)
        f.heatmap.values << ((*lossy)[size_t(i)] == (*ar)[size_t(i)] ? 1.0 : 0.0);
    f.heatmap.rowLabels = {QStringLiteral("FAFO guess"), QStringLiteral("lossy = AR")};
    for (int i = 0; i < n; ++i)
        f.heatmap.colLabels << QString::number((*ar)[size_t(i)]);
    f.heatmap.rowTitle = QStringLiteral("stream");
    f.heatmap.colTitle = QStringLiteral("generated token (id), first prompt");
    f.heatmap.colormap = QStringLiteral("viridis");
    f.heatmap.fixedRange = true;
    f.heatmap.vMin = 0;
    f.heatmap.vMax = 1;
    f.heatmap.unit = QStringLiteral("flag (0 / 1)");
    f.caption =
        QStringLiteral("First prompt, token by token: where FAFO's accepted tokens came from (a verified "
                       "n-gram guess or the model's own next token), and where lossy-only decoding "
                       "left the greedy sequence.");
}

void acceptLengths(const ResultDocument& d, FigureSpec& f) {
    f.chart.xLabel = QStringLiteral("tokens accepted in one step");
    f.chart.yLabel = QStringLiteral("steps");
    const char* modes[] = {"lookahead", "fafo", "selfspec"};
    const char* names[] = {"lookahead (full KV)", "FAFO", "self-speculation"};
    for (int i = 0; i < 3; ++i) {
        SeriesSpec s = fig::series(d, m(keys::series::kAcceptHistPrefix, modes[i]),
                                   QString::fromLatin1(names[i]), SeriesSpec::Style::LineWithPoints, i);
        f.chart.series << s;
    }
    f.caption =
        QStringLiteral("Tokens per step (1 = only the model's own next token). Tokens per forward pass: "
                       "lookahead %1, FAFO %2, self-spec %3.")
            .arg(fig::metric(d, m(keys::metric::kTokensPerForwardPrefix, "lookahead")), 0, 'f', 2)
            .arg(fig::metric(d, m(keys::metric::kTokensPerForwardPrefix, "fafo")), 0, 'f', 2)
            .arg(fig::metric(d, m(keys::metric::kTokensPerForwardPrefix, "selfspec")), 0, 'f', 2);
}

void horizontal(FigureSpec& f, const ResultDocument& d, const char* metric, const QString& name, int colour) {
    const double v = fig::metric(d, metric);
    double lo = 1e300, hi = -1e300;
    for (const SeriesSpec& s : f.chart.series)
        for (double x : s.x) {
            lo = std::min(lo, x);
            hi = std::max(hi, x);
        }
    if (lo > hi)
        return;
    SeriesSpec s;
    s.name = name;
    s.x = {lo, hi};
    s.y = {v, v};
    s.dashed = true;
    s.colorIndex = colour;
    f.chart.series << s;
}

void budgetChart(const ResultDocument& d, FigureSpec& f, bool speedup) {
    f.chart.xLabel = QStringLiteral("KV budget of the lookahead rows (keys)");
    f.chart.yLabel = speedup ? QStringLiteral("modelled speed-up over autoregressive")
                             : QStringLiteral("tokens per forward pass");
    f.chart.logX = true;
    const char* names[] = {"streaming", "quest", "h2o"};
    for (int c = 0; c < 3; ++c) {
        const std::string key =
            m(speedup ? keys::series::kSpeedupVsBudgetPrefix : keys::series::kTpfVsBudgetPrefix,
              keys::kCompressors[c]);
        if (fig::findSeries(d, key))
            f.chart.series << fig::series(d, key, QString::fromLatin1(names[c]),
                                          SeriesSpec::Style::LineWithPoints, c);
    }
    if (f.chart.series.isEmpty()) {
        f.caption = QStringLiteral("The budget sweep is off (sweep = false).");
        return;
    }
    if (speedup) {
        horizontal(f, d, keys::metric::kSweepSpeedupLookahead, QStringLiteral("lookahead"), 4);
        horizontal(f, d, keys::metric::kSweepSpeedupSelfspec, QStringLiteral("self-spec"), 5);
    } else {
        horizontal(f, d, keys::metric::kSweepTpfLookahead, QStringLiteral("lookahead"), 4);
    }
    f.caption =
        speedup ? QStringLiteral("Cost model: a pass costs 1 + kv_cost x keys read / 1000. Every run of the "
                                 "sweep was checked against autoregressive decoding (lossless: %1).")
                      .arg(fig::metric(d, keys::metric::kLossless) > 0.5 ? QStringLiteral("yes")
                                                                         : QStringLiteral("NO"))
                : QStringLiteral("Accepted tokens per forward pass as the lookahead rows see fewer keys.");
}

void speedupVsBudget(const ResultDocument& d, FigureSpec& f) {
    budgetChart(d, f, true);
}
void tpfVsBudget(const ResultDocument& d, FigureSpec& f) {
    budgetChart(d, f, false);
}

void losslessness(const ResultDocument& d, FigureSpec& f) {
    f.chart.xLabel = QStringLiteral("decoding mode: 0 lookahead, 1 FAFO, 2 self-spec, 3 lossy-only");
    f.chart.yLabel = QStringLiteral("tokens equal to autoregressive (share)");
    const char* modes[] = {"lookahead", "fafo", "selfspec", "lossy"};
    std::vector<double> v;
    for (const char* mode : modes)
        v.push_back(fig::metric(d, m(keys::metric::kAgreementPrefix, mode)));
    f.chart.series << fig::bars(v, QStringLiteral("share of tokens equal to autoregressive"), 0);
    f.chart.fixedYRange = true;
    f.chart.yMin = 0;
    f.chart.yMax = 1.05;
    const bool ok = fig::metric(d, keys::metric::kLossless) > 0.5;
    f.caption =
        QStringLiteral("%1: FNV hash of FAFO's tokens %2, of autoregressive %3 (%4 runs compared). Bars: "
                       "lookahead, FAFO, self-speculation, lossy-only.")
            .arg(ok ? QStringLiteral("LOSSLESS") : QStringLiteral("NOT LOSSLESS"))
            .arg(qulonglong(fig::metric(d, m(keys::metric::kHashPrefix, "fafo"))), 8, 16, QLatin1Char('0'))
            .arg(qulonglong(fig::metric(d, m(keys::metric::kHashPrefix, "ar"))), 8, 16, QLatin1Char('0'))
            .arg(int(fig::metric(d, keys::metric::kFafoRuns)));
}

void stepMask(const ResultDocument& d, FigureSpec& f) {
    if (!fig::findMatrix(d, keys::matrix::kStepMask)) {
        f.caption = QStringLiteral("No FAFO step was recorded (fewer than four steps).");
        return;
    }
    f.heatmap = fig::heatmap(d, keys::matrix::kStepMask);
    f.heatmap.colormap = QStringLiteral("gray");
    f.heatmap.fixedRange = true;
    f.heatmap.vMin = 0;
    f.heatmap.vMax = 1;
    f.heatmap.unit = QStringLiteral("1 = key read");
    f.heatmap.rowTitle = QStringLiteral("row of the batch");
    f.heatmap.colTitle = QStringLiteral("key: cache position, then batch row");
    f.caption = QStringLiteral("One FAFO step (first prompt, the first step from the fourth on with "
                               "verification rows; last layer, head 0): the current token and the "
                               "verification rows read the whole cache, the lookahead rows only the %1 view.")
                    .arg(QString::fromStdString(fig::param(d, keys::param::kCompressor)));
}

void lossyVsFafo(const ResultDocument& d, FigureSpec& f) {
    f.chart.xLabel = QStringLiteral("generated token index");
    f.chart.yLabel = QStringLiteral("tokens unlike greedy (cumulative)");
    f.chart.series << fig::series(d, m(keys::series::kMismatchPrefix, "lossy"), QStringLiteral("lossy-only"),
                                  SeriesSpec::Style::Line, 1);
    f.chart.series << fig::series(d, m(keys::series::kMismatchPrefix, "fafo"), QStringLiteral("FAFO"),
                                  SeriesSpec::Style::Line, 2);
    f.caption =
        QStringLiteral("Decoding with the compressed cache alone loses the long-distance copies (%1 % of "
                       "tokens differ); FAFO reads the same view only for guesses and stays at zero.")
            .arg(100 * fig::metric(d, keys::metric::kLossyMismatch), 0, 'f', 1);
}

} // namespace

const PanelDefinition& panel() {
    static const auto def = PanelDefinition::of<tinylm::FafoDecodingEngine>({
        {"token_strip", FigureKind::Heatmap, "Token strip by source", tokenStrip},
        {"accept_lengths", FigureKind::Chart, "Acceptance lengths", acceptLengths},
        {"speedup_vs_budget", FigureKind::Chart, "Modelled speed-up vs KV budget", speedupVsBudget},
        {"tokens_per_forward", FigureKind::Chart, "Tokens per forward vs KV budget", tpfVsBudget},
        {"losslessness", FigureKind::Chart, "Losslessness", losslessness},
        {"step_mask", FigureKind::Heatmap, "Attention mask of one step", stepMask},
        {"lossy_vs_fafo", FigureKind::Chart, "Lossy-only vs FAFO", lossyVsFafo},
    });
    return def;
}

} // namespace pl::fafofig
