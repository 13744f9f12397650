#include "FigureView.h"

#include "AbstractSceneView.h"
#include "ChartBuilder.h"
#include "GraphView.h"
#include "HeatmapView.h"
#include "SceneRendererRegistry.h"
#include "ThemeManager.h"

#include <QApplication>
#include <QChart>
#include <QChartView>
#include <QClipboard>
#include <QContextMenuEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QGuiApplication>
#include <QLabel>
#include <QMenu>
#include <QMessageBox>
#include <QMouseEvent>
#include <QRegularExpression>
#include <QStackedLayout>
#include <QTimer>
#include <QVBoxLayout>

#include <cmath>

namespace pl::gui {

namespace {

QString defaultBaseName(const FigureSpec& spec) {
    QString base = spec.id.isEmpty() ? QStringLiteral("figure") : spec.id;
    base.replace(QRegularExpression(QStringLiteral("[^A-Za-z0-9._-]+")), QStringLiteral("_"));
    return base;
}

} // namespace

FigureView::FigureView(QWidget* parent) : QWidget(parent) {
    auto* outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    outer->setSpacing(2);
    auto* host = new QWidget(this);
    m_stack = new QStackedLayout(host);
    m_stack->setContentsMargins(0, 0, 0, 0);

    m_chartView = new QChartView(host);
    m_chartView->setRenderHint(QPainter::Antialiasing);
    m_chartView->setRenderHint(QPainter::TextAntialiasing);
    m_chartView->setFrameShape(QFrame::NoFrame);
    m_chartView->setContextMenuPolicy(Qt::NoContextMenu); // ours, from contextMenuEvent
    m_chartView->setAccessibleName(tr("Chart"));
    m_heatmap = new HeatmapView(host);
    m_heatmap->setContextMenuPolicy(Qt::NoContextMenu);
    m_graph = new GraphView(host);
    m_graph->setContextMenuPolicy(Qt::NoContextMenu);
    m_note = new QLabel(host);
    m_note->setAlignment(Qt::AlignCenter);
    m_note->setWordWrap(true);
    m_stack->addWidget(m_chartView);
    m_stack->addWidget(m_heatmap);
    m_stack->addWidget(m_graph);
    m_stack->addWidget(m_note);
    outer->addWidget(host, 1);

    m_caption = new QLabel(this);
    m_caption->setWordWrap(true);
    m_caption->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_caption->setContentsMargins(6, 0, 6, 4);
    outer->addWidget(m_caption);

    m_resizeTimer = new QTimer(this);
    m_resizeTimer->setSingleShot(true);
    m_resizeTimer->setInterval(120);
    connect(m_resizeTimer, &QTimer::timeout, this, [this] {
        if (m_chart)
            ChartBuilder::updatePlotSize(m_chart, m_chart->plotArea().size().toSize());
    });
    connect(m_heatmap, &HeatmapView::cellSelected, this, &FigureView::cellSelected);
    connect(m_heatmap, &HeatmapView::hoverTextChanged, this, [this](const QString& t) { updateCaption(t); });
    connect(m_graph, &GraphView::nodeSelected, this, &FigureView::nodeSelected);
    // Linked selection: clicks in a figure that declares a dimension are published.
    connect(m_heatmap, &HeatmapView::cellSelected, this, [this](int row, int col) {
        const SelectionDims& d = m_spec.selection;
        if (m_spec.kind != FigureKind::Heatmap || (d.heatmapRows.isEmpty() && d.heatmapCols.isEmpty()))
            return;
        SelectionMap picks = selectionForCell(m_spec, row, col);
        if (picks.isEmpty()) // cleared
            for (const QString& dim : {d.heatmapRows, d.heatmapCols})
                if (!dim.isEmpty())
                    picks.insert(dim, {});
        emit selectionPicked(picks, QGuiApplication::keyboardModifiers() & Qt::ControlModifier);
    });
    connect(m_graph, &GraphView::nodeSelected, this, [this](int) {
        if (m_spec.kind == FigureKind::Graph && !m_spec.selection.graphNodes.isEmpty())
            emit selectionPicked({{m_spec.selection.graphNodes, m_graph->selectedNodes()}}, false);
    });
    m_chartView->viewport()->installEventFilter(this);
    connect(m_graph, &GraphView::hoverTextChanged, this, [this](const QString& t) { updateCaption(t); });
    connect(ThemeManager::instance(), &ThemeManager::themeChanged, this, &FigureView::restyle);
    m_stack->setCurrentWidget(m_note);
    m_note->setText(tr("No figure"));
    restyle();
}

FigureView::~FigureView() = default;

void FigureView::setSpec(const FigureSpec& spec) {
    FigureSpec old = std::move(m_shown);
    m_spec = spec;
    m_shown = spec.selection.isEmpty() ? spec : withLinkedSelection(spec, m_linked);
    setAccessibleName(spec.title.isEmpty() ? spec.id : spec.title);
    setAccessibleDescription(spec.caption);
    if (!isVisible()) {
        // Hidden (a tab behind others, the panes of a layout not shown): draw when shown. Only
        // the first deferred call keeps what was drawn, which decides chart reuse then.
        if (!m_renderPending)
            m_pendingOld = std::move(old);
        m_renderPending = true;
        updateCaption();
        return;
    }
    if (m_renderPending) { // shown, but not drawn since: compare with what was drawn
        old = std::move(m_pendingOld);
        m_renderPending = false;
    }
    render(old);
}

void FigureView::ensureRendered() const {
    if (!m_renderPending)
        return;
    auto* self = const_cast<FigureView*>(this);
    self->m_renderPending = false;
    const FigureSpec old = std::move(self->m_pendingOld);
    self->render(old);
}

void FigureView::showEvent(QShowEvent* event) {
    QWidget::showEvent(event);
    ensureRendered();
}

QChart* FigureView::chart() const {
    ensureRendered();
    return m_chart;
}

QChartView* FigureView::chartView() const {
    ensureRendered();
    return m_chartView;
}

HeatmapView* FigureView::heatmapView() const {
    ensureRendered();
    return m_heatmap;
}

GraphView* FigureView::graphView() const {
    ensureRendered();
    return m_graph;
}

AbstractSceneView* FigureView::sceneView() const {
    ensureRendered();
    return m_scene;
}

int FigureView::chartRebuildCount() const {
    ensureRendered();
    return m_rebuilds;
}

void FigureView::setLinkedSelection(const SelectionMap& selection) {
    m_linked = selection;
    if (m_spec.selection.isEmpty())
        return;
    if (m_renderPending) { // drawn with the selection when shown
        m_shown = withLinkedSelection(m_spec, m_linked);
        return;
    }
    const FigureSpec old = m_shown;
    m_shown = withLinkedSelection(m_spec, m_linked);
    if (m_spec.message.isEmpty() && m_spec.kind == FigureKind::Heatmap) {
        if (old.heatmap.linkedRows != m_shown.heatmap.linkedRows ||
            old.heatmap.linkedCols != m_shown.heatmap.linkedCols)
            m_heatmap->setSpec(m_shown.heatmap, m_heatmap->image(), m_shown.title); // same colours
        return;
    }
    const bool same = old.chart.linkedPoints == m_shown.chart.linkedPoints &&
                      old.graph.linkedNodes == m_shown.graph.linkedNodes &&
                      old.scene.linkedSpheres == m_shown.scene.linkedSpheres;
    if (!same)
        render(old);
}

void FigureView::render(const FigureSpec& old) {
    const FigureSpec& spec = m_shown;
    if (!spec.message.isEmpty()) {
        m_note->setText(spec.message);
        m_stack->setCurrentWidget(m_note);
        updateCaption();
        return;
    }
    switch (spec.kind) {
    case FigureKind::Chart: {
        const bool reuse =
            m_chart && old.kind == FigureKind::Chart && ChartBuilder::sameStructure(old.chart, spec.chart);
        showChart(!reuse);
        break;
    }
    case FigureKind::Heatmap:
        m_heatmap->setSpec(spec.heatmap, spec.title);
        m_stack->setCurrentWidget(m_heatmap);
        break;
    case FigureKind::Graph:
        m_graph->setSpec(spec.graph, spec.title);
        m_stack->setCurrentWidget(m_graph);
        break;
    case FigureKind::Scene3D:
        if (!m_scene && SceneRendererRegistry::hasViewFactory()) {
            m_scene = SceneRendererRegistry::createView(m_stack->parentWidget());
            if (m_scene) {
                m_scene->setContextMenuPolicy(Qt::NoContextMenu);
                m_stack->addWidget(m_scene);
                connect(m_scene, &AbstractSceneView::hoverTextChanged, this,
                        [this](const QString& t) { updateCaption(t); });
                connect(m_scene, &AbstractSceneView::picked, this,
                        [this](const QString& item, int element) { onScenePicked(item, element); });
            }
        }
        if (m_scene) {
            // Same figure again (new data): keep the user's camera.
            const bool sameFigure = old.kind == FigureKind::Scene3D && old.id == spec.id && !old.id.isEmpty();
            m_scene->setScene(spec.scene, spec.title, !sameFigure);
            m_stack->setCurrentWidget(m_scene);
        } else {
            m_note->setText(
                tr("“%1” is a 3D figure, but this program was built without its 3D views.").arg(spec.title));
            m_stack->setCurrentWidget(m_note);
        }
        break;
    }
    updateCaption();
}

void FigureView::showChart(bool rebuild) {
    const QSize plotPx = m_chart ? m_chart->plotArea().size().toSize()
                                 : QSize(std::max(200, width() - 90), std::max(120, height() - 120));
    if (!rebuild && ChartBuilder::updateData(m_chart, m_shown.chart, plotPx)) {
        ChartBuilder::setTitle(m_chart, m_shown.title);
    } else {
        QChart* chart = ChartBuilder::build(m_shown, Theme::current(), plotPx);
        QChart* old = m_chartView->chart();
        m_chartView->setChart(chart); // the view owns the new chart ...
        m_chart = chart;
        delete old; // ... and releases (does not delete) the previous one
        ++m_rebuilds;
    }
    m_stack->setCurrentWidget(m_chartView);
}

void FigureView::restyle() {
    const Theme& t = Theme::current();
    if (m_chart)
        ChartBuilder::applyTheme(m_chart, t);
    QPalette pal = palette();
    pal.setColor(QPalette::Window, t.chartBackground);
    pal.setColor(QPalette::WindowText, t.mutedText);
    setAutoFillBackground(true);
    setPalette(pal);
    m_chartView->setBackgroundBrush(t.chartBackground);
    updateCaption();
}

void FigureView::updateCaption(const QString& hover) {
    const QString text = hover.isEmpty() ? m_spec.caption : hover;
    m_caption->setText(text);
    m_caption->setVisible(m_captionVisible && !text.isEmpty());
}

void FigureView::setCaptionVisible(bool visible) {
    m_captionVisible = visible;
    updateCaption();
}

void FigureView::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    if (m_chart)
        m_resizeTimer->start(); // re-decimate for the new width once resizing settles
}

