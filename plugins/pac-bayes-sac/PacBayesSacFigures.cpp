// The pac-bayes-sac panel: its engine and figure table (ids, kinds and titles exactly as in
// paper.json), and one builder per figure. Builders read the result only through pl::fig lookups.
#include "core/Numeric.h"
#include "mdp/PacBayesSacEngine.h"
#include "mdp/PacBayesSacKeys.h"
#include "sdk/FigureHelpers.h"
#include "sdk/PanelDefinition.h"

#include <algorithm>

namespace pl::pbsac {

using gui::FigureKind;
using gui::FigureSpec;
using gui::SeriesSpec;

namespace {

/// True when the result comes from `lab`; otherwise leaves a caption that says which lab draws it.
bool fromLab(const ResultDocument& d, FigureSpec& f, const char* lab) {
    if (fig::param(d, keys::param::kLab) == lab)
        return true;
    f.message =
        QStringLiteral("This figure belongs to the %1 lab: set lab = %1 and run.").arg(QLatin1String(lab));
    return false;
}

SeriesSpec dashed(SeriesSpec s) {
    s.dashed = true;
    s.lineWidth = 1.0;
    return s;
}

void boundVsN(const ResultDocument& d, FigureSpec& f) {
    if (!fromLab(d, f, "bound"))
        return;
    f.chart.xLabel = QStringLiteral("n (transitions, log scale)");
    f.chart.yLabel = QStringLiteral("bound / risk (normalised loss)");
    f.chart.logX = true;
    f.chart.series << fig::series(d, keys::series::kMarkovVsN, QStringLiteral("Markov"),
                                  SeriesSpec::Style::LineWithPoints, 0)
                   << dashed(fig::series(d, keys::series::kMarkovVsNLo, QStringLiteral("Markov 10%"),
                                         SeriesSpec::Style::Line, 0))
                   << dashed(fig::series(d, keys::series::kMarkovVsNHi, QStringLiteral("Markov 90%"),
                                         SeriesSpec::Style::Line, 0))
                   << fig::series(d, keys::series::kIidVsN, QStringLiteral("i.i.d."),
                                  SeriesSpec::Style::LineWithPoints, 1)
                   << fig::series(d, keys::series::kRiskVsN, QStringLiteral("true risk"),
                                  SeriesSpec::Style::LineWithPoints, 2);
    f.chart.markers << gui::MarkerSpec{gui::MarkerSpec::Axis::Y, 1.0, QStringLiteral("vacuous")};
    f.caption = QStringLiteral("Median certificates from one trajectory of n transitions (dashed: 10% and "
                               "90% over repetitions), "
                               "mean true risk. "
                               "The Markov bound pays τ = %1 for dependence; both shrink like 1/√n.")
                    .arg(fig::metric(d, keys::metric::kTau));
}

void boundVsTMix(const ResultDocument& d, FigureSpec& f) {
    if (!fromLab(d, f, "bound"))
        return;
    f.chart.xLabel = QStringLiteral("t_mix of the behaviour chain (κ = 0, 0.5, 0.8, 0.9, 0.95, 0.99)");
    f.chart.yLabel = QStringLiteral("bound / risk");
    f.chart.series << fig::series(d, keys::series::kMarkovVsTMix, QStringLiteral("Markov"),
                                  SeriesSpec::Style::LineWithPoints, 0)
                   << fig::series(d, keys::series::kIidVsTMix, QStringLiteral("i.i.d."),
                                  SeriesSpec::Style::LineWithPoints, 1)
                   << fig::series(d, keys::series::kRiskVsTMix, QStringLiteral("true risk"),
                                  SeriesSpec::Style::LineWithPoints, 2);
    f.chart.markers << gui::MarkerSpec{gui::MarkerSpec::Axis::X, fig::metric(d, keys::metric::kTMix),
                                       QStringLiteral("this run")};
    f.caption =
        QStringLiteral("Stickier behaviour, slower mixing: the Markov bound grows with t_mix, the i.i.d. "
                       "bound does not see the dependence.");
}

void coverage(const ResultDocument& d, FigureSpec& f) {
    if (!fromLab(d, f, "bound"))
        return;
    f.chart.xLabel = QStringLiteral("stickiness κ");
    f.chart.yLabel = QStringLiteral("fraction of repetitions with bound ≥ true risk");
    f.chart.series << fig::series(d, keys::series::kMarkovCoverageVsKappa, QStringLiteral("Markov bound"),
                                  SeriesSpec::Style::LineWithPoints, 0)
                   << fig::series(d, keys::series::kIidCoverageVsKappa, QStringLiteral("i.i.d. bound"),
                                  SeriesSpec::Style::LineWithPoints, 1);
    const double delta = std::stod(fig::param(d, keys::param::kDelta));
    f.chart.markers << gui::MarkerSpec{gui::MarkerSpec::Axis::Y, 1 - delta, QStringLiteral("1 − δ")};
    f.chart.fixedYRange = true;
    f.chart.yMin = 0;
    f.chart.yMax = 1.05;
    f.caption =
        QStringLiteral("Coverage over repetitions per κ. This run: Markov %1, i.i.d. %2 (required 1 − δ).")
            .arg(fig::metric(d, keys::metric::kMarkovCoverage), 0, 'f', 3)
            .arg(fig::metric(d, keys::metric::kIidCoverage), 0, 'f', 3);
}

void repetitions(const ResultDocument& d, FigureSpec& f) {
    if (!fromLab(d, f, "bound"))
        return;
    const std::vector<double>& truth = *fig::vector(d, keys::vector::kTrueRisk);
    const std::vector<double>& mk = *fig::vector(d, keys::vector::kMarkovBound);
    const std::vector<double>& iid = *fig::vector(d, keys::vector::kIidBound);
    SeriesSpec a, b, diag;
    a.name = QStringLiteral("Markov bound");
    b.name = QStringLiteral("i.i.d. bound");
    a.style = b.style = SeriesSpec::Style::Scatter;
    a.colorIndex = 0;
    b.colorIndex = 1;
    double lo = 1e300, hi = -1e300;
    for (size_t r = 0; r < truth.size(); ++r) {
        a.x << truth[r];
        a.y << mk[r];
        b.x << truth[r];
        b.y << iid[r];
        lo = std::min(lo, truth[r]);
        hi = std::max(hi, truth[r]);
    }
    diag.name = QStringLiteral("bound = true risk");
    diag.x = {lo, hi};
    diag.y = {lo, hi};
    diag.colorIndex = 5;
    diag.dashed = true;
    f.chart.series << a << b << diag;
    f.chart.xLabel = QStringLiteral("true risk E_π E_Q ℓ of the repetition's posterior");
    f.chart.yLabel = QStringLiteral("certificate");
    f.caption =
        QStringLiteral("One dot per repetition: a certificate covers when it is above the dashed line. "
                       "Median Markov bound %1.")
            .arg(fig::metric(d, keys::metric::kMedianMarkovBound), 0, 'f', 3);
}

void tvDecay(const ResultDocument& d, FigureSpec& f) {
    if (!fromLab(d, f, "bound"))
        return;
    f.chart.xLabel = QStringLiteral("t (steps)");
    f.chart.yLabel = QStringLiteral("max_s ‖P^t(s,·) − π‖_TV");
    f.chart.series << fig::series(d, keys::series::kTvDecay, QStringLiteral("TV distance"),
                                  SeriesSpec::Style::LineWithPoints, 0);
    f.chart.markers << gui::MarkerSpec{gui::MarkerSpec::Axis::X, fig::metric(d, keys::metric::kTMix),
                                       QStringLiteral("t_mix")}
                    << gui::MarkerSpec{gui::MarkerSpec::Axis::Y, 0.25, QStringLiteral("1/4")};
    f.caption =
        QStringLiteral("Exact decay of the worst-case distance to stationarity; t_mix = %1 is the first t "
                       "where it is at most 1/4.")
            .arg(fig::metric(d, keys::metric::kTMix));
}

void transitionHeatmap(const ResultDocument& d, FigureSpec& f) {
    if (!fromLab(d, f, "bound"))
        return;
    f.heatmap = fig::heatmap(d, keys::matrix::kTransition);
    f.heatmap.rowTitle = QStringLiteral("state s");
    f.heatmap.colTitle = QStringLiteral("next state s′");
    f.heatmap.unit = QStringLiteral("P_β(s, s′)");
    f.caption = QStringLiteral("State chain of the behaviour policy: P_β(s, s′) = Σ_a β(a|s) P(s′|s,a).");
}

void returns(const ResultDocument& d, FigureSpec& f) {
    if (!fromLab(d, f, "control"))
        return;
    f.chart.xLabel = QStringLiteral("training episode (200 steps each)");
    f.chart.yLabel = QStringLiteral("return (sum of rewards)");
    f.chart.series << fig::series(d, keys::series::kReturnSac, QStringLiteral("SAC"),
                                  SeriesSpec::Style::LineWithPoints, 0)
                   << fig::series(d, keys::series::kReturnPbsac, QStringLiteral("PB-SAC"),
                                  SeriesSpec::Style::LineWithPoints, 1);
    f.caption =
        QStringLiteral("Same start states for both agents; the first %1 steps use random torques. "
                       "Deterministic evaluation from 5 starts: SAC %2, PB-SAC %3 (swing-up and balance "
                       "reaches about −150).")
            .arg(std::min(1000, std::stoi(fig::param(d, keys::param::kSteps)) / 5))
            .arg(fig::metric(d, keys::metric::kEvalReturnSac), 0, 'f', 0)
            .arg(fig::metric(d, keys::metric::kEvalReturnPbsac), 0, 'f', 0);
}

void certificate(const ResultDocument& d, FigureSpec& f) {
    if (!fromLab(d, f, "control"))
        return;
    f.chart.xLabel = QStringLiteral("environment steps");
    f.chart.yLabel = QStringLiteral("clipped TD loss (normalised)");
    f.chart.series << fig::series(d, keys::series::kCertificateVsSteps, QStringLiteral("certificate"),
                                  SeriesSpec::Style::LineWithPoints, 0)
                   << fig::series(d, keys::series::kEmpiricalVsSteps, QStringLiteral("E_Q L̂"),
                                  SeriesSpec::Style::LineWithPoints, 2);
    f.chart.markers << gui::MarkerSpec{gui::MarkerSpec::Axis::Y, 1.0, QStringLiteral("vacuous")};
    f.caption = QStringLiteral("PB-SAC's critic certified on its last %1 transitions after each episode "
                               "(KL %2, heuristic t̂_mix %3). Illustrative: the trajectory does not start at "
                               "stationarity.")
                    .arg(fig::metric(d, keys::metric::kCertifiedTransitions))
                    .arg(fig::metric(d, keys::metric::kCertificateKl), 0, 'f', 1)
                    .arg(fig::metric(d, keys::metric::kTMixEstimate), 0, 'f', 1);
}

void posterior(const ResultDocument& d, FigureSpec& f) {
    if (!fromLab(d, f, "control"))
        return;
    f.chart.xLabel = QStringLiteral("environment steps");
    f.chart.yLabel = QStringLiteral("σ / α");
    f.chart.series << fig::series(d, keys::series::kPosteriorSdVsSteps,
                                  QStringLiteral("PB-SAC posterior σ (mean)"),
                                  SeriesSpec::Style::LineWithPoints, 1)
                   << dashed(fig::series(d, keys::series::kAlphaPbsac, QStringLiteral("PB-SAC temperature α"),
                                         SeriesSpec::Style::Line, 3))
                   << fig::series(d, keys::series::kAlphaSac, QStringLiteral("SAC temperature α"),
                                  SeriesSpec::Style::Line, 0);
    f.caption = QStringLiteral("Mean standard deviation of the Gaussian posterior over PB-SAC's critic head "
                               "(prior σ_P = %1), and both agents' entropy temperatures.")
                    .arg(QString::fromStdString(fig::param(d, keys::param::kHeadPriorSd)));
}

void policyHeatmap(const ResultDocument& d, FigureSpec& f, const char* key, const QString& who) {
    if (!fromLab(d, f, "control"))
        return;
    f.heatmap = fig::heatmap(d, key);
    f.heatmap.rowTitle = QStringLiteral("angular speed θ̇");
    f.heatmap.colTitle = QStringLiteral("angle θ (0° = upright)");
    f.heatmap.unit = QStringLiteral("torque (N·m)");
    f.heatmap.colormap = QStringLiteral("diverging");
    f.heatmap.fixedRange = true; // the torque limits, so both agents' maps compare
    f.heatmap.vMin = -2;
    f.heatmap.vMax = 2;
    f.caption = QStringLiteral("%1's deterministic torque 2·tanh(μ(s)) over the state plane after training.")
                    .arg(who);
}

void policyPbsac(const ResultDocument& d, FigureSpec& f) {
    policyHeatmap(d, f, keys::matrix::kPolicyPbsac, QStringLiteral("PB-SAC"));
}

void policySac(const ResultDocument& d, FigureSpec& f) {
    policyHeatmap(d, f, keys::matrix::kPolicySac, QStringLiteral("SAC"));
}

} // namespace

const PanelDefinition& panel() {
    static const auto def = PanelDefinition::of<PacBayesSacEngine>({
        {"bound_vs_n", FigureKind::Chart, "Bounds and true risk against n", boundVsN},
        {"bound_vs_tmix", FigureKind::Chart, "Bounds and true risk against the mixing time", boundVsTMix},
        {"coverage", FigureKind::Chart, "Coverage of the bounds", coverage},
        {"repetitions", FigureKind::Chart, "Certificates per repetition", repetitions},
        {"tv_decay", FigureKind::Chart, "Total-variation decay and mixing time", tvDecay},
        {"transition_heatmap", FigureKind::Heatmap, "Behaviour chain transition matrix", transitionHeatmap},
        {"returns", FigureKind::Chart, "SAC and PB-SAC returns on the pendulum", returns},
        {"certificate", FigureKind::Chart, "PB-SAC critic certificate during training", certificate},
        {"posterior", FigureKind::Chart, "Posterior σ and temperatures during training", posterior},
        {"policy_pbsac", FigureKind::Heatmap, "PB-SAC policy over the state plane", policyPbsac},
        {"policy_sac", FigureKind::Heatmap, "SAC policy over the state plane", policySac},
    });
    return def;
}

} // namespace pl::pbsac
