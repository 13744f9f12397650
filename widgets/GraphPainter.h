#pragma once
/// Paints a graph figure with QPainter into any rectangle of any device (widget, QImage, SVG,
/// PDF): edges batched by pen (width from weight, colour, dash, arrow heads at the node rim),
/// nodes (size, colour, outline, selection), labels, a legend and a colour bar for node values.
/// The building blocks are public so GraphView's scene items draw exactly the same way.
/// Stateless; any thread whose paint device allows it (QImage: any).

#include "sdk/figure/FigureSpec.h"
#include "widgets/GraphStyle.h"
#include "widgets/Theme.h"

#include <QPointF>
#include <QRectF>
#include <QTransform>
#include <QVector>

class QPainter;

namespace pl::gui {

class GraphPainter {
public:
    struct Options {
        QString title;         ///< figure title at the top; empty = none
        QVector<int> selected; ///< nodes outlined in the selection colour (and their edges)
        int hovered = -1;      ///< node drawn with a thicker outline
    };

    /// Where everything goes; rectangles in the painter's logical coordinates.
    struct Layout {
        bool valid = false;
        QRectF title;
        QRectF plot;       ///< node centres are mapped inside this (padded for radii and labels)
        QRectF legend;     ///< empty when there is no legend
        QRectF colorBar;   ///< the gradient bar; empty when there is none
        QTransform toPlot; ///< layout units -> painter coordinates
    };

    /// Largest graph (nodes) whose labels are drawn.
    static constexpr int kMaxLabelledNodes = 300;

    static Layout layout(const GraphSpec& spec, const GraphStyle& style, const QVector<QPointF>& positions,
                         const Theme& theme, const QRectF& rect, const Options& options);
    /// Paints the whole figure into \a rect (logical px). \a positions: one per node, in layout
    /// units (GraphLayoutProvider::compute). Returns false (and paints a message) when there are
    /// no nodes or the positions do not match.
    static bool paint(QPainter* painter, const QRectF& rect, const GraphSpec& spec,
                      const QVector<QPointF>& positions, const Theme& theme, const Options& options);

    /// Uniform scale + translation that centres \a bounds in \a target (keeps the aspect ratio).
    static QTransform fit(const QRectF& bounds, const QRectF& target);
    /// Bounding box of the finite points.
    static QRectF bounds(const QVector<QPointF>& points);
    static bool labelsShown(const GraphSpec& spec) {
        return spec.showLabels && spec.nodes.size() <= kMaxLabelledNodes;
    }

    /// Edges between node centres \a pts (painter coordinates), shortened to the node rims, in
    /// one drawLines() per pen; arrows at targets. Edges outside \a clip (if not null) are skipped.
    /// Edges touching \a highlight nodes are drawn again on top in the selection colour.
    /// Interaction frames (\a interactive, while zooming or dragging) are cheaper: aliased lines
    /// and, above kInteractiveEdges edges, an evenly spread subset of the edges (the cost of a
    /// frame is the pixels the edges cover).
    static void drawEdges(QPainter* painter, const GraphSpec& spec, const GraphStyle& style,
                          const QVector<QPointF>& pts, const QRectF& clip = {},
                          const QVector<int>& highlight = {}, bool interactive = false);
    /// Edges drawn in an interaction frame, at most.
    static constexpr int kInteractiveEdges = 1500;
    /// One node disc with its outline (selected: selection ring; hovered: thicker outline).
    static void drawNode(QPainter* painter, const GraphStyle& style, int i, const QPointF& centre,
                         bool selected = false, bool hovered = false);
    /// One label to the right of a node of radius \a radius at \a centre.
    static void drawLabel(QPainter* painter, const QString& text, const QPointF& centre, double radius,
                          const Theme& theme);
    static QSizeF legendSize(const GraphSpec& spec, const Theme& theme);
    static void drawLegend(QPainter* painter, const GraphSpec& spec, const GraphStyle& style,
                           const Theme& theme, const QRectF& box);
    /// Width of the colour-bar block (bar, ticks, labels); 0 when the spec has no colour bar.
    static double colorBarBlockWidth(const GraphSpec& spec, const GraphStyle& style, const Theme& theme);
    /// The bar inside \a bar with its title above and tick labels to the right.
    static void drawColorBar(QPainter* painter, const GraphSpec& spec, const GraphStyle& style,
                             const Theme& theme, const QRectF& bar);
};

} // namespace pl::gui
