#include "GraphStyle.h"

#include <algorithm>
#include <cmath>

namespace pl::gui {

namespace {

/// Finite min/max of \a get(i) over i < n; false when none is finite.
template <class Get> bool finiteRange(int n, Get get, double* lo, double* hi) {
    bool any = false;
    for (int i = 0; i < n; ++i) {
        const double v = get(i);
        if (!std::isfinite(v))
            continue;
        *lo = any ? std::min(*lo, v) : v;
        *hi = any ? std::max(*hi, v) : v;
        any = true;
    }
    return any;
}

double scaled01(double v, double lo, double hi) {
    return hi > lo ? (v - lo) / (hi - lo) : 0.5;
}

} // namespace

GraphStyle::GraphStyle(const GraphSpec& spec, const Theme& theme) : m_map(Colormap::byName(spec.colormap)) {
    const int n = int(spec.nodes.size());
    const int m = int(spec.edges.size());
    m_outline = theme.chartBackground;
    m_series = theme.series;
    m_selection = theme.highlightOutline;
    m_label = theme.chartText;
    m_neutralNode = theme.isDark ? QColor(0xB0, 0xB0, 0xB8) : QColor(0x70, 0x70, 0x78);
    QColor ne = theme.mutedText;
    ne.setAlpha(m > 2000 ? 90 : 150);
    m_neutralEdge = ne.rgba();

    // Node colours and sizes.
    double lo = 0, hi = 1;
    m_hasNodeValues = finiteRange(
        n, [&](int i) { return spec.nodes[i].value; }, &lo, &hi);
    if (spec.fixedRange) {
        lo = spec.vMin;
        hi = spec.vMax;
    }
    m_vMin = lo;
    m_vMax = hi;
    m_nodeColor.resize(n);
    m_nodeRadius.resize(n);
    const double baseR = std::clamp(spec.nodeRadius, 0.5, 60.0);
    for (int i = 0; i < n; ++i) {
        const GraphNodeSpec& v = spec.nodes[i];
        if (v.category >= 0)
            m_nodeColor[i] = theme.seriesColor(v.category).rgba();
        else if (std::isfinite(v.value))
            m_nodeColor[i] = m_map.lookup(scaled01(v.value, lo, hi));
        else
            m_nodeColor[i] = m_neutralNode.rgba();
        const double s = std::isfinite(v.size) && v.size > 0 ? v.size : 1.0;
        m_nodeRadius[i] = std::clamp(baseR * std::sqrt(s), 1.0, 80.0);
        m_maxRadius = std::max(m_maxRadius, m_nodeRadius[i]);
    }

    // Edges: width from |weight| relative to the heaviest edge, colours from their own range.
    double wMax = 0;
    for (const GraphEdgeSpec& e : spec.edges)
        if (std::isfinite(e.weight))
            wMax = std::max(wMax, std::fabs(e.weight));
    double elo = 0, ehi = 1;
    const bool edgeValues = finiteRange(
        m, [&](int i) { return spec.edges[i].value; }, &elo, &ehi);
    if (spec.fixedRange) {
        elo = spec.vMin;
        ehi = spec.vMax;
    }
    m_edgeColor.resize(m);
    m_edgeWidth.resize(m);
    m_edgeDashed.resize(m);
    m_edgeArrow.resize(m);
    m_edgeValid.resize(m);
    const double baseW = std::clamp(spec.edgeWidth, 0.1, 30.0);
    for (int k = 0; k < m; ++k) {
        const GraphEdgeSpec& e = spec.edges[k];
        m_edgeValid[k] =
            e.source >= 0 && e.target >= 0 && e.source < n && e.target < n && e.source != e.target;
        const double w = std::isfinite(e.weight) ? std::fabs(e.weight) : 0.0;
        m_edgeWidth[k] = std::max(0.5, wMax > 0 ? baseW * w / wMax : baseW);
        if (edgeValues && std::isfinite(e.value)) {
            QColor c = QColor::fromRgb(m_map.lookup(scaled01(e.value, elo, ehi)));
            c.setAlpha(220);
            m_edgeColor[k] = c.rgba();
        } else {
            m_edgeColor[k] = m_neutralEdge;
        }
        m_edgeDashed[k] = e.dashed;
        m_edgeArrow[k] = e.directed || spec.directed;
    }
}

QColor GraphStyle::valueColor(double value) const {
    if (!std::isfinite(value))
        return QColor::fromRgb(m_map.nanColor());
    return QColor::fromRgb(m_map.lookup(scaled01(value, m_vMin, m_vMax)));
}

QColor GraphStyle::legendColor(const GraphLegendEntry& entry) const {
    if (entry.category >= 0)
        return m_series.isEmpty() ? m_label : m_series.at(entry.category % m_series.size());
    if (std::isfinite(entry.value))
        return valueColor(entry.value);
    return entry.edge ? neutralEdgeColor() : m_neutralNode;
}

} // namespace pl::gui
