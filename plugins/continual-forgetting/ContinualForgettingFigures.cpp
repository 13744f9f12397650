// The continual-forgetting panel: its engine and figure table (ids, kinds and titles as in
// paper.json), and the figure builders. Pure functions of the result (thread-safe).
#include "sdk/FigureHelpers.h"
#include "sdk/PanelDefinition.h"
#include "smallnets/ContinualForgettingEngine.h"
#include "smallnets/ContinualForgettingKeys.h"

#include <cmath>

namespace pl::forgetfig {

using gui::FigureKind;
using gui::FigureSpec;
using gui::SeriesSpec;
namespace keys = smallnets::forget::keys;

namespace {

/// Number of tasks K (rows of the train loss matrix).
int taskCount(const ResultDocument& d) {
    const Matrix* m = fig::matrix(d, keys::matrix::kTrainLoss);
    return m ? int(m->rows) : 0;
}

void lossCurves(const ResultDocument& d, FigureSpec& f) {
    f.chart.xLabel = QStringLiteral("GD step (tasks trained one after another)");
    f.chart.yLabel = QStringLiteral("training loss of each task");
    const int K = taskCount(d);
    for (int i = 1; i <= K; ++i)
        f.chart.series << fig::series(d, keys::series::kTrainLossTaskPrefix + std::to_string(i),
                                      QStringLiteral("task %1").arg(i), SeriesSpec::Style::Line, i - 1);
    if (const std::vector<double>* b = fig::vector(d, keys::vector::kTaskBoundaries))
        for (size_t k = 1; k < b->size(); ++k)
            f.chart.markers << gui::MarkerSpec{gui::MarkerSpec::Axis::X, (*b)[k],
                                               QStringLiteral("task %1 starts").arg(k + 1)};
    f.caption =
        QStringLiteral("Each task's loss on its own training set while the tasks are trained in turn "
                       "(vertical lines: task boundaries). A task's curve rising after its own phase is "
                       "forgetting; mean F^train = %1.")
            .arg(fig::metric(d, keys::metric::kForgettingTrain), 0, 'g', 3);
}

/// Q in the task basis, with a NaN row and column after each task block so the blocks are boxed.
void qMatrix(const ResultDocument& d, FigureSpec& f) {
    const Matrix* q = fig::matrix(d, keys::matrix::kQView);
    const std::vector<double>* blocks = fig::vector(d, keys::vector::kQBlocks);
    if (!q || !blocks)
        return;
    std::vector<int> src; // source index of each shown row/column (-1 = separator)
    int next = 0;
    for (size_t b = 0; b + 1 < blocks->size(); b += 2) {
        const int start = int((*blocks)[b]), size = int((*blocks)[b + 1]);
        for (int i = start; i < start + size; ++i)
            src.push_back(i);
        src.push_back(-1);
        next = start + size;
    }
    for (int i = next; i < int(q->rows); ++i)
        src.push_back(i);
    gui::HeatmapSpec h;
    h.rows = h.cols = int(src.size());
    for (int r : src)
        for (int c : src)
            h.values << (r < 0 || c < 0 ? std::nan("") : q->at(r, c));
    for (int r : src)
        h.rowLabels << (r < 0 ? QString() : QString::fromStdString(q->rowLabels[size_t(r)]));
    h.colLabels = h.rowLabels;
    h.colormap = QStringLiteral("diverging");
    h.centreZero = true;
    h.unit = QStringLiteral("Q entry");
    h.rowTitle = QStringLiteral("direction (task means first, then the rest)");
    h.colTitle = QStringLiteral("direction");
    f.heatmap = h;
    f.caption =
        QStringLiteral("Q = Wᵀdiag(a)W at %1 of training, in the basis of the task directions (T1a, T1b, "
                       "T2a, ...; gaps box each task's block). With sigma = 0 a task's block stops "
                       "changing once its phase is over.")
            .arg(QString::fromStdString(fig::param(d, keys::param::kQTime)));
}

void sweep(const ResultDocument& d, FigureSpec& f) {
    const std::string what = fig::param(d, keys::param::kSweep);
    f.chart.xLabel = QString::fromStdString(what == "none" ? std::string("swept parameter") : what);
    f.chart.yLabel = QStringLiteral("mean forgetting F^train (tasks 1..K-1)");
    f.chart.logX = f.chart.logY = true;
    const std::string key = keys::series::kForgettingVsPrefix + what;
    if (what == "none" || !fig::findSeries(d, key)) {
        f.caption = QStringLiteral("Choose a parameter under 'sweep' to draw forgetting against it.");
        return;
    }
    f.chart.series << fig::series(d, key, QStringLiteral("mean of 3 seeds"),
                                  SeriesSpec::Style::LineWithPoints, 0);
    f.caption = QStringLiteral("Log-log axes; fitted slope %1 (points with positive forgetting only).")
                    .arg(fig::metricOr(d, keys::metric::kSweepSlope, std::nan("")), 0, 'f', 2);
}

void trainVsTest(const ResultDocument& d, FigureSpec& f) {
    f.chart.xLabel = QStringLiteral("task");
    f.chart.yLabel = QStringLiteral("forgetting F_i (loss increase)");
    const std::vector<double>* tr = fig::vector(d, keys::vector::kForgettingTrain);
    const std::vector<double>* te = fig::vector(d, keys::vector::kForgettingTest);
    if (!tr || !te || tr->size() < 2)
        return;
    const std::vector<double> a(tr->begin(), tr->end() - 1), b(te->begin(), te->end() - 1);
    for (size_t i = 0; i < a.size(); ++i)
        f.chart.categories << QStringLiteral("task %1").arg(i + 1);
    f.chart.series << fig::bars(a, QStringLiteral("train"), 0) << fig::bars(b, QStringLiteral("test"), 1);
    f.caption =
        QStringLiteral("Forgetting of each earlier task after the last one, on its training samples and on "
                       "fresh test samples; the difference is the stability (generalisation) gap.");
}

void overlap(const ResultDocument& d, FigureSpec& f) {
    f.heatmap = fig::heatmap(d, keys::matrix::kOverlap);
    f.heatmap.fixedRange = true;
    f.heatmap.vMin = 0;
    f.heatmap.vMax = 1;
    f.heatmap.annotateCells = true;
    f.heatmap.unit = QStringLiteral("overlap");
    f.caption =
        QStringLiteral("tr(M_i M_j)/(|M_i| |M_j|) of the tasks' second-moment matrices: 0 = orthogonal "
                       "subspaces (the paper's setting), 1 = the same. Largest off-diagonal: %1.")
            .arg(fig::metric(d, keys::metric::kMaxOverlap), 0, 'f', 3);
}

void lossMatrix(const ResultDocument& d, FigureSpec& f) {
    f.heatmap = fig::heatmap(d, keys::matrix::kTrainLoss);
    f.heatmap.annotateCells = true;
    f.heatmap.unit = QStringLiteral("train loss");
    f.heatmap.rowTitle = QStringLiteral("after training task j");
    f.heatmap.colTitle = QStringLiteral("loss of task i");
    f.caption =
        QStringLiteral("Row j: every task's training loss after task j; below the diagonal is what the "
                       "network remembers.");
}

} // namespace

const PanelDefinition& panel() {
    static const auto def = PanelDefinition::of<smallnets::ContinualForgettingEngine>({
        {"loss_curves", FigureKind::Chart, "Task losses during sequential training", lossCurves},
        {"q_matrix", FigureKind::Heatmap, "Q in the task basis", qMatrix},
        {"forgetting_sweep", FigureKind::Chart, "Forgetting vs swept parameter", sweep},
        {"train_vs_test", FigureKind::Chart, "Train vs test forgetting", trainVsTest},
        {"loss_matrix", FigureKind::Heatmap, "Loss matrix", lossMatrix},
        {"task_overlap", FigureKind::Heatmap, "Task overlap", overlap},
    });
    return def;
}

} // namespace pl::forgetfig
