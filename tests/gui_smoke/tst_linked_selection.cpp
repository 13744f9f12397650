// Linked selection (issue 34): the SelectionModel (normalised index sets per dimension, one
// changed() per action, clearing), how a figure draws a selection (withLinkedSelection for every
// kind), and the panel wiring: a pick published by one figure reaches every figure of the panel
// that shares the dimension (tabs and FigureGrid panes), checked on the views' displayed specs,
// and not the others; clearing reaches them all. Real panel: ssn-nash (strategies bars + payoff
// heatmap); a graph + matrix pair is checked on views linked by hand. Screenshot:
// linked-selection.png in the working directory.
#include "gui/FigureArea.h"
#include "gui/FigureGrid.h"
#include "gui/MainWindow.h"
#include "gui/PanelWidget.h"
#include "gui/SelectionLinker.h"
#include "sdk/JobRunner.h"
#include "sdk/PanelModel.h"
#include "sdk/PluginManager.h"
#include "sdk/SelectionModel.h"
#include "sdk/figure/LinkedSelection.h"
#include "widgets/FigureView.h"
#include "widgets/GraphView.h"
#include "widgets/HeatmapView.h"
#include "widgets/vtk/VtkViews.h"

#include <QApplication>
#include <QChart>
#include <QChartView>
#include <QHBoxLayout>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QtTest>

using namespace pl;
using namespace pl::gui;

namespace {

FigureSpec heatmapSpec(const QString& id, const QString& rowDim, const QString& colDim, int n) {
    FigureSpec f;
    f.id = id;
    f.title = id;
    f.kind = FigureKind::Heatmap;
    f.heatmap.rows = f.heatmap.cols = n;
    for (int i = 0; i < n * n; ++i)
        f.heatmap.values << double(i % 7);
    f.selection.heatmapRows = rowDim;
    f.selection.heatmapCols = colDim;
    return f;
}

FigureSpec graphSpec(const QString& dim, int n) {
    FigureSpec f;
    f.id = QStringLiteral("network");
    f.title = f.id;
    f.kind = FigureKind::Graph;
    f.graph.layout = GraphLayout::Circular;
    for (int i = 0; i < n; ++i) {
        GraphNodeSpec v;
        v.id = QString::number(i);
        v.label = QStringLiteral("n%1").arg(i);
        f.graph.nodes << v;
        f.graph.edges << GraphEdgeSpec{i, (i + 1) % n};
    }
    f.selection.graphNodes = dim;
    return f;
}

FigureSpec chartSpec(const QString& dim) {
    FigureSpec f;
    f.id = QStringLiteral("curve");
    f.title = f.id;
    SeriesSpec s;
    s.name = QStringLiteral("y");
    for (int i = 0; i < 6; ++i) {
        s.x << 10.0 + i; // x values are not the indices: markers sit at x[k]
        s.y << i * i;
    }
    f.chart.series << s;
    f.selection.chartPoints = dim;
    return f;
}

} // namespace

