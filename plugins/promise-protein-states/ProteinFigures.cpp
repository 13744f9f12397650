// The promise-protein-states panel: its engine and figure table (ids, kinds and titles as in
// paper.json), and the figure builders. Pure functions of the result (thread-safe).
#include "protein/ProteinEngine.h"
#include "protein/ProteinKeys.h"
#include "sdk/FigureHelpers.h"
#include "sdk/PanelDefinition.h"

#include <algorithm>
#include <cmath>

namespace pl::proteinfig {

using gui::FigureKind;
using gui::FigureSpec;
using gui::SeriesSpec;
namespace keys = protein::keys;

namespace {

QString stateName(int64_t s) {
    return QStringLiteral("state %1").arg(s + 1);
}

bool synthetic(const ResultDocument& d) {
    return d.inputs.empty() && fig::findSeries(d, keys::series::kAriVsTheta);
}

/// Pair mode (two structures) reports a TM-score; ensemble and synthetic modes do not.
bool pairMode(const ResultDocument& d) {
    return fig::hasMetric(d, keys::metric::kTmScore);
}

/// An empty chart with a caption saying why (the figure belongs to another mode).
void unavailable(FigureSpec& f, const QString& why) {
    f.kind = FigureKind::Chart;
    f.caption = why;
}

/// Linked selection (issue 34): residue k is sphere k of the first model in the 3D view and point
/// k of the per-residue plot.
const QString kResidueDim = QStringLiteral("residue");

void structure3d(const ResultDocument& d, FigureSpec& f) {
    gui::SceneSpec& s = f.scene;
    const Matrix* coords = fig::matrix(d, keys::matrix::kDisplayCoords);
    const Matrix* per = fig::matrix(d, keys::matrix::kPerResidue);
    const auto* st = fig::labels(d, keys::label::kDisplayState);
    if (!coords || coords->rows == 0 || coords->cols < 3 || !st) {
        s.message = QStringLiteral("No models to show.");
        return;
    }
    const int L = int(coords->cols / 3);
    f.selection.sceneSpheres = kResidueDim; // spheres[0]: the residues of the first model
    const std::string colorBy = fig::param(d, keys::param::kColorBy);
    const bool ballStick = fig::param(d, keys::param::kStyle) == "ball-and-stick";
    const bool pair = pairMode(d);
    // Per-residue values for the colour map: deviation or RMSF (pair mode has only deviation).
    QVector<double> values;
    QString valueTitle;
    if (per && per->rows == L && colorBy != "state") {
        const int col = (colorBy == "rmsf" && !pair) ? 0 : 1;
        for (int i = 0; i < L; ++i)
            values << per->at(i, col);
        valueTitle = col == 0 ? QStringLiteral("RMSF (Å)") : QStringLiteral("deviation (Å)");
    }
    for (int64_t r = 0; r < coords->rows; ++r) {
        QVector<gui::Vec3> pts;
        for (int i = 0; i < L; ++i)
            pts << gui::Vec3(float(coords->at(r, 3 * i)), float(coords->at(r, 3 * i + 1)),
                             float(coords->at(r, 3 * i + 2)));
        const int state = int((*st)[size_t(r)]);
        const QString name = r < int64_t(coords->rowLabels.size())
                                 ? QString::fromStdString(coords->rowLabels[size_t(r)])
                                 : QStringLiteral("model %1").arg(r + 1);
        gui::PolylineSpec line;
        line.style.name = pair ? name : name + QStringLiteral(" · ") + stateName(state);
        line.style.colorIndex = state;
        // Pair mode: the reference (second row) is drawn translucent under the superposed model.
        line.style.opacity = pair ? (r == 0 ? 1.0 : 0.45) : (r == 0 ? 1.0 : 0.85);
        line.points = pts;
        line.radius = ballStick ? 0.25 : 0.45;
        if (!values.isEmpty())
            line.values = values;
        s.polylines << line;
        // Spheres on the first model (tube style) or on every model (ball-and-stick): they carry
        // the residue labels, so a click on one names the residue.
        if (ballStick || r == 0) {
            gui::SphereSetSpec sp;
            sp.style = line.style;
            sp.style.name = name + QStringLiteral(" residues");
            sp.centers = pts;
            sp.radius = ballStick ? 0.9 : 0.6;
            if (!values.isEmpty())
                sp.values = values;
            if (per && per->rows == L)
                for (int i = 0; i < L; ++i)
                    sp.labels << QString::fromStdString(per->rowLabels.size() > size_t(i)
                                                            ? per->rowLabels[size_t(i)]
                                                            : std::to_string(i + 1)) +
                                     (values.isEmpty() ? QString()
                                                       : QStringLiteral(" · %1 Å").arg(values[i], 0, 'f', 2));
            s.spheres << sp;
        }
    }
    s.colormap = QStringLiteral("magma");
    s.colorBarTitle = valueTitle;
    s.showColorBar = !values.isEmpty();
    s.camera.azimuth = 20;
    s.camera.elevation = 15;
    s.camera.viewUp = gui::Vec3(0, 0, 1);
    if (pair) {
        f.caption = QStringLiteral("The first file's model superposed onto the reference with the TM-score's "
                                   "superposition (C-alpha trace, common residues); colour: ") +
                    (values.isEmpty() ? QStringLiteral("model.") : valueTitle + QStringLiteral(".")) +
                    QStringLiteral(" Click a residue sphere to read its name and value.");
    } else {
        f.caption =
            QStringLiteral("%1 superposed models (state medoids first; aligned iteratively on the mean), "
                           "coloured by %2. Deviation: C-alpha distance between the medoids of states 1 and "
                           "2 after superposition. Click a residue sphere of the first model to read it.")
                .arg(coords->rows)
                .arg(values.isEmpty() ? QStringLiteral("state") : valueTitle);
    }
}

void rmsdHeatmap(const ResultDocument& d, FigureSpec& f) {
    const Matrix* m = fig::matrix(d, keys::matrix::kRmsd);
    const auto* order = fig::vector(d, keys::vector::kOrder);
    const auto* st = fig::labels(d, keys::label::kState);
    if (!m || !order || !st || m->rows < 1)
        return unavailable(f, QStringLiteral("Needs an ensemble: one input file with several models, or the "
                                             "synthetic mode (no input)."));
    auto& h = f.heatmap;
    const int n = int(m->rows);
    h.rows = h.cols = n;
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j)
            h.values << m->at(int64_t((*order)[size_t(i)]), int64_t((*order)[size_t(j)]));
    for (int i = 0; i < n; ++i) {
        const int k = int((*order)[size_t(i)]);
        const QString lab =
            QStringLiteral("%1 [%2]")
                .arg(k < int(m->rowLabels.size()) ? QString::fromStdString(m->rowLabels[size_t(k)])
                                                  : QString::number(k + 1))
                .arg((*st)[size_t(k)] + 1);
        h.rowLabels << lab;
        h.colLabels << lab;
    }
    h.rowTitle = QStringLiteral("model [state]");
    h.colTitle = QStringLiteral("model [state]");
    h.colormap = QStringLiteral("viridis");
    h.unit = QStringLiteral("RMSD (Å)");
    f.caption =
        QStringLiteral("C-alpha RMSD after optimal superposition of each pair; models ordered by state "
                       "(%1 states) and by distance to the state's medoid. Dark blocks on the "
                       "diagonal are states.")
            .arg(fig::metric(d, keys::metric::kNStates));
}

void stateMap(const ResultDocument& d, FigureSpec& f) {
    const auto* p1 = fig::vector(d, keys::vector::kPc1);
    const auto* p2 = fig::vector(d, keys::vector::kPc2);
    const auto* st = fig::labels(d, keys::label::kState);
    if (!p1 || !p2 || !st || p1->empty())
        return unavailable(f, QStringLiteral("Needs an ensemble (one input file or the synthetic mode)."));
    int k = 0;
    for (auto s : *st)
        k = std::max(k, int(s) + 1);
    for (int s = 0; s < k; ++s) {
        SeriesSpec ser;
        ser.name = stateName(s);
        ser.style = SeriesSpec::Style::Scatter;
        ser.colorIndex = s;
        for (size_t i = 0; i < p1->size(); ++i)
            if ((*st)[i] == s) {
                ser.x << (*p1)[i];
                ser.y << (*p2)[i];
            }
        f.chart.series << ser;
    }
    f.chart.xLabel = QStringLiteral("PC1 (Å), %1 % of variance")
                         .arg(100 * fig::metric(d, keys::metric::kPc1Explained), 0, 'f', 1);
    f.chart.yLabel = QStringLiteral("PC2 (Å), %1 % of variance")
                         .arg(100 * fig::metric(d, keys::metric::kPc2Explained), 0, 'f', 1);
    f.caption = QStringLiteral("Principal components of the iteratively superposed C-alpha coordinates; one "
                               "point per model, coloured by its state from the clustering.");
}

void perResidue(const ResultDocument& d, FigureSpec& f) {
    const Matrix* per = fig::matrix(d, keys::matrix::kPerResidue);
    if (!per || per->rows == 0)
        return unavailable(f, QStringLiteral("No per-residue data."));
    const bool pair = pairMode(d);
    f.selection.chartPoints = kResidueDim; // point k of both series = residue k
    SeriesSpec rmsf, dev;
    rmsf.name = QStringLiteral("RMSF over the ensemble");
    rmsf.colorIndex = 0;
    dev.name = pair ? QStringLiteral("deviation after TM superposition")
                    : (synthetic(d) ? QStringLiteral("deviation state A vs state B")
                                    : QStringLiteral("deviation between state medoids 1 and 2"));
    dev.colorIndex = 1;
    for (int64_t i = 0; i < per->rows; ++i) {
        rmsf.x << double(i + 1);
        rmsf.y << per->at(i, 0);
        dev.x << double(i + 1);
        dev.y << per->at(i, 1);
    }
    if (!pair)
        f.chart.series << rmsf;
    f.chart.series << dev;
    const auto* dom = fig::vector(d, keys::vector::kDomain);
    if (dom) {
        for (size_t i = 1; i < dom->size(); ++i)
            if ((*dom)[i] != (*dom)[i - 1])
                f.chart.markers << gui::MarkerSpec{gui::MarkerSpec::Axis::X, double(i) + 0.5,
                                                   (*dom)[i] == 1 ? QStringLiteral("hinge")
                                                                  : QStringLiteral("domain 2")};
    }
    f.chart.xLabel = pair ? QStringLiteral("common residue (index)")
                          : QStringLiteral("residue (index in the matched set)");
    f.chart.yLabel = QStringLiteral("Å");
    f.caption =
        pair ? QStringLiteral("Distance of each common C-alpha after the superposition that maximises the "
                              "TM-score.")
             : QStringLiteral("RMSF: fluctuation about the mean after iterative superposition. Deviation: "
                              "C-alpha distance between the two main states after global superposition.");
}

void silhouette(const ResultDocument& d, FigureSpec& f) {
    if (!fig::hasSeries(d, keys::series::kSilhouetteVsK))
        return unavailable(f, QStringLiteral("Needs an ensemble with at least 3 models."));
    SeriesSpec s = fig::series(d, keys::series::kSilhouetteVsK, QStringLiteral("mean silhouette"),
                               SeriesSpec::Style::Bars, 0);
    for (int i = 0; i < s.x.size(); ++i)
        f.chart.categories << QString::number(int(s.x[i]));
    for (int i = 0; i < s.x.size(); ++i)
        s.x[i] = i;
    f.chart.series << s;
    const double minSil = std::atof(fig::param(d, keys::param::kMinSilhouette).c_str());
    f.chart.markers << gui::MarkerSpec{gui::MarkerSpec::Axis::Y, minSil, QStringLiteral("one state below")};
    f.chart.xLabel = QStringLiteral("number of states k");
    f.chart.yLabel = QStringLiteral("mean silhouette");
    f.caption = QStringLiteral("The panel keeps the k with the largest mean silhouette (chosen: %1 state(s), "
                               "silhouette %2); below the line the ensemble counts as one state.")
                    .arg(fig::metric(d, keys::metric::kNStates))
                    .arg(fig::metric(d, keys::metric::kSilhouette), 0, 'f', 3);
}

void coverage(const ResultDocument& d, FigureSpec& f) {
    if (synthetic(d)) {
        f.chart.series << fig::series(d, keys::series::kOccupancyStateA, QStringLiteral("state A (dominant)"),
                                      SeriesSpec::Style::Bars, 0)
                       << fig::series(d, keys::series::kOccupancyStateB,
                                      QStringLiteral("state B (alternative)"), SeriesSpec::Style::Bars, 1)
                       << fig::series(d, keys::series::kOccupancyUnassigned,
                                      QStringLiteral("intermediate / unassigned"), SeriesSpec::Style::Bars,
                                      7);
        const Matrix* names = fig::matrix(d, keys::matrix::kSamplerNames);
        if (names)
            for (const auto& n : names->rowLabels)
                f.chart.categories << QString::fromStdString(n);
        f.chart.xLabel = QStringLiteral("toy sampler");
        f.chart.yLabel = QStringLiteral("fraction of samples");
        f.chart.fixedYRange = true;
        f.chart.yMin = 0;
        f.chart.yMax = 1;
        f.caption =
            QStringLiteral("Occupancy of each reference state: a sample counts for the state it is closest "
                           "to within r_max, by at least the margin. Context Δ = %1. Toy samplers, not "
                           "predictors.")
                .arg(fig::metric(d, keys::metric::kContextDelta), 0, 'f', 3);
        return;
    }
    const auto* occ = fig::vector(d, keys::vector::kStateOccupancy);
    if (!occ)
        return unavailable(f, QStringLiteral("Coverage needs the synthetic mode or an ensemble."));
    f.chart.series << fig::bars(*occ, QStringLiteral("fraction of models"), 0);
    for (size_t i = 0; i < occ->size(); ++i)
        f.chart.categories << stateName(int64_t(i));
    f.chart.xLabel = QStringLiteral("state (clustering)");
    f.chart.yLabel = QStringLiteral("fraction of models");
    f.caption = QStringLiteral("Occupancy of the states found by clustering the loaded ensemble.");
}

void twoStateMap(const ResultDocument& d, FigureSpec& f) {
    if (!synthetic(d))
        return unavailable(
            f, QStringLiteral("The two-state map is drawn in the synthetic mode (no input file)."));
    const std::pair<const char*, const char*> samplers[] = {
        {keys::series::kTwostateUnbiased, "unbiased"},
        {keys::series::kTwostateBiased, "biased, context off"},
        {keys::series::kTwostateBiasedContext, "biased, context on"}};
    int c = 0;
    for (const auto& [k, n] : samplers)
        f.chart.series << fig::series(d, k, QString::fromLatin1(n), SeriesSpec::Style::Scatter, c++);
    const double rMax = std::atof(fig::param(d, keys::param::kRMax).c_str());
    f.chart.markers << gui::MarkerSpec{gui::MarkerSpec::Axis::X, rMax, QStringLiteral("r_max")}
                    << gui::MarkerSpec{gui::MarkerSpec::Axis::Y, rMax, QStringLiteral("r_max")};
    f.chart.xLabel = QStringLiteral("RMSD to state A (Å)");
    f.chart.yLabel = QStringLiteral("RMSD to state B (Å)");
    f.caption = QStringLiteral("Each toy sample by its RMSD to the two reference states (A-B RMSD %1 Å); "
                               "samples below r_max on one axis only are assigned to that state.")
                    .arg(fig::metric(d, keys::metric::kRmsdAb), 0, 'f', 2);
}

void successVsN(const ResultDocument& d, FigureSpec& f) {
    if (!synthetic(d))
        return unavailable(f, QStringLiteral("Drawn in the synthetic mode (no input file)."));
    f.chart.series << fig::series(d, keys::series::kSuccessUnbiased, QStringLiteral("unbiased, resampled"),
                                  SeriesSpec::Style::LineWithPoints, 0);
    SeriesSpec a0 = fig::series(d, keys::series::kSuccessAnalyticUnbiased,
                                QStringLiteral("unbiased, 1 - w^N - (1-w)^N"), SeriesSpec::Style::Line, 0);
    a0.dashed = true;
    f.chart.series << a0;
    f.chart.series << fig::series(d, keys::series::kSuccessBiased, QStringLiteral("biased, resampled"),
                                  SeriesSpec::Style::LineWithPoints, 1);
    SeriesSpec a1 = fig::series(d, keys::series::kSuccessAnalyticBiased, QStringLiteral("biased, analytic"),
                                SeriesSpec::Style::Line, 1);
    a1.dashed = true;
    f.chart.series << a1;
    f.chart.xLabel = QStringLiteral("samples per target N");
    f.chart.yLabel = QStringLiteral("multi-state success rate");
    f.chart.fixedYRange = true;
    f.chart.yMin = 0;
    f.chart.yMax = 1;
    f.caption = QStringLiteral("Probability that N samples hit both states: resampled from each sampler's "
                               "assigned samples (400 trials per N) against the analytic value for a perfect "
                               "assignment.");
}

void ariVsTheta(const ResultDocument& d, FigureSpec& f) {
    if (!synthetic(d))
        return unavailable(f, QStringLiteral("Drawn in the synthetic mode (no input file)."));
    f.chart.series << fig::series(d, keys::series::kAriVsTheta, QStringLiteral("ARI"),
                                  SeriesSpec::Style::LineWithPoints, 0);
    f.chart.markers << gui::MarkerSpec{gui::MarkerSpec::Axis::Y, 0.9, QStringLiteral("claim: 0.9")};
    f.chart.xLabel = QStringLiteral("hinge angle θ (deg)");
    f.chart.yLabel = QStringLiteral("adjusted Rand index");
    f.chart.fixedYRange = true;
    f.chart.yMin = -0.1;
    f.chart.yMax = 1.05;
    f.caption =
        QStringLiteral("Clustering of mixed A/B ensembles at several hinge angles against the planted "
                       "states: as θ → 0 the states merge and the ARI falls.");
}

void anmOverlap(const ResultDocument& d, FigureSpec& f) {
    if (!synthetic(d))
        return unavailable(f, QStringLiteral("Drawn in the synthetic mode (no input file)."));
    SeriesSpec s =
        fig::series(d, keys::series::kAnmOverlap, QStringLiteral("overlap O_k"), SeriesSpec::Style::Bars, 2);
    for (int i = 0; i < s.x.size(); ++i) {
        f.chart.categories << QString::number(int(s.x[i]));
        s.x[i] = i;
    }
    f.chart.series << s;
    f.chart.xLabel = QStringLiteral("ANM mode (7 = lowest non-trivial)");
    f.chart.yLabel = QStringLiteral("|v_k · d_AB| / |d_AB|");
    f.caption = QStringLiteral("Overlap of each normal mode of state A with the A→B displacement; cumulative "
                               "overlap of the 5 lowest modes: %1.")
                    .arg(fig::metric(d, keys::metric::kAnmCumulativeOverlap5), 0, 'f', 3);
}

void tmPerModel(const ResultDocument& d, FigureSpec& f) {
    const auto* tm = fig::findVector(d, keys::vector::kTmPerModel); // pair mode only
    if (!tm)
        return unavailable(
            f, QStringLiteral("Load two files: the models of the first are scored against model 1 "
                              "of the second (the reference)."));
    f.chart.series << fig::bars(*tm, QStringLiteral("TM-score"), 0);
    for (size_t i = 0; i < tm->size(); ++i)
        f.chart.categories << QString::number(i + 1);
    f.chart.xLabel = QStringLiteral("model of the first file");
    f.chart.yLabel = QStringLiteral("TM-score (normalised by the reference)");
    f.chart.fixedYRange = true;
    f.chart.yMin = 0;
    f.chart.yMax = 1;
    f.caption = QStringLiteral("Model 1: TM-score %1, RMSD %2 Å over %3 common residues, GDT-TS %4.")
                    .arg(fig::metric(d, keys::metric::kTmScore), 0, 'f', 4)
                    .arg(fig::metric(d, keys::metric::kRmsdCommon), 0, 'f', 3)
                    .arg(fig::metric(d, keys::metric::kCommonResidues))
                    .arg(fig::metric(d, keys::metric::kGdtTs), 0, 'f', 4);
}

} // namespace

