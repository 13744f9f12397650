#include "FigureSpecJsonParts.h"

#include <QJsonArray>

#include <cmath>
#include <limits>

namespace pl::gui::detail {

namespace {

QJsonValue number(double d) {
    return std::isfinite(d) ? QJsonValue(d) : QJsonValue(QJsonValue::Null);
}

double readNumber(const QJsonValue& v, double fallback = std::numeric_limits<double>::quiet_NaN()) {
    return v.isDouble() ? v.toDouble() : fallback;
}

bool fail(QString* error, const QString& message) {
    if (error)
        *error = message;
    return false;
}

} // namespace

QJsonObject graphToJson(const GraphSpec& g) {
    QJsonObject j;
    j[QStringLiteral("layout")] = toString(g.layout);
    j[QStringLiteral("layoutSeed")] = g.layoutSeed;
    j[QStringLiteral("directed")] = g.directed;
    j[QStringLiteral("colormap")] = g.colormap;
    j[QStringLiteral("colorTitle")] = g.colorTitle;
    if (g.fixedRange)
        j[QStringLiteral("range")] = QJsonArray{g.vMin, g.vMax};
    j[QStringLiteral("nodeRadius")] = g.nodeRadius;
    j[QStringLiteral("edgeWidth")] = g.edgeWidth;
    j[QStringLiteral("showLabels")] = g.showLabels;
    QJsonArray nodes;
    for (const GraphNodeSpec& n : g.nodes) {
        QJsonObject o{{QStringLiteral("id"), n.id},
                      {QStringLiteral("label"), n.label},
                      {QStringLiteral("size"), n.size},
                      {QStringLiteral("value"), number(n.value)},
                      {QStringLiteral("category"), n.category},
                      {QStringLiteral("group"), n.group}};
        if (std::isfinite(n.x) && std::isfinite(n.y)) {
            o[QStringLiteral("x")] = n.x;
            o[QStringLiteral("y")] = n.y;
        }
        nodes.append(o);
    }
    j[QStringLiteral("nodes")] = nodes;
    QJsonArray edges;
    for (const GraphEdgeSpec& e : g.edges)
        edges.append(QJsonObject{{QStringLiteral("source"), e.source},
                                 {QStringLiteral("target"), e.target},
                                 {QStringLiteral("weight"), number(e.weight)},
                                 {QStringLiteral("value"), number(e.value)},
                                 {QStringLiteral("dashed"), e.dashed},
                                 {QStringLiteral("directed"), e.directed}});
    j[QStringLiteral("edges")] = edges;
    QJsonArray legend;
    for (const GraphLegendEntry& l : g.legend)
        legend.append(QJsonObject{{QStringLiteral("label"), l.label},
                                  {QStringLiteral("category"), l.category},
                                  {QStringLiteral("value"), number(l.value)},
                                  {QStringLiteral("edge"), l.edge},
                                  {QStringLiteral("dashed"), l.dashed}});
    j[QStringLiteral("legend")] = legend;
    return j;
}

bool graphFromJson(const QJsonObject& j, GraphSpec* out, QString* error) {
    GraphSpec g;
    const QString layout = j.value(QStringLiteral("layout")).toString(QStringLiteral("force"));
    if (!graphLayoutFromString(layout, &g.layout))
        return fail(error, QStringLiteral("graph: unknown layout '%1'").arg(layout));
    g.layoutSeed = j.value(QStringLiteral("layoutSeed")).toInt(1);
    g.directed = j.value(QStringLiteral("directed")).toBool();
    g.colormap = j.value(QStringLiteral("colormap")).toString(QStringLiteral("viridis"));
    g.colorTitle = j.value(QStringLiteral("colorTitle")).toString();
    if (const QJsonArray r = j.value(QStringLiteral("range")).toArray(); r.size() == 2) {
        g.fixedRange = true;
        g.vMin = r[0].toDouble();
        g.vMax = r[1].toDouble();
    }
    g.nodeRadius = j.value(QStringLiteral("nodeRadius")).toDouble(6.0);
    g.edgeWidth = j.value(QStringLiteral("edgeWidth")).toDouble(1.5);
    g.showLabels = j.value(QStringLiteral("showLabels")).toBool(true);
    for (const QJsonValue& v : j.value(QStringLiteral("nodes")).toArray()) {
        const QJsonObject o = v.toObject();
        GraphNodeSpec n;
        n.id = o.value(QStringLiteral("id")).toString();
        n.label = o.value(QStringLiteral("label")).toString();
        n.x = readNumber(o.value(QStringLiteral("x")));
        n.y = readNumber(o.value(QStringLiteral("y")));
        n.size = readNumber(o.value(QStringLiteral("size")), 1.0);
        n.value = readNumber(o.value(QStringLiteral("value")));
        n.category = o.value(QStringLiteral("category")).toInt(-1);
        n.group = o.value(QStringLiteral("group")).toString();
        g.nodes << n;
    }
    const QJsonArray edges = j.value(QStringLiteral("edges")).toArray();
    for (qsizetype k = 0; k < edges.size(); ++k) {
        const QJsonObject o = edges[k].toObject();
        GraphEdgeSpec e;
        e.source = o.value(QStringLiteral("source")).toInt(-1);
        e.target = o.value(QStringLiteral("target")).toInt(-1);
        if (e.source < 0 || e.target < 0 || e.source >= g.nodes.size() || e.target >= g.nodes.size())
            return fail(error, QStringLiteral("graph: edge %1 joins %2 and %3, but there are %4 nodes")
                                   .arg(k)
                                   .arg(e.source)
                                   .arg(e.target)
                                   .arg(g.nodes.size()));
        e.weight = readNumber(o.value(QStringLiteral("weight")), 1.0);
        e.value = readNumber(o.value(QStringLiteral("value")));
        e.dashed = o.value(QStringLiteral("dashed")).toBool();
        e.directed = o.value(QStringLiteral("directed")).toBool();
        g.edges << e;
    }
    for (const QJsonValue& v : j.value(QStringLiteral("legend")).toArray()) {
        const QJsonObject o = v.toObject();
        GraphLegendEntry l;
        l.label = o.value(QStringLiteral("label")).toString();
        l.category = o.value(QStringLiteral("category")).toInt(-1);
        l.value = readNumber(o.value(QStringLiteral("value")));
        l.edge = o.value(QStringLiteral("edge")).toBool();
        l.dashed = o.value(QStringLiteral("dashed")).toBool();
        g.legend << l;
    }
    if (out)
        *out = g;
    return true;
}

} // namespace pl::gui::detail
