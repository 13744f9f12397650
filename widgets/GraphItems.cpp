#include "GraphItems.h"

#include "GraphPainter.h"
#include "GraphView.h"

#include <QFontMetricsF>
#include <QPainter>
#include <QStyleOptionGraphicsItem>

namespace pl::gui {

GraphEdgeLayer::GraphEdgeLayer(GraphView* view) : m_view(view) {
    setFlag(ItemUsesExtendedStyleOption, true);
    setCacheMode(DeviceCoordinateCache);
    setZValue(-1);
    setAcceptedMouseButtons(Qt::NoButton);
    updateBounds();
}

void GraphEdgeLayer::updateBounds() {
    prepareGeometryChange();
    const QRectF b = GraphPainter::bounds(m_view->scenePositions());
    const double pad = std::max(1.0, 0.02 * std::max(b.width(), b.height()));
    m_bounds = b.adjusted(-pad, -pad, pad, pad);
}

void GraphEdgeLayer::paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget*) {
    ++m_paints;
    const QVector<QPointF>& scene = m_view->scenePositions();
    // Draw in device pixels: node radii, arrow heads and pen widths stay constant under zoom.
    const QTransform t = painter->worldTransform();
    QVector<QPointF> dev(scene.size());
    for (qsizetype i = 0; i < scene.size(); ++i)
        dev[i] = t.map(scene[i]);
    const QRectF clip = t.mapRect(option->exposedRect).adjusted(-40, -40, 40, 40);
    painter->save();
    painter->setWorldTransform(QTransform());
    GraphPainter::drawEdges(painter, m_view->spec(), m_view->style(), dev, clip,
                            m_view->selectedNodes() + m_view->spec().linkedNodes, m_view->isInteracting());
    painter->restore();
}

GraphNodeItem::GraphNodeItem(GraphView* view, int index) : m_view(view), m_index(index) {
    setFlags(ItemIsMovable | ItemIsSelectable | ItemIgnoresTransformations | ItemSendsGeometryChanges);
    setAcceptHoverEvents(true);
    // No pixmap cache: a node is one ellipse, cheaper to draw than to re-cache at every zoom
    // step (the device position moves by fractions of a pixel, which invalidates such caches).
    setCacheMode(NoCache);
    refresh();
}

void GraphNodeItem::refresh() {
    prepareGeometryChange();
    const double r = m_view->style().nodeRadius(m_index) + 3;
    double labelW = 0;
    if (GraphPainter::labelsShown(m_view->spec())) {
        const QString& label = m_view->spec().nodes[m_index].label;
        if (!label.isEmpty())
            labelW =
                QFontMetricsF(m_view->theme().font(Theme::FontRole::Annotation)).horizontalAdvance(label) + 6;
    }
    const double h = std::max(r, QFontMetricsF(m_view->theme().font(Theme::FontRole::Annotation)).height());
    m_bounds = QRectF(-r, -h, 2 * r + labelW, 2 * h);
    update();
}

QPainterPath GraphNodeItem::shape() const {
    QPainterPath p;
    const double r = std::max(4.0, m_view->style().nodeRadius(m_index) + 1);
    p.addEllipse(QPointF(0, 0), r, r);
    return p;
}

void GraphNodeItem::paint(QPainter* painter, const QStyleOptionGraphicsItem*, QWidget*) {
    painter->setRenderHint(QPainter::Antialiasing, true);
    GraphPainter::drawNode(painter, m_view->style(), m_index, QPointF(0, 0),
                           isSelected() || m_view->spec().linkedNodes.contains(m_index), m_hovered);
    if (GraphPainter::labelsShown(m_view->spec()))
        GraphPainter::drawLabel(painter, m_view->spec().nodes[m_index].label, QPointF(0, 0),
                                m_view->style().nodeRadius(m_index), m_view->theme());
}

QVariant GraphNodeItem::itemChange(GraphicsItemChange change, const QVariant& value) {
    if (change == ItemPositionHasChanged)
        m_view->onNodeMoved(m_index, value.toPointF());
    return QGraphicsItem::itemChange(change, value);
}

void GraphNodeItem::hoverEnterEvent(QGraphicsSceneHoverEvent* event) {
    m_hovered = true;
    setZValue(2);
    update();
    m_view->onNodeHover(m_index, true);
    QGraphicsItem::hoverEnterEvent(event);
}

void GraphNodeItem::hoverLeaveEvent(QGraphicsSceneHoverEvent* event) {
    m_hovered = false;
    setZValue(isSelected() ? 1 : 0);
    update();
    m_view->onNodeHover(m_index, false);
    QGraphicsItem::hoverLeaveEvent(event);
}

} // namespace pl::gui