const PanelDefinition& panel() {
    static const auto def = PanelDefinition::of<protein::ProteinEngine>({
        {"structure3d", FigureKind::Scene3D, "Superposed models (3D)", structure3d},
        {"rmsd_heatmap", FigureKind::Heatmap, "Model-vs-model RMSD, ordered by state", rmsdHeatmap},
        {"state_map", FigureKind::Chart, "Ensemble map (PCA) coloured by state", stateMap},
        {"per_residue", FigureKind::Chart, "Per-residue RMSF and deviation", perResidue},
        {"silhouette", FigureKind::Chart, "Number of states: silhouette criterion", silhouette},
        {"coverage", FigureKind::Chart, "State coverage of the samplers", coverage},
        {"two_state_map", FigureKind::Chart, "Two-state map: RMSD to A vs RMSD to B", twoStateMap},
        {"success_vs_n", FigureKind::Chart, "Multi-state success vs number of samples", successVsN},
        {"ari_vs_theta", FigureKind::Chart, "State recovery vs hinge angle", ariVsTheta},
        {"anm_overlap", FigureKind::Chart, "ANM mode overlap with the A-to-B motion", anmOverlap},
        {"tm_per_model", FigureKind::Chart, "TM-score of each model against the reference", tmPerModel},
    });
    return def;
}

} // namespace pl::proteinfig
