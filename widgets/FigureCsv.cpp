#include "FigureCsv.h"

#include "NiceScale.h"

#include <cmath>

namespace pl::gui {

namespace {

QString num(double v) {
    return NiceScale::roundTrip(v);
}

QString opt(double v) {
    return std::isfinite(v) ? NiceScale::roundTrip(v) : QString();
}

QString itemName(const SceneItemStyle& s, const char* kind, qsizetype i) {
    return s.name.isEmpty() ? QStringLiteral("%1 %2").arg(QLatin1String(kind)).arg(i) : s.name;
}

struct Row {
    QString item, kind;
    qsizetype index = 0;
    Vec3 p;
    QString u, v, w, radius, value, label;
};

Row row(const QString& item, const char* kind, qsizetype index, const Vec3& p) {
    Row r;
    r.item = item;
    r.kind = QLatin1String(kind);
    r.index = index;
    r.p = p;
    return r;
}

void write(QString& out, const Row& r) {
    const QLatin1Char c(',');
    out += FigureCsv::field(r.item) + c + r.kind + c + QString::number(r.index) + c + num(r.p.x()) + c +
           num(r.p.y()) + c + num(r.p.z()) + c + r.u + c + r.v + c + r.w + c + r.radius + c + r.value + c +
           FigureCsv::field(r.label) + QLatin1Char('\n');
}

QString valueAt(const QVector<double>& v, qsizetype i) {
    return i < v.size() ? opt(v[i]) : QString();
}

} // namespace

QString FigureCsv::field(const QString& s) {
    if (s.contains(QLatin1Char(',')) || s.contains(QLatin1Char('"')) || s.contains(QLatin1Char('\n')) ||
        s.contains(QLatin1Char('\r'))) {
        QString q = s;
        q.replace(QLatin1String("\""), QLatin1String("\"\""));
        return QLatin1Char('"') + q + QLatin1Char('"');
    }
    return s;
}

QByteArray FigureCsv::graph(const GraphSpec& g, const QVector<QPointF>& positions) {
    QString out = QStringLiteral(
        "element,index,id,label,group,x,y,size,value,category,source,target,weight,dashed,directed\n");
    const QLatin1Char c(',');
    for (qsizetype i = 0; i < g.nodes.size(); ++i) {
        const GraphNodeSpec& n = g.nodes[i];
        const QPointF p = i < positions.size() ? positions[i] : QPointF(n.x, n.y);
        out += QStringLiteral("node,") + QString::number(i) + c + field(n.id) + c + field(n.label) + c +
               field(n.group) + c + opt(p.x()) + c + opt(p.y()) + c + num(n.size) + c + opt(n.value) + c +
               (n.category >= 0 ? QString::number(n.category) : QString()) + QStringLiteral(",,,,,\n");
    }
    for (qsizetype k = 0; k < g.edges.size(); ++k) {
        const GraphEdgeSpec& e = g.edges[k];
        out += QStringLiteral("edge,") + QString::number(k) + QStringLiteral(",,,,,,,") + opt(e.value) +
               QStringLiteral(",,") + QString::number(e.source) + c + QString::number(e.target) + c +
               num(e.weight) + c + (e.dashed ? QStringLiteral("1") : QStringLiteral("0")) + c +
               (e.directed || g.directed ? QStringLiteral("1") : QStringLiteral("0")) + QLatin1Char('\n');
    }
    return out.toUtf8();
}

QByteArray FigureCsv::scene(const SceneSpec& s) {
    QString out = QStringLiteral("item,kind,index,x,y,z,u,v,w,radius,value,label\n");
    for (qsizetype k = 0; k < s.spheres.size(); ++k) {
        const SphereSetSpec& it = s.spheres[k];
        for (qsizetype i = 0; i < it.centers.size(); ++i) {
            Row r = row(itemName(it.style, "spheres", k), "sphere", i, it.centers[i]);
            r.radius = num(i < it.radii.size() ? it.radii[i] : it.radius);
            r.value = valueAt(it.values, i);
            r.label = it.labels.value(i);
            write(out, r);
        }
    }
    for (qsizetype k = 0; k < s.polylines.size(); ++k) {
        const PolylineSpec& it = s.polylines[k];
        for (qsizetype i = 0; i < it.points.size(); ++i) {
            Row r = row(itemName(it.style, "polyline", k), "polyline", i, it.points[i]);
            r.radius = it.radius > 0 ? num(it.radius) : QString();
            r.value = valueAt(it.values, i);
            write(out, r);
        }
    }
    for (qsizetype k = 0; k < s.surfaces.size(); ++k) {
        const SurfaceSpec& it = s.surfaces[k];
        const QString name = itemName(it.style, "surface", k);
        if (it.kind == SurfaceSpec::Kind::Torus) {
            Row r = row(name, "torus", 0, it.center);
            r.u = num(it.ringRadius);
            r.v = num(it.tubeRadius);
            write(out, r);
            continue;
        }
        for (qsizetype i = 0; i < it.vertices.size(); ++i) {
            Row r = row(name, "mesh", i, it.vertices[i]);
            r.value = valueAt(it.values, i);
            write(out, r);
        }
    }
    for (qsizetype k = 0; k < s.pointClouds.size(); ++k) {
        const PointCloudSpec& it = s.pointClouds[k];
        for (qsizetype i = 0; i < it.points.size(); ++i) {
            Row r = row(itemName(it.style, "points", k), "point", i, it.points[i]);
            r.value = valueAt(it.values, i);
            write(out, r);
        }
    }
    for (qsizetype k = 0; k < s.arrows.size(); ++k) {
        const ArrowSetSpec& it = s.arrows[k];
        for (qsizetype i = 0; i < it.origins.size(); ++i) {
            Row r = row(itemName(it.style, "arrows", k), "arrow", i, it.origins[i]);
            const Vec3 v = it.vectors.value(i);
            r.u = num(v.x());
            r.v = num(v.y());
            r.w = num(v.z());
            r.value = valueAt(it.values, i);
            write(out, r);
        }
    }
    for (qsizetype i = 0; i < s.labels.size(); ++i) {
        Row r = row(QStringLiteral("labels"), "label", i, s.labels[i].position);
        r.label = s.labels[i].text;
        write(out, r);
    }
    return out.toUtf8();
}

} // namespace pl::gui
