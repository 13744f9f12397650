// The panel definition: its engine and figure table (ids, kinds and titles exactly as in
// paper.json; the plugin is refused at load time otherwise), and one builder per figure.
// Builders are pure functions of the result and read it only through pl::fig lookups with the
// engine's key constants, so tests/plugins/tst_panel_keys sees every key they read.
#include "engine/TemplateEngine.h"
#include "engine/TemplateKeys.h"
#include "sdk/FigureHelpers.h"
#include "sdk/PanelDefinition.h"

namespace pl::templ {

using gui::FigureKind;
using gui::FigureSpec;

namespace {

void msd(const ResultDocument& d, FigureSpec& f) {
    f.chart.xLabel = QStringLiteral("step");
    f.chart.yLabel = QStringLiteral("mean squared displacement (units²)");
    f.chart.series << fig::series(d, keys::series::kMsd, QStringLiteral("simulated"));
    f.caption = QStringLiteral("A straight line through the origin: diffusion. Slope relative to σ²: %1.")
                    .arg(fig::metric(d, keys::metric::kSlopeRatio), 0, 'f', 3);
}

} // namespace

const PanelDefinition& panel() {
    static const auto def = PanelDefinition::of<TemplateEngine>({
        {"msd", FigureKind::Chart, "Mean squared displacement", msd},
    });
    return def;
}

} // namespace pl::templ