QImage FigureView::snapshot(qreal dpr) const {
    return FigureExporter::renderToImage(m_shown, size(), dpr, Theme::current());
}

void FigureView::contextMenuEvent(QContextMenuEvent* event) {
    QMenu menu(this);
    const bool drawable = m_spec.kind != FigureKind::Scene3D || SceneRendererRegistry::hasRenderer();
    QAction* fig = menu.addAction(tr("Export figure…"), this, &FigureView::exportFigureInteractive);
    menu.addAction(tr("Export data…"), this, &FigureView::exportDataInteractive);
    QAction* copy = menu.addAction(tr("Copy image"), this, &FigureView::copyImage);
    fig->setEnabled(drawable);
    copy->setEnabled(drawable);
    if (m_spec.kind == FigureKind::Heatmap) {
        menu.addSeparator();
        menu.addAction(tr("Reset zoom"), m_heatmap, &HeatmapView::resetZoom);
    } else if (m_spec.kind == FigureKind::Graph) {
        menu.addSeparator();
        menu.addAction(tr("Reset zoom"), m_graph, &GraphView::resetZoom);
    } else if (m_spec.kind == FigureKind::Scene3D && m_scene) {
        menu.addSeparator();
        menu.addAction(tr("Reset camera"), m_scene, &AbstractSceneView::resetCamera);
    }
    if (!m_spec.selection.isEmpty()) {
        menu.addSeparator();
        QAction* clear =
            menu.addAction(tr("Clear linked selection"), this, &FigureView::linkedSelectionClearRequested);
        clear->setEnabled(!m_linked.isEmpty());
    }
    menu.exec(event->globalPos());
}

