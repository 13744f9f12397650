// Linked selection (issue 34): the SelectionModel (normalised index sets per dimension, one
// changed() per action, clearing), how a figure draws a selection (withLinkedSelection for every
// kind), and the panel wiring: a pick published by one figure reaches every figure of the panel
// that shares the dimension (tabs and FigureGrid panes), checked on the views' displayed specs,
// and not the others; clearing reaches them all. Real panel: ssn-nash (strategies bars + payoff
// heatmap); a graph + matrix pair is checked on views linked by hand; the wave-1 panels that
// declare dimensions agree on their sizes. Screenshots: linked-selection.png and
// linked-selection-graph.png in the working directory.
#include "gui/FigureArea.h"
#include "gui/FigureGrid.h"
#include "gui/MainWindow.h"
#include "gui/PanelWidget.h"
#include "gui/SelectionLinker.h"
#include "sdk/JobRunner.h"
#include "sdk/PanelModel.h"
#include "sdk/PaperPlugin.h"
#include "sdk/PluginInfo.h"
#include "sdk/PluginManager.h"
#include "sdk/SelectionModel.h"
#include "sdk/figure/LinkedSelection.h"
#include "widgets/AbstractSceneView.h"
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

/// How many indices figure \a f has in dimension \a dim (-1: it does not declare it).
int extent(const FigureSpec& f, const QString& dim) {
    const SelectionDims& d = f.selection;
    if (!f.message.isEmpty())
        return -1;
    if (f.kind == FigureKind::Heatmap && d.heatmapRows == dim)
        return f.heatmap.rows;
    if (f.kind == FigureKind::Heatmap && d.heatmapCols == dim)
        return f.heatmap.cols;
    if (f.kind == FigureKind::Graph && d.graphNodes == dim)
        return int(f.graph.nodes.size());
    if (f.kind == FigureKind::Chart && d.chartPoints == dim && !f.chart.series.isEmpty())
        return f.chart.categories.isEmpty() ? int(f.chart.series.first().x.size())
                                            : int(f.chart.categories.size());
    if (f.kind == FigureKind::Scene3D && d.sceneSpheres == dim && !f.scene.spheres.isEmpty())
        return int(f.scene.spheres.first().centers.size());
    return -1;
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
        QVERIFY(shown.scene.spheres[1].radii[0] > 1.0);
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

    /// Protein residues: a residue published in the model reaches the 3D view (a shell around
    /// sphere k of the first model) and the per-residue plot. Under Xvfb with GL the 3D view is
    /// saved as linked-selection-3d.png.
    void proteinResidueIn3d() {
        if (!m_pm.info(QStringLiteral("promise-protein-states")))
            QSKIP("panel not built");
        JobRunner runner;
        MainWindow window(&m_pm, &runner);
        window.resize(1300, 850);
        window.show();
        QString err;
        PanelWidget* panel = window.openPanel(QStringLiteral("promise-protein-states"), &err);
        QVERIFY2(panel, qPrintable(err));
        QSignalSpy shown(panel, &PanelWidget::resultShown);
        if (!panel->model()->result())
            QVERIFY(shown.wait(120000));
        panel->showFigure(QStringLiteral("structure3d"));
        panel->selectionModel()->select(QStringLiteral("residue"), {5, 20});
        FigureView* scene = panel->figureView(QStringLiteral("structure3d"));
        FigureView* plot = panel->figureView(QStringLiteral("per_residue"));
        QCOMPARE(scene->displayedSpec().scene.linkedSpheres, (QVector<int>{5, 20}));
        QCOMPARE(scene->displayedSpec().scene.spheres.last().style.name, QStringLiteral("selected"));
        QCOMPARE(scene->displayedSpec().scene.spheres.size(), scene->spec().scene.spheres.size() + 1);
        QCOMPARE(plot->displayedSpec().chart.linkedPoints, (QVector<int>{5, 20}));
        QTest::qWait(200);
        if (AbstractSceneView* v = scene->sceneView()) {
            const QImage img = v->grabScene();
            if (!img.isNull())
                QVERIFY(img.save(QStringLiteral("linked-selection-3d.png")));
        }
        panel->selectionModel()->clear();
        QCOMPARE(scene->displayedSpec().scene.spheres.size(), scene->spec().scene.spheres.size());
    }

    /// The wave-1 panels that declare shared dimensions: every listed figure declares the
    /// dimension on the paper defaults and all agree on its size (index k is the same thing).
    void panelsShareDimensions_data() {
        QTest::addColumn<QString>("panel");
        QTest::addColumn<QString>("dim");
        QTest::addColumn<QStringList>("figures");
        QTest::newRow("ssn-nash") << "ssn-nash"
                                  << "strategy" << QStringList{"strategies", "payoff"};
        QTest::newRow("torus-graph") << "torus-graph"
                                     << "channel" << QStringList{"coupling_network", "coupling_heatmap"};
        QTest::newRow("tilesparse") << "tilesparse"
                                    << "head group"
                                    << QStringList{"attention_mass", "selected_k_only", "selected_qk2d",
                                                   "selected_tiered"};
        QTest::newRow("protein") << "promise-protein-states"
                                 << "residue" << QStringList{"structure3d", "per_residue"};
        QTest::newRow("keypoints") << "bottleneck-keypoints"
                                   << "maze column"
                                   << QStringList{"clusters", "eigvec_1", "eigvec_2", "eigvec_3"};
    }

    void panelsShareDimensions() {
        QFETCH(QString, panel);
        QFETCH(QString, dim);
        QFETCH(QStringList, figures);
        const PluginInfo* info = m_pm.info(panel);
        if (!info)
            QSKIP("panel not built");
        QString err;
        IPaperPlugin* plugin = m_pm.load(panel, &err);
        QVERIFY2(plugin, qPrintable(err));
        JobRunner runner;
        PanelModel model(*info, plugin, &runner);
        if (info->preset(QStringLiteral("paper defaults")))
            QVERIFY2(model.applyPreset(QStringLiteral("paper defaults"), &err), qPrintable(err));
        model.setSeed(7);
        RunContext ctx(model.seed(), 2);
        const ResultDocument d = model.runBlocking(ctx);
        int size = -1;
        for (const QString& id : figures) {
            const FigureSpec f = plugin->buildFigure(id, d);
            QVERIFY2(selectionDimensions(f).contains(dim), qPrintable(id));
            const int n = extent(f, dim);
            QVERIFY2(n > 0, qPrintable(id));
            if (size < 0)
                size = n;
            QCOMPARE(n, size);
            // Index 0 is drawn in this figure.
            const FigureSpec shown = withLinkedSelection(f, {{dim, {0}}});
            QVERIFY(!(shown.heatmap.linkedRows.isEmpty() && shown.heatmap.linkedCols.isEmpty() &&
                      shown.graph.linkedNodes.isEmpty() && shown.chart.linkedPoints.isEmpty() &&
                      shown.scene.linkedSpheres.isEmpty()));
        }
    }

private:
    PluginManager m_pm;
};

QTEST_MAIN(TestLinkedSelection)
#include "tst_linked_selection.moc"
