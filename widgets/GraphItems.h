#pragma once
/// Scene items of GraphView: one GraphEdgeLayer that draws every edge in one pass (batched by
/// pen, device-coordinate cached, so panning never repaints edges) and one GraphNodeItem per node
/// (fixed pixel size at any zoom, movable, selectable, hoverable, cached). Both read the view's
/// positions and style; they never own graph data. GUI thread.

#include <QGraphicsItem>
#include <QVector>

namespace pl::gui {

class GraphView;

class GraphEdgeLayer : public QGraphicsItem {
public:
    explicit GraphEdgeLayer(GraphView* view);
    QRectF boundingRect() const override { return m_bounds; }
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;
    /// Recomputes the bounding box from the view's scene positions (after layout or a drag).
    void updateBounds();
    /// Number of paint() calls (for tests and the benchmark: cache hits do not paint).
    int paintCount() const { return m_paints; }

private:
    GraphView* m_view;
    QRectF m_bounds;
    int m_paints = 0;
};

class GraphNodeItem : public QGraphicsItem {
public:
    GraphNodeItem(GraphView* view, int index);
    int index() const { return m_index; }
    QRectF boundingRect() const override { return m_bounds; }
    QPainterPath shape() const override;
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;
    /// Re-reads radius and label extent from the view (after a style change).
    void refresh();

protected:
    QVariant itemChange(GraphicsItemChange change, const QVariant& value) override;
    void hoverEnterEvent(QGraphicsSceneHoverEvent* event) override;
    void hoverLeaveEvent(QGraphicsSceneHoverEvent* event) override;

private:
    GraphView* m_view;
    int m_index;
    QRectF m_bounds;
    bool m_hovered = false;
};

} // namespace pl::gui