bool FigureView::eventFilter(QObject* watched, QEvent* event) {
    if (watched != m_chartView->viewport() || m_spec.selection.chartPoints.isEmpty() ||
        m_spec.kind != FigureKind::Chart)
        return QWidget::eventFilter(watched, event);
    if (event->type() == QEvent::MouseButtonPress) {
        auto* me = static_cast<QMouseEvent*>(event);
        if (me->button() == Qt::LeftButton)
            m_chartPress = me->position().toPoint();
    } else if (event->type() == QEvent::MouseButtonRelease) {
        auto* me = static_cast<QMouseEvent*>(event);
        const QPoint pos = me->position().toPoint();
        if (me->button() == Qt::LeftButton && (pos - m_chartPress).manhattanLength() <= 4) {
            const int k = chartIndexAt(pos);
            if (k >= 0)
                emit selectionPicked({{m_spec.selection.chartPoints, {k}}},
                                     me->modifiers() & Qt::ControlModifier);
        }
        m_chartPress = QPoint(-1, -1);
    }
    return QWidget::eventFilter(watched, event);
}

int FigureView::chartIndexAt(const QPoint& pos) const {
    if (!m_chart || m_spec.chart.series.isEmpty() || m_chart->series().isEmpty())
        return -1;
    const QPointF inChart = m_chart->mapFromScene(m_chartView->mapToScene(pos));
    if (!m_chart->plotArea().contains(inChart))
        return -1;
    const double x = m_chart->mapToValue(inChart).x();
    const SeriesSpec& s = m_spec.chart.series.first();
    if (s.style == SeriesSpec::Style::Bars && !m_spec.chart.categories.isEmpty()) {
        const int k = int(std::lround(x));
        return k >= 0 && k < m_spec.chart.categories.size() ? k : -1;
    }
    int best = -1;
    double bestDist = 0;
    for (qsizetype k = 0; k < s.x.size(); ++k) {
        const double d = std::abs(s.x[k] - x);
        if (std::isfinite(d) && (best < 0 || d < bestDist)) {
            best = int(k);
            bestDist = d;
        }
    }
    return best;
}

