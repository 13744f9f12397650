// The lavid-distillation panel: its engine and figure table (ids, kinds and titles as in
// paper.json), and the figure builders. Pure functions of the result (thread-safe).
#include "distill/LavidEngine.h"
#include "distill/LavidKeys.h"
#include "sdk/FigureHelpers.h"
#include "sdk/PanelDefinition.h"

namespace pl::lavidfig {

using gui::FigureKind;
using gui::FigureSpec;
using gui::SeriesSpec;
namespace K = distill::lavid::keys;

namespace {

const char* const kMethodNames[] = {"CE", "KD (vision teacher)", "LaViD", "KD + LaViD", "random signature"};

std::string key(const char* prefix, const char* m) {
    return std::string(prefix) + m;
}

void signaturesFig(const ResultDocument& d, FigureSpec& f) {
    f.heatmap = fig::heatmap(d, K::matrix::kSignatures);
    f.heatmap.rowTitle = QStringLiteral("class");
    f.heatmap.colTitle = QStringLiteral("question:option");
    f.heatmap.unit = QStringLiteral("teacher option logit");
    f.caption = QStringLiteral("Class signatures t_c: the language-only teacher's option logits for each "
                               "multiple-choice question (Q blocks of O options), as the student's question "
                               "head is asked to predict them.");
}

void similarityFig(const ResultDocument& d, FigureSpec& f, bool fromFeatures) {
    f.heatmap =
        fig::heatmap(d, fromFeatures ? K::matrix::kFeatureSimilarity : K::matrix::kSignatureSimilarity);
    f.heatmap.rowTitle = QStringLiteral("class");
    f.heatmap.colTitle = QStringLiteral("class");
    f.heatmap.colormap = QStringLiteral("diverging");
    f.heatmap.centreZero = true;
    f.heatmap.unit = QStringLiteral("cosine similarity");
    f.caption =
        fromFeatures
            ? QStringLiteral("Cosine similarity of the class means of the LaViD student's features g(x) "
                             "on the test images (first initialisation).")
            : QStringLiteral("Cosine similarity of the class signatures: what the teacher thinks is alike.");
}

void accVsImages(const ResultDocument& d, FigureSpec& f) {
    const char* ms[] = {"ce", "lavid", "random_signature"};
    const int colours[] = {0, 2, 4};
    const char* names[] = {"CE", "LaViD", "random signature"};
    f.chart.xLabel = QStringLiteral("training images per class");
    f.chart.yLabel = QStringLiteral("test accuracy (mean over inits)");
    for (int i = 0; i < 3; ++i) {
        const std::string k = key(K::series::kAccVsImagesPrefix, ms[i]);
        if (!fig::hasSeries(d, k))
            continue;
        SeriesSpec s =
            fig::series(d, k, QString::fromLatin1(names[i]), SeriesSpec::Style::LineWithPoints, colours[i]);
        s.dashed = i == 2;
        f.chart.series << s;
    }
    if (f.chart.series.isEmpty())
        f.message = QStringLiteral("No sweep in this run (sweeps off, or user files).");
    f.caption =
        QStringLiteral("Each point retrains the students on that many renders per class (same test set).");
}

void methodBars(const ResultDocument& d, FigureSpec& f) {
    const std::vector<double>* acc = fig::vector(d, K::vector::kMethodAcc);
    const std::vector<double>* wg = fig::vector(d, K::vector::kMethodWorstGroup);
    SeriesSpec a, b;
    a.name = QStringLiteral("test accuracy");
    b.name = QStringLiteral("worst-group accuracy");
    a.style = b.style = SeriesSpec::Style::Bars;
    a.colorIndex = 0;
    b.colorIndex = 5;
    for (int k = 0; k < K::kMethodCount && acc && wg && size_t(k) < acc->size(); ++k) {
        a.x << k;
        b.x << k;
        a.y << (*acc)[size_t(k)];
        b.y << (*wg)[size_t(k)];
        f.chart.categories << QString::fromLatin1(kMethodNames[k]);
    }
    f.chart.series << a << b;
    f.chart.xLabel = QStringLiteral("method");
    f.chart.yLabel = QStringLiteral("accuracy on the test set (mean over inits)");
    f.chart.fixedYRange = true;
    f.chart.yMin = 0;
    f.chart.yMax = 1;
    f.caption =
        QStringLiteral("Worst group: the lowest accuracy over the (class group, background) cells of the "
                       "test set, where the background is independent of the group. Vision teacher: %1.")
            .arg(fig::metric(d, K::metric::kTeacherAcc), 0, 'f', 3);
}

void probeBars(const ResultDocument& d, FigureSpec& f) {
    const std::vector<double>* p = fig::vector(d, K::vector::kProbeAcc);
    if (p)
        f.chart.series << fig::bars(*p, QStringLiteral("LaViD question head"), 2);
    f.chart.xLabel = QStringLiteral("question");
    f.chart.yLabel = QStringLiteral("probe accuracy on test images");
    f.chart.fixedYRange = true;
    f.chart.yMin = 0;
    f.chart.yMax = 1;
    f.caption = QStringLiteral("Can the student answer each question from the image? Argmax of its question "
                               "head's option block against the knowledge base's answer for the true class "
                               "(user files: the signature's argmax). Questions about unrendered knowledge "
                               "(habitat, diet) can only be answered through the class.");
}

void gainVsNoise(const ResultDocument& d, FigureSpec& f) {
    f.chart.xLabel = QStringLiteral("teacher noise sigma_T");
    f.chart.yLabel = QStringLiteral("LaViD - CE test accuracy (points)");
    if (!fig::hasSeries(d, K::series::kGainVsNoise)) {
        f.message = QStringLiteral("No sweep in this run (sweeps off, or user files).");
        return;
    }
    f.chart.series << fig::series(d, K::series::kGainVsNoise, QStringLiteral("LaViD gain over CE"),
                                  SeriesSpec::Style::LineWithPoints, 2);
    f.chart.markers << gui::MarkerSpec{gui::MarkerSpec::Axis::Y, 0.0, QStringLiteral("no gain")};
    f.caption = QStringLiteral("The same noise draws scaled by sigma_T: a noisier teacher should help less.");
}

void trainingLoss(const ResultDocument& d, FigureSpec& f) {
    f.chart.xLabel = QStringLiteral("epoch");
    f.chart.yLabel = QStringLiteral("mean training loss (first init)");
    for (int k = 0; k < K::kMethodCount; ++k)
        f.chart.series << fig::series(d, key(K::series::kTrainLossPrefix, K::kMethods[k]),
                                      QString::fromLatin1(kMethodNames[k]), SeriesSpec::Style::Line, k);
    f.caption =
        QStringLiteral("Loss of each method's objective (CE plus its extra terms), so the curves are not "
                       "on one scale: the KD term is T^2 times a cross-entropy to the teacher's softened "
                       "outputs, which includes their entropy.");
}

} // namespace

const PanelDefinition& panel() {
    static const auto def = PanelDefinition::of<distill::LavidEngine>({
        {"signatures", FigureKind::Heatmap, "Class signatures", signaturesFig},
        {"signature_similarity", FigureKind::Heatmap, "Class similarity from signatures",
         [](const ResultDocument& d, FigureSpec& f) { similarityFig(d, f, false); }},
        {"feature_similarity", FigureKind::Heatmap, "Class similarity from student features",
         [](const ResultDocument& d, FigureSpec& f) { similarityFig(d, f, true); }},
        {"acc_vs_images", FigureKind::Chart, "Accuracy vs images per class", accVsImages},
        {"method_accuracy", FigureKind::Chart, "Accuracy and worst-group accuracy by method", methodBars},
        {"probe_accuracy", FigureKind::Chart, "Per-question probe accuracy", probeBars},
        {"gain_vs_noise", FigureKind::Chart, "LaViD gain vs teacher noise", gainVsNoise},
        {"training_loss", FigureKind::Chart, "Training loss", trainingLoss},
    });
    return def;
}

} // namespace pl::lavidfig
