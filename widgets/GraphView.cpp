#include "GraphView.h"

#include "GraphItems.h"
#include "GraphLayoutProvider.h"
#include "GraphPainter.h"
#include "NiceScale.h"
#include "ThemeManager.h"

#include <QFontMetricsF>
#include <QGraphicsScene>
#include <QKeyEvent>
#include <QPainter>
#include <QPointer>
#include <QScrollBar>
#include <QSignalBlocker>
#include <QTimer>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

namespace pl::gui {

namespace {
constexpr double kMinZoom = 0.2;
constexpr double kMaxZoom = 60.0;
} // namespace

GraphView::GraphView(QWidget* parent) : QGraphicsView(parent), m_theme(Theme::current()) {
    m_pool.setMaxThreadCount(1);
    setScene(new QGraphicsScene(this));
    // Nodes ignore the view transform, so every zoom step would move all of them in a BSP index;
    // a linear scan for hover and clicks is cheaper at these sizes.
    scene()->setItemIndexMethod(QGraphicsScene::NoIndex);
    setRenderHints(QPainter::Antialiasing | QPainter::TextAntialiasing);
    // Overlays (title, legend, colour bar) are painted in viewport coordinates, so scrolling must
    // repaint instead of blitting; cached items make the full repaint cheap.
    setViewportUpdateMode(QGraphicsView::FullViewportUpdate);
    setOptimizationFlags(QGraphicsView::DontAdjustForAntialiasing);
    setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    setDragMode(QGraphicsView::ScrollHandDrag);
    setTransformationAnchor(QGraphicsView::AnchorUnderMouse);
    setFrameShape(QFrame::NoFrame);
    setFocusPolicy(Qt::StrongFocus);
    setMouseTracking(true);
    setAccessibleName(tr("Graph"));
    setBackgroundBrush(m_theme.chartBackground);
    connect(scene(), &QGraphicsScene::selectionChanged, this, &GraphView::onSelectionChanged);
    connect(ThemeManager::instance(), &ThemeManager::themeChanged, this, [this] {
        if (m_followTheme) {
            m_theme = Theme::current();
            restyle();
        }
    });
    connect(horizontalScrollBar(), &QScrollBar::sliderMoved, this, [this] { m_userZoomed = true; });
    m_settle = new QTimer(this);
    m_settle->setSingleShot(true);
    m_settle->setInterval(150);
    connect(m_settle, &QTimer::timeout, this, [this] {
        m_interacting = false;
        if (m_edges)
            m_edges->update(); // the antialiased frame
    });
}

void GraphView::beginInteraction() {
    if (!m_interacting) {
        m_interacting = true;
        if (m_edges)
            m_edges->update();
    }
    m_settle->start();
}

GraphView::~GraphView() {
    m_pool.clear();
    m_pool.waitForDone();
    const QSignalBlocker block(scene());
    m_nodes.clear();
    m_edges = nullptr;
    scene()->clear();
}

void GraphView::setTheme(const Theme& theme) {
    m_followTheme = false;
    m_theme = theme;
    restyle();
}

void GraphView::followApplicationTheme() {
    m_followTheme = true;
    m_theme = Theme::current();
    restyle();
}

void GraphView::setSpec(const GraphSpec& spec, const QString& title) {
    const quint64 key = GraphLayoutProvider::layoutKey(spec);
    const bool sameStructure = key == m_layoutKey && spec.nodes.size() == m_spec.nodes.size() &&
                               spec.edges.size() == m_spec.edges.size();
    m_spec = spec;
    m_title = title;
    m_style = GraphStyle(m_spec, m_theme);
    m_degree.fill(0, m_spec.nodes.size());
    for (const GraphEdgeSpec& e : m_spec.edges)
        if (e.source >= 0 && e.target >= 0 && e.source < m_degree.size() && e.target < m_degree.size()) {
            ++m_degree[e.source];
            ++m_degree[e.target];
        }
    if (sameStructure && (m_hasLayout || m_pending)) {
        restyle(); // keeps positions, dragged ones included; a pending layout still applies
        return;
    }
    m_layoutKey = key;
    ++m_generation;
    ++m_layoutRequests;
    m_pool.clear();
    QVector<QPointF> pos;
    if (spec.nodes.isEmpty() || spec.layout == GraphLayout::Given ||
        GraphLayoutProvider::cached(spec, &pos)) {
        if (pos.size() != spec.nodes.size())
            pos = GraphLayoutProvider::compute(spec);
        m_pending = false;
        applyLayout(pos);
        return;
    }
    m_pending = true;
    m_hasLayout = false;
    {
        const QSignalBlocker block(scene());
        m_nodes.clear();
        m_edges = nullptr;
        m_scenePts.clear();
        m_selected.clear();
        scene()->clear();
    }
    viewport()->update();
    const int generation = m_generation;
    m_pool.start([this, spec, generation] {
        const QVector<QPointF> p = GraphLayoutProvider::compute(spec);
        // `this` outlives the task: the destructor waits for the pool.
        QMetaObject::invokeMethod(
            this,
            [this, generation, p] {
                if (generation != m_generation)
                    return;
                m_pending = false;
                applyLayout(p);
            },
            Qt::QueuedConnection);
    });
}

void GraphView::applyLayout(const QVector<QPointF>& positions) {
    m_layout = positions;
    m_hasLayout = true;
    const QRectF b = GraphPainter::bounds(positions);
    const double extent = std::max(b.width(), b.height());
    m_sceneScale = extent > 0 ? 1000.0 / extent : 1.0;
    m_scenePts.resize(positions.size());
    for (qsizetype i = 0; i < positions.size(); ++i)
        m_scenePts[i] = positions[i] * m_sceneScale;
    rebuildItems();
    m_userZoomed = false;
    fitView();
    viewport()->update();
    emit layoutReady();
}

void GraphView::rebuildItems() {
    QGraphicsScene* s = scene();
    {
        const QSignalBlocker block(s);
        m_nodes.clear();
        m_edges = nullptr;
        m_selected.clear();
        s->clear();
    }
    if (m_scenePts.isEmpty())
        return;
    m_edges = new GraphEdgeLayer(this);
    s->addItem(m_edges);
    m_nodes.reserve(m_scenePts.size());
    m_building = true; // placing nodes is not a drag
    for (qsizetype i = 0; i < m_scenePts.size(); ++i) {
        auto* item = new GraphNodeItem(this, int(i));
        m_nodes.append(item);
        item->setPos(m_scenePts[i]);
        s->addItem(item);
    }
    m_building = false;
    // A generous scene rectangle so that centring and panning are never clamped.
    const QRectF b = m_edges->boundingRect();
    const double pad = 20 * std::max({b.width(), b.height(), 1.0});
    s->setSceneRect(b.adjusted(-pad, -pad, pad, pad));
}

void GraphView::restyle() {
    m_style = GraphStyle(m_spec, m_theme);
    setBackgroundBrush(m_theme.chartBackground);
    for (GraphNodeItem* n : m_nodes)
        n->refresh();
    if (m_edges)
        m_edges->update();
    if (!m_userZoomed)
        fitView(); // the legend or colour bar may have changed size
    viewport()->update();
}

void GraphView::fitView() {
    if (!m_hasLayout || m_layout.isEmpty())
        return;
    GraphPainter::Options o;
    o.title = m_title;
    const QRectF vp = viewport()->rect();
    const GraphPainter::Layout L = GraphPainter::layout(m_spec, m_style, m_layout, m_theme, vp, o);
    if (!L.valid)
        return;
    const double k = L.toPlot.m11() / m_sceneScale; // viewport px per scene unit
    m_fitScale = k;
    setTransform(QTransform::fromScale(k, k));
    bool ok = false;
    const QTransform inv = L.toPlot.inverted(&ok);
    if (ok)
        centerOn(inv.map(vp.center()) * m_sceneScale);
}

void GraphView::resetZoom() {
    m_userZoomed = false;
    fitView();
    viewport()->update();
}

void GraphView::zoomBy(double factor) {
    if (!(factor > 0))
        return;
    const double z = std::clamp(zoomLevel() * factor, kMinZoom, kMaxZoom);
    const double f = z / zoomLevel();
    const ViewportAnchor anchor = transformationAnchor();
    setTransformationAnchor(QGraphicsView::AnchorViewCenter);
    beginInteraction();
    scale(f, f);
    setTransformationAnchor(anchor);
    m_userZoomed = true;
}

double GraphView::zoomLevel() const {
    return m_fitScale > 0 ? transform().m11() / m_fitScale : 1.0;
}

int GraphView::edgePaintCount() const {
    return m_edges ? m_edges->paintCount() : 0;
}

QVector<QPointF> GraphView::positions() const {
    QVector<QPointF> out(m_scenePts.size());
    for (qsizetype i = 0; i < m_scenePts.size(); ++i)
        out[i] = m_scenePts[i] / m_sceneScale;
    return out;
}

QPointF GraphView::nodeViewportPosition(int i) const {
    if (i < 0 || i >= m_scenePts.size())
        return {};
    return QPointF(mapFromScene(m_scenePts[i]));
}

int GraphView::nodeAt(const QPoint& viewportPos) const {
    for (QGraphicsItem* item : items(viewportPos))
        if (auto* n = dynamic_cast<GraphNodeItem*>(item))
            return n->index();
    return -1;
}

void GraphView::selectNode(int i) {
    scene()->clearSelection();
    if (i >= 0 && i < m_nodes.size())
        m_nodes[i]->setSelected(true);
}

QString GraphView::describeNode(int i) const {
    if (i < 0 || i >= m_spec.nodes.size())
        return {};
    const GraphNodeSpec& n = m_spec.nodes[i];
    QStringList parts;
    parts << (n.id.isEmpty() ? tr("node %1").arg(i) : n.id);
    if (!n.label.isEmpty() && n.label != n.id)
        parts << QStringLiteral("“%1”").arg(n.label);
    if (!n.group.isEmpty())
        parts << n.group;
    if (std::isfinite(n.value))
        parts << (m_spec.colorTitle.isEmpty() ? tr("value") : m_spec.colorTitle) + QStringLiteral(" ") +
                     NiceScale::formatValue(n.value);
    parts << tr("degree %1").arg(m_degree.value(i));
    return parts.join(QStringLiteral(" · "));
}

void GraphView::onNodeMoved(int index, const QPointF& scenePos) {
    if (m_building || index < 0 || index >= m_scenePts.size() || index >= m_nodes.size())
        return; // during rebuildItems()
    m_scenePts[index] = scenePos;
    beginInteraction();
    if (m_edges) {
        m_edges->updateBounds();
        m_edges->update();
    }
    emit nodeMoved(index, scenePos / m_sceneScale);
}

void GraphView::onNodeHover(int index, bool entered) {
    const QString text = entered ? describeNode(index) : QString();
    if (text != m_hoverText) {
        m_hoverText = text;
        emit hoverTextChanged(text);
    }
    emit nodeHovered(entered ? index : -1);
}

void GraphView::onSelectionChanged() {
    QVector<int> sel;
    for (GraphNodeItem* n : m_nodes)
        if (n->isSelected()) {
            sel.append(n->index());
            n->setZValue(1);
        } else if (n->zValue() == 1) {
            n->setZValue(0);
        }
    if (sel == m_selected)
        return;
    m_selected = sel;
    if (m_edges)
        m_edges->update();
    emit nodeSelected(selectedNode());
}

void GraphView::wheelEvent(QWheelEvent* event) {
    const double steps = event->angleDelta().y() / 120.0;
    if (steps == 0 || !m_hasLayout) {
        event->ignore();
        return;
    }
    const double z = std::clamp(zoomLevel() * std::pow(1.15, steps), kMinZoom, kMaxZoom);
    const double f = z / zoomLevel();
    setTransformationAnchor(QGraphicsView::AnchorUnderMouse);
    beginInteraction();
    scale(f, f);
    m_userZoomed = true;
    event->accept();
}

void GraphView::keyPressEvent(QKeyEvent* event) {
    switch (event->key()) {
    case Qt::Key_0:
    case Qt::Key_Home:
        resetZoom();
        return;
    case Qt::Key_Plus:
    case Qt::Key_Equal:
        zoomBy(1.25);
        return;
    case Qt::Key_Minus:
        zoomBy(0.8);
        return;
    default:
        QGraphicsView::keyPressEvent(event);
    }
}

void GraphView::mouseDoubleClickEvent(QMouseEvent* event) {
    if (nodeAt(event->position().toPoint()) < 0) {
        resetZoom();
        event->accept();
        return;
    }
    QGraphicsView::mouseDoubleClickEvent(event);
}

void GraphView::resizeEvent(QResizeEvent* event) {
    QGraphicsView::resizeEvent(event);
    if (!m_userZoomed)
        fitView();
}

void GraphView::drawForeground(QPainter* painter, const QRectF&) {
    painter->save();
    painter->resetTransform(); // viewport coordinates
    painter->setRenderHint(QPainter::Antialiasing, true);
    painter->setRenderHint(QPainter::TextAntialiasing, true);
    const QRectF vp = viewport()->rect();
    if (m_pending || m_spec.nodes.isEmpty()) {
        painter->setPen(m_theme.mutedText);
        painter->setFont(m_theme.font(Theme::FontRole::AxisTitle));
        painter->drawText(vp, Qt::AlignCenter,
                          m_pending ? tr("Laying out %1 nodes…").arg(m_spec.nodes.size()) : tr("No nodes"));
    }
    if (m_hasLayout && !m_layout.isEmpty()) {
        GraphPainter::Options o;
        o.title = m_title;
        const GraphPainter::Layout L = GraphPainter::layout(m_spec, m_style, m_layout, m_theme, vp, o);
        if (!m_title.isEmpty()) {
            painter->setFont(m_theme.font(Theme::FontRole::Title));
            painter->setPen(m_theme.chartText);
            painter->drawText(L.title, Qt::AlignCenter, m_title);
        }
        GraphPainter::drawLegend(painter, m_spec, m_style, m_theme, L.legend);
        if (!L.colorBar.isEmpty())
            GraphPainter::drawColorBar(painter, m_spec, m_style, m_theme, L.colorBar);
    }
    painter->restore();
}

} // namespace pl::gui