void FigureView::onScenePicked(const QString& item, int element) {
    const QString& dim = m_spec.selection.sceneSpheres;
    if (dim.isEmpty() || m_spec.scene.spheres.isEmpty() || element < 0)
        return;
    const QString& name = m_spec.scene.spheres.first().style.name;
    int k = -1;
    if (item == QLatin1String("spheres 0") || (!name.isEmpty() && item == name))
        k = element;
    else if (item == QLatin1String("selected") && element < m_shown.scene.linkedSpheres.size())
        k = m_shown.scene.linkedSpheres[element]; // a click on the selection shell
    if (k >= 0)
        emit selectionPicked({{dim, {k}}}, QGuiApplication::keyboardModifiers() & Qt::ControlModifier);
}

void FigureView::exportFigureInteractive() {
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Export figure"), defaultBaseName(m_spec) + QStringLiteral(".png"),
        tr("PNG image (*.png);;SVG vector image (*.svg);;PDF document (*.pdf)"));
    if (path.isEmpty())
        return;
    QString error;
    QString target = path;
    if (!FigureExporter::figureSuffixes().contains(QFileInfo(path).suffix().toLower()))
        target += QStringLiteral(".png");
    if (!FigureExporter::exportFile(m_shown, target, m_exportOptions, &error))
        QMessageBox::warning(this, tr("Export figure"), error);
}

void FigureView::exportDataInteractive() {
    const QString path = QFileDialog::getSaveFileName(this, tr("Export data"),
                                                      defaultBaseName(m_spec) + QStringLiteral(".csv"),
                                                      tr("CSV table (*.csv);;JSON (*.json)"));
    if (path.isEmpty())
        return;
    QString error;
    QString target = path;
    if (!FigureExporter::dataSuffixes().contains(QFileInfo(path).suffix().toLower()))
        target += QStringLiteral(".csv");
    if (!FigureExporter::exportDataFile(m_spec, target, &error))
        QMessageBox::warning(this, tr("Export data"), error);
}

void FigureView::copyImage() {
    // Export look (theme, fonts) at the on-screen aspect ratio, 2x for crisp pasting.
    const QSize logical = size().isEmpty() ? QSize(672, 432) : size();
    const QImage img = FigureExporter::renderToImage(m_shown, logical, 2.0, m_exportOptions.theme);
    if (!img.isNull())
        QApplication::clipboard()->setImage(img);
}

} // namespace pl::gui
