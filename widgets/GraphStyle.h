#pragma once
/// Resolved colours and sizes of one graph figure for one theme: node colours (category,
/// colour-map value or neutral), node radii, edge colours, widths, dashes and arrows. Built once
/// per (spec, theme) in O(nodes + edges) so painting does no look-ups. Plain value, any thread.

#include "widgets/Colormap.h"
#include "sdk/figure/FigureSpec.h"
#include "widgets/Theme.h"

#include <QColor>
#include <QRgb>
#include <QVector>

namespace pl::gui {

class GraphStyle {
public:
    GraphStyle() = default;
    GraphStyle(const GraphSpec& spec, const Theme& theme);

    int nodeCount() const { return int(m_nodeColor.size()); }
    int edgeCount() const { return int(m_edgeColor.size()); }
    /// Fill colour of node \a i (opaque).
    QColor nodeColor(int i) const { return QColor::fromRgba(m_nodeColor[i]); }
    /// Radius of node \a i in logical px.
    double nodeRadius(int i) const { return m_nodeRadius[i]; }
    double maxNodeRadius() const { return m_maxRadius; }
    /// Edge colour (with alpha), width (logical px), dash and arrow.
    QRgb edgeRgba(int e) const { return m_edgeColor[e]; }
    double edgeWidth(int e) const { return m_edgeWidth[e]; }
    bool edgeDashed(int e) const { return m_edgeDashed[e]; }
    bool edgeArrow(int e) const { return m_edgeArrow[e]; }
    /// True when edge \a e joins two existing, distinct nodes.
    bool edgeValid(int e) const { return m_edgeValid[e]; }

    /// Colour scale of node values (fixed range or the finite node values).
    bool hasNodeValues() const { return m_hasNodeValues; }
    double valueMin() const { return m_vMin; }
    double valueMax() const { return m_vMax; }
    const Colormap& colormap() const { return m_map; }
    /// Colour of \a value on the node scale.
    QColor valueColor(double value) const;
    /// Swatch colour of a legend entry.
    QColor legendColor(const GraphLegendEntry& entry) const;
    /// Neutral edge colour of this theme.
    QColor neutralEdgeColor() const { return QColor::fromRgba(m_neutralEdge); }
    /// Outline drawn around every node (separates overlapping discs).
    QColor nodeOutline() const { return m_outline; }
    QColor selectionColor() const { return m_selection; }
    QColor labelColor() const { return m_label; }

private:
    QVector<QRgb> m_nodeColor;
    QVector<double> m_nodeRadius;
    QVector<QRgb> m_edgeColor;
    QVector<double> m_edgeWidth;
    QVector<bool> m_edgeDashed, m_edgeArrow, m_edgeValid;
    Colormap m_map;
    bool m_hasNodeValues = false;
    double m_vMin = 0, m_vMax = 1;
    double m_maxRadius = 0;
    QRgb m_neutralEdge = 0x80808080;
    QColor m_outline, m_selection, m_label, m_neutralNode;
    QVector<QColor> m_series;
};

} // namespace pl::gui
