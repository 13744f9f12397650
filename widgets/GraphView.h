#pragma once
/// Interactive graph figure on a QGraphicsScene: nodes sized and coloured from the spec, edges
/// with width, colour, dashes and arrows, labels, legend, colour bar and title (same look as the
/// export, GraphPainter). Hover shows a read-out, click selects (Ctrl adds), nodes can be dragged,
/// the wheel zooms around the cursor, dragging the background pans, double-click on the
/// background or key 0 fits the graph again. The layout (GraphLayoutProvider) runs on a private
/// worker thread; it is computed once per graph structure, so restyling, zooming and panning never
/// lay out again. Edges are drawn in one device-cached pass (panning only blits), and zoom / drag
/// frames draw a cheaper aliased subset until the view settles: thousands of edges stay fluid.
/// GUI thread.

#include "sdk/figure/FigureSpec.h"
#include "widgets/GraphStyle.h"
#include "widgets/Theme.h"

#include <QGraphicsView>
#include <QThreadPool>
#include <QVector>

class QTimer;

namespace pl::gui {

class GraphEdgeLayer;
class GraphNodeItem;

class GraphView : public QGraphicsView {
    Q_OBJECT
public:
    explicit GraphView(QWidget* parent = nullptr);
    ~GraphView() override; ///< waits for a running layout (bounded by its iteration count)

    /// Shows \a spec. When the structure (nodes, edges, layout, seed) is unchanged only the style
    /// is updated and node positions (dragged ones included) are kept; otherwise the layout is
    /// recomputed off the GUI thread (synchronously when it is "given" or already cached).
    void setSpec(const GraphSpec& spec, const QString& title = {});
    const GraphSpec& spec() const { return m_spec; }
    const QString& title() const { return m_title; }
    /// Uses \a theme instead of following Theme::current().
    void setTheme(const Theme& theme);
    void followApplicationTheme();
    const Theme& theme() const { return m_theme; }
    const GraphStyle& style() const { return m_style; }

    /// True while the layout is being computed.
    bool isLayoutPending() const { return m_pending; }
    /// How many layouts this view asked for (for tests: restyling must not add any).
    int layoutRequests() const { return m_layoutRequests; }
    /// Node positions in layout units (GraphLayoutProvider's), after drags.
    QVector<QPointF> positions() const;
    /// Node positions in scene coordinates (internal: read by the items).
    const QVector<QPointF>& scenePositions() const { return m_scenePts; }
    /// Position of node \a i in viewport pixels (for tests and tooltips).
    QPointF nodeViewportPosition(int i) const;
    /// The node under a viewport position, or -1.
    int nodeAt(const QPoint& viewportPos) const;

    /// Selected nodes (in index order) and the first of them (-1 when none).
    QVector<int> selectedNodes() const { return m_selected; }
    int selectedNode() const { return m_selected.isEmpty() ? -1 : m_selected.first(); }
    /// Selects only node \a i (-1 clears).
    void selectNode(int i);
    /// "node id “label” · group · value · degree" for node \a i.
    QString describeNode(int i) const;
    QString hoverText() const { return m_hoverText; }

    /// Fits the whole graph (the export framing) and forgets zoom and pan.
    void resetZoom();
    /// Zooms by \a factor (> 1 = in) around the viewport centre.
    void zoomBy(double factor);
    /// Zoom relative to the fitted view (1 = fitted).
    double zoomLevel() const;
    /// Paint calls of the edge layer so far (for tests and the benchmark).
    int edgePaintCount() const;
    /// True while zooming or dragging: edges are drawn aliased (and thinned out above
    /// GraphPainter::kInteractiveEdges) until the interaction has been idle for 150 ms, then once
    /// more in full.
    bool isInteracting() const { return m_interacting; }

    QSize sizeHint() const override { return {640, 480}; }

signals:
    /// Selection changed; index of the first selected node or -1.
    void nodeSelected(int index);
    /// The mouse entered node \a index; -1 when it left.
    void nodeHovered(int index);
    void hoverTextChanged(const QString& text);
    /// A node was dragged to \a position (layout units).
    void nodeMoved(int index, const QPointF& position);
    /// A new layout is shown.
    void layoutReady();

protected:
    void wheelEvent(QWheelEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void drawForeground(QPainter* painter, const QRectF& rect) override;

private:
    friend class GraphEdgeLayer;
    friend class GraphNodeItem;
    void applyLayout(const QVector<QPointF>& positions);
    void rebuildItems();
    void restyle();
    void onNodeMoved(int index, const QPointF& scenePos);
    void onNodeHover(int index, bool entered);
    void onSelectionChanged();
    void fitView();
    void beginInteraction();

    GraphSpec m_spec;
    QString m_title;
    Theme m_theme;
    bool m_followTheme = true;
    GraphStyle m_style;
    QVector<QPointF> m_layout;   ///< layout units, as computed
    QVector<QPointF> m_scenePts; ///< scene coordinates (layout * m_sceneScale), after drags
    QVector<int> m_degree;
    double m_sceneScale = 1.0;
    double m_fitScale = 1.0; ///< view scale of the fitted view
    quint64 m_layoutKey = 0;
    bool m_hasLayout = false;
    bool m_pending = false;
    bool m_userZoomed = false;
    bool m_interacting = false;
    bool m_building = false;
    QTimer* m_settle = nullptr;
    int m_generation = 0;
    int m_layoutRequests = 0;
    QVector<int> m_selected;
    QString m_hoverText;
    GraphEdgeLayer* m_edges = nullptr;
    QVector<GraphNodeItem*> m_nodes;
    QThreadPool m_pool;
};

} // namespace pl::gui