class TestLinkedSelection : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("PaperlabTest"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_linked_selection"));
        QSettings().clear();
        QApplication::setFont(QFont(QStringLiteral("DejaVu Sans"), 9));
        registerVtkViews();
        m_pm.scan();
    }

    void modelNormalisesAndSignalsOnce() {
        SelectionModel m;
        QSignalSpy spy(&m, &SelectionModel::changed);
        m.select(QStringLiteral("node"), {3, 1, 3, -2});
        QCOMPARE(m.indices(QStringLiteral("node")), (QVector<int>{1, 3}));
        QCOMPARE(spy.count(), 1);
        m.select(QStringLiteral("node"), {1, 3}); // same set: no signal
        QCOMPARE(spy.count(), 1);
        m.select(SelectionMap{{QStringLiteral("node"), {2}}, {QStringLiteral("state"), {0}}});
        QCOMPARE(spy.count(), 2);
        QCOMPARE(spy.last().first().toStringList(), (QStringList{"node", "state"}));
        m.toggle(QStringLiteral("node"), 5);
        QCOMPARE(m.indices(QStringLiteral("node")), (QVector<int>{2, 5}));
        m.toggle(QStringLiteral("node"), 2);
        QCOMPARE(m.indices(QStringLiteral("node")), (QVector<int>{5}));
        m.clear(QStringLiteral("state"));
        QVERIFY(!m.selection().contains(QStringLiteral("state")));
        m.clear();
        QVERIFY(m.selection().isEmpty());
        const int before = spy.count();
        m.clear(); // nothing left: no signal
        QCOMPARE(spy.count(), before);
    }

    void specsDrawTheSelection() {
        const SelectionMap sel{{QStringLiteral("node"), {1, 4, 99}}};
        const FigureSpec h = withLinkedSelection(heatmapSpec("m", "node", "node", 5), sel);
        QCOMPARE(h.heatmap.linkedRows, (QVector<int>{1, 4})); // 99 is outside the matrix
        QCOMPARE(h.heatmap.linkedCols, (QVector<int>{1, 4}));
        const FigureSpec other = withLinkedSelection(heatmapSpec("m", "residue", "", 5), sel);
        QVERIFY(other.heatmap.linkedRows.isEmpty());
        QCOMPARE(withLinkedSelection(graphSpec("node", 6), sel).graph.linkedNodes, (QVector<int>{1, 4}));
        const FigureSpec c = withLinkedSelection(chartSpec("node"), sel);
        QCOMPARE(c.chart.linkedPoints, (QVector<int>{1, 4}));
        QCOMPARE(c.chart.markers.size(), 2);
        QCOMPARE(c.chart.markers[1].value, 14.0);
        // 3D: a translucent shell around sphere k of the first sphere set.
        FigureSpec s;
        s.kind = FigureKind::Scene3D;
        SphereSetSpec set;
        for (int i = 0; i < 5; ++i)
            set.centers << Vec3(float(i), 0, 0);
        set.radius = 0.5;
        s.scene.spheres << set;
        s.selection.sceneSpheres = QStringLiteral("node");
        const FigureSpec shown = withLinkedSelection(s, sel);
        QCOMPARE(shown.scene.linkedSpheres, (QVector<int>{1, 4}));
        QCOMPARE(shown.scene.spheres.size(), 2);
        QCOMPARE(shown.scene.spheres[1].centers.size(), 2);
        QCOMPARE(shown.scene.spheres[1].centers[1], Vec3(4, 0, 0));
        QVERIFY(shown.scene.spheres[1].radii[0] > 0.5);
        // A heatmap cell publishes its row and column; one entry when the dimensions are equal.
        QCOMPARE(selectionForCell(heatmapSpec("m", "node", "node", 5), 3, 1),
                 (SelectionMap{{QStringLiteral("node"), {1, 3}}}));
        QCOMPARE(selectionForCell(heatmapSpec("m", "row", "col", 5), 3, 1),
                 (SelectionMap{{QStringLiteral("row"), {3}}, {QStringLiteral("col"), {1}}}));
    }

    void graphAndMatrixLinkedByHand() {
        SelectionModel model;
        SelectionLinker linker(&model);
        FigureView graph, matrix, chart, unrelated;
        graph.resize(400, 300);
        graph.setSpec(graphSpec("node", 6));
        matrix.setSpec(heatmapSpec("coupling", "node", "node", 6));
        chart.setSpec(chartSpec("node"));
        unrelated.setSpec(heatmapSpec("other", "state", "state", 6));
        for (FigureView* v : {&graph, &matrix, &chart, &unrelated})
            linker.addView(v);
        linker.addView(&graph); // twice: linked once
        QCOMPARE(linker.views().size(), 4);

        QTRY_VERIFY(!graph.graphView()->isLayoutPending()); // nodes exist once laid out
        graph.graphView()->selectNode(2);                   // a click on node 2
        QCOMPARE(model.indices(QStringLiteral("node")), (QVector<int>{2}));
        QCOMPARE(graph.displayedSpec().graph.linkedNodes, (QVector<int>{2}));
        QCOMPARE(matrix.displayedSpec().heatmap.linkedRows, (QVector<int>{2}));
        QCOMPARE(matrix.displayedSpec().heatmap.linkedCols, (QVector<int>{2}));
        QCOMPARE(chart.displayedSpec().chart.linkedPoints, (QVector<int>{2}));
        QVERIFY(unrelated.displayedSpec().heatmap.linkedRows.isEmpty());
        QVERIFY(matrix.spec().heatmap.linkedRows.isEmpty()); // the spec itself stays as built

        matrix.heatmapView()->selectCell(4, 1); // a cell = both of its nodes
        QCOMPARE(model.indices(QStringLiteral("node")), (QVector<int>{1, 4}));
        QCOMPARE(graph.displayedSpec().graph.linkedNodes, (QVector<int>{1, 4}));

        // A new spec of the same figure keeps the selection drawn.
        matrix.setSpec(heatmapSpec("coupling", "node", "node", 6));
        QCOMPARE(matrix.displayedSpec().heatmap.linkedRows, (QVector<int>{1, 4}));

        // Screenshot of the linked pair (node 1 and 4 ringed, rows/columns 1 and 4 banded).
        QWidget pair;
        auto* row = new QHBoxLayout(&pair);
        graph.setParent(&pair);
        matrix.setParent(&pair);
        row->addWidget(&graph);
        row->addWidget(&matrix);
        pair.resize(900, 420);
        pair.show();
        QTest::qWait(200);
        QVERIFY(pair.grab().save(QStringLiteral("linked-selection-graph.png")));
        row->removeWidget(&graph);
        row->removeWidget(&matrix);
        graph.setParent(nullptr);
        matrix.setParent(nullptr);

        QSignalSpy cleared(&model, &SelectionModel::changed);
        emit chart.linkedSelectionClearRequested(); // the context menu's "Clear linked selection"
        QCOMPARE(cleared.count(), 1);
        QVERIFY(model.selection().isEmpty());
        QVERIFY(graph.displayedSpec().graph.linkedNodes.isEmpty());
        QVERIFY(matrix.displayedSpec().heatmap.linkedRows.isEmpty());
        QVERIFY(chart.displayedSpec().chart.linkedPoints.isEmpty());
        QCOMPARE(chart.displayedSpec().chart.markers.size(), 0);
    }

    void ssnNashStrategiesAndPayoff() {
        JobRunner runner;
        MainWindow window(&m_pm, &runner);
        window.resize(1500, 950);
        window.show();
        QString err;
        PanelWidget* panel = window.openPanel(QStringLiteral("ssn-nash"), &err);
        QVERIFY2(panel, qPrintable(err));
        QSignalSpy shown(panel, &PanelWidget::resultShown);
        if (!panel->model()->result())
            QVERIFY(shown.wait(120000));
        SelectionModel* model = panel->selectionModel();
        QVERIFY(model);
        FigureArea* area = panel->figureArea();
        area->setLayoutMode(FigureLayoutMode::SideBySide,
                            {QStringLiteral("strategies"), QStringLiteral("payoff")});
        FigureGrid* grid = area->grid();
        FigureView* paneBars = grid->paneView(0);
        FigureView* panePayoff = grid->paneView(1);
        QCOMPARE(paneBars->spec().id, QStringLiteral("strategies"));
        QCOMPARE(panePayoff->spec().id, QStringLiteral("payoff"));
        QCOMPARE(paneBars->spec().selection.chartPoints, QStringLiteral("strategy"));
        QTest::qWait(100);

        // A real click on bar 1 of the strategies pane.
        QChart* chart = paneBars->chart();
        QVERIFY(chart);
        const QPointF inChart = chart->mapToPosition(QPointF(1.0, 0.0));
        const QPoint pos = paneBars->chartView()->mapFromScene(chart->mapToScene(inChart - QPointF(0, 4)));
        QTest::mouseClick(paneBars->chartView()->viewport(), Qt::LeftButton, {}, pos);
        QCOMPARE(model->indices(QStringLiteral("strategy")), (QVector<int>{1}));

        FigureView* tabBars = panel->figureView(QStringLiteral("strategies"));
        FigureView* tabPayoff = panel->figureView(QStringLiteral("payoff"));
        FigureView* tabGap = panel->figureView(QStringLiteral("gap_vs_iteration"));
        for (FigureView* v : {paneBars, tabBars})
            QCOMPARE(v->displayedSpec().chart.linkedPoints, (QVector<int>{1}));
        for (FigureView* v : {panePayoff, tabPayoff}) {
            QCOMPARE(v->displayedSpec().heatmap.linkedRows, (QVector<int>{1}));
            QCOMPARE(v->displayedSpec().heatmap.linkedCols, (QVector<int>{1}));
        }
        // A figure without the dimension is untouched.
        QVERIFY(tabGap->displayedSpec().chart.linkedPoints.isEmpty());
        QCOMPARE(tabGap->displayedSpec().chart.markers.size(), tabGap->spec().chart.markers.size());

        // A payoff cell (0, 2) selects strategies 0 and 2 everywhere, also in a pane shown later.
        tabPayoff->heatmapView()->selectCell(0, 2);
        QCOMPARE(model->indices(QStringLiteral("strategy")), (QVector<int>{0, 2}));
        QCOMPARE(paneBars->displayedSpec().chart.linkedPoints, (QVector<int>{0, 2}));
        QCOMPARE(panePayoff->displayedSpec().heatmap.linkedCols, (QVector<int>{0, 2}));
        grid->setPaneFigure(0, QStringLiteral("payoff"));
        QCOMPARE(grid->paneView(0)->displayedSpec().heatmap.linkedRows, (QVector<int>{0, 2}));
        grid->setPaneFigure(0, QStringLiteral("strategies"));
        QTest::qWait(100);
        QVERIFY(window.grab().save(QStringLiteral("linked-selection.png")));

        // The next run keeps the selection drawn on the new figures.
        QSignalSpy again(panel, &PanelWidget::resultShown);
        panel->model()->setSeed(panel->model()->seed() + 1);
        panel->model()->requestRun();
        QVERIFY(again.wait(120000));
        QCOMPARE(tabPayoff->displayedSpec().heatmap.linkedRows, (QVector<int>{0, 2}));

        // Clearing reaches every figure.
        emit panePayoff->linkedSelectionClearRequested();
        QVERIFY(model->selection().isEmpty());
        for (FigureView* v : {paneBars, tabBars})
            QVERIFY(v->displayedSpec().chart.linkedPoints.isEmpty());
        for (FigureView* v : {panePayoff, tabPayoff})
            QVERIFY(v->displayedSpec().heatmap.linkedRows.isEmpty());
    }

private:
    PluginManager m_pm;
};

QTEST_MAIN(TestLinkedSelection)
#include "tst_linked_selection.moc"
