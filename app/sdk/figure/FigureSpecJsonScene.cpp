#include "FigureSpecJsonParts.h"

#include <QJsonArray>

#include <cmath>
#include <limits>

namespace pl::gui::detail {

namespace {

QJsonValue number(double d) {
    return std::isfinite(d) ? QJsonValue(d) : QJsonValue(QJsonValue::Null);
}

QJsonArray numbers(const QVector<double>& v) {
    QJsonArray a;
    for (double d : v)
        a.append(number(d));
    return a;
}

QVector<double> readNumbers(const QJsonValue& v) {
    QVector<double> out;
    for (const QJsonValue& x : v.toArray())
        out << (x.isDouble() ? x.toDouble() : std::numeric_limits<double>::quiet_NaN());
    return out;
}

/// Points as a flat [x0, y0, z0, x1, ...] array.
QJsonArray points(const QVector<Vec3>& v) {
    QJsonArray a;
    for (const Vec3& p : v) {
        a.append(p.x());
        a.append(p.y());
        a.append(p.z());
    }
    return a;
}

bool readPoints(const QJsonValue& v, QVector<Vec3>* out, const QString& what, QString* error) {
    const QJsonArray a = v.toArray();
    if (a.size() % 3 != 0) {
        if (error)
            *error = QStringLiteral("%1: %2 coordinates is not a multiple of 3").arg(what).arg(a.size());
        return false;
    }
    out->clear();
    out->reserve(a.size() / 3);
    for (qsizetype i = 0; i + 2 < a.size(); i += 3)
        out->append(
            Vec3(float(a[i].toDouble()), float(a[i + 1].toDouble()), float(a[i + 2].toDouble())));
    return true;
}

QJsonArray vec(const Vec3& p) {
    return QJsonArray{p.x(), p.y(), p.z()};
}

Vec3 readVec(const QJsonValue& v, const Vec3& fallback = {}) {
    const QJsonArray a = v.toArray();
    return a.size() == 3 ? Vec3(float(a[0].toDouble()), float(a[1].toDouble()), float(a[2].toDouble()))
                         : fallback;
}

QJsonObject style(const SceneItemStyle& s) {
    QJsonObject o{{QStringLiteral("name"), s.name},
                  {QStringLiteral("colorIndex"), s.colorIndex},
                  {QStringLiteral("opacity"), s.opacity},
                  {QStringLiteral("colormap"), s.colormap},
                  {QStringLiteral("colorBarTitle"), s.colorBarTitle}};
    if (s.color.isValid())
        o[QStringLiteral("color")] = s.color.name();
    return o;
}

SceneItemStyle readStyle(const QJsonValue& v) {
    const QJsonObject o = v.toObject();
    SceneItemStyle s;
    s.name = o.value(QStringLiteral("name")).toString();
    if (o.contains(QStringLiteral("color")))
        s.color = Rgba::fromName(o.value(QStringLiteral("color")).toString());
    s.colorIndex = o.value(QStringLiteral("colorIndex")).toInt(0);
    s.opacity = o.value(QStringLiteral("opacity")).toDouble(1.0);
    s.colormap = o.value(QStringLiteral("colormap")).toString();
    s.colorBarTitle = o.value(QStringLiteral("colorBarTitle")).toString();
    return s;
}

} // namespace

QJsonObject sceneToJson(const SceneSpec& s) {
    QJsonObject j;
    QJsonArray a;
    for (const SphereSetSpec& it : s.spheres)
        a.append(QJsonObject{{QStringLiteral("style"), style(it.style)},
                             {QStringLiteral("centers"), points(it.centers)},
                             {QStringLiteral("radii"), numbers(it.radii)},
                             {QStringLiteral("radius"), it.radius},
                             {QStringLiteral("values"), numbers(it.values)},
                             {QStringLiteral("labels"), QJsonArray::fromStringList(it.labels)}});
    j[QStringLiteral("spheres")] = a;
    a = {};
    for (const PolylineSpec& it : s.polylines)
        a.append(QJsonObject{{QStringLiteral("style"), style(it.style)},
                             {QStringLiteral("points"), points(it.points)},
                             {QStringLiteral("values"), numbers(it.values)},
                             {QStringLiteral("radius"), it.radius},
                             {QStringLiteral("lineWidth"), it.lineWidth}});
    j[QStringLiteral("polylines")] = a;
    a = {};
    for (const SurfaceSpec& it : s.surfaces) {
        QJsonArray tri;
        for (int t : it.triangles)
            tri.append(t);
        a.append(QJsonObject{{QStringLiteral("style"), style(it.style)},
                             {QStringLiteral("kind"), it.kind == SurfaceSpec::Kind::Torus ? "torus" : "mesh"},
                             {QStringLiteral("vertices"), points(it.vertices)},
                             {QStringLiteral("triangles"), tri},
                             {QStringLiteral("values"), numbers(it.values)},
                             {QStringLiteral("gridU"), it.gridU},
                             {QStringLiteral("gridV"), it.gridV},
                             {QStringLiteral("center"), vec(it.center)},
                             {QStringLiteral("ringRadius"), it.ringRadius},
                             {QStringLiteral("tubeRadius"), it.tubeRadius},
                             {QStringLiteral("resolution"), it.resolution},
                             {QStringLiteral("showEdges"), it.showEdges}});
    }
    j[QStringLiteral("surfaces")] = a;
    a = {};
    for (const PointCloudSpec& it : s.pointClouds)
        a.append(QJsonObject{{QStringLiteral("style"), style(it.style)},
                             {QStringLiteral("points"), points(it.points)},
                             {QStringLiteral("values"), numbers(it.values)},
                             {QStringLiteral("pointSize"), it.pointSize}});
    j[QStringLiteral("pointClouds")] = a;
    a = {};
    for (const ArrowSetSpec& it : s.arrows)
        a.append(QJsonObject{{QStringLiteral("style"), style(it.style)},
                             {QStringLiteral("origins"), points(it.origins)},
                             {QStringLiteral("vectors"), points(it.vectors)},
                             {QStringLiteral("values"), numbers(it.values)},
                             {QStringLiteral("scale"), it.scale}});
    j[QStringLiteral("arrows")] = a;
    a = {};
    for (const SceneLabelSpec& l : s.labels)
        a.append(
            QJsonObject{{QStringLiteral("position"), vec(l.position)}, {QStringLiteral("text"), l.text}});
    j[QStringLiteral("labels")] = a;
    const CameraSpec& c = s.camera;
    QJsonObject cam{{QStringLiteral("azimuth"), c.azimuth},
                    {QStringLiteral("elevation"), c.elevation},
                    {QStringLiteral("zoom"), c.zoom},
                    {QStringLiteral("parallel"), c.parallel},
                    {QStringLiteral("viewUp"), vec(c.viewUp)}};
    if (c.hasPosition) {
        cam[QStringLiteral("position")] = vec(c.position);
        cam[QStringLiteral("focalPoint")] = vec(c.focalPoint);
    }
    j[QStringLiteral("camera")] = cam;
    j[QStringLiteral("colormap")] = s.colormap;
    if (s.fixedRange)
        j[QStringLiteral("range")] = QJsonArray{s.vMin, s.vMax};
    j[QStringLiteral("colorBarTitle")] = s.colorBarTitle;
    j[QStringLiteral("showColorBar")] = s.showColorBar;
    if (!s.message.isEmpty())
        j[QStringLiteral("message")] = s.message;
    return j;
}

bool sceneFromJson(const QJsonObject& j, SceneSpec* out, QString* error) {
    SceneSpec s;
    for (const QJsonValue& v : j.value(QStringLiteral("spheres")).toArray()) {
        const QJsonObject o = v.toObject();
        SphereSetSpec it;
        it.style = readStyle(o.value(QStringLiteral("style")));
        if (!readPoints(o.value(QStringLiteral("centers")), &it.centers, QStringLiteral("spheres"), error))
            return false;
        it.radii = readNumbers(o.value(QStringLiteral("radii")));
        it.radius = o.value(QStringLiteral("radius")).toDouble(0.05);
        it.values = readNumbers(o.value(QStringLiteral("values")));
        for (const QJsonValue& l : o.value(QStringLiteral("labels")).toArray())
            it.labels << l.toString();
        s.spheres << it;
    }
    for (const QJsonValue& v : j.value(QStringLiteral("polylines")).toArray()) {
        const QJsonObject o = v.toObject();
        PolylineSpec it;
        it.style = readStyle(o.value(QStringLiteral("style")));
        if (!readPoints(o.value(QStringLiteral("points")), &it.points, QStringLiteral("polyline"), error))
            return false;
        it.values = readNumbers(o.value(QStringLiteral("values")));
        it.radius = o.value(QStringLiteral("radius")).toDouble(0.0);
        it.lineWidth = o.value(QStringLiteral("lineWidth")).toDouble(2.0);
        s.polylines << it;
    }
    for (const QJsonValue& v : j.value(QStringLiteral("surfaces")).toArray()) {
        const QJsonObject o = v.toObject();
        SurfaceSpec it;
        it.style = readStyle(o.value(QStringLiteral("style")));
        it.kind = o.value(QStringLiteral("kind")).toString() == QLatin1String("torus")
                      ? SurfaceSpec::Kind::Torus
                      : SurfaceSpec::Kind::Mesh;
        if (!readPoints(o.value(QStringLiteral("vertices")), &it.vertices, QStringLiteral("surface"), error))
            return false;
        for (const QJsonValue& t : o.value(QStringLiteral("triangles")).toArray()) {
            const int idx = t.toInt(-1);
            if (idx < 0 || idx >= it.vertices.size()) {
                if (error)
                    *error = QStringLiteral("surface: triangle vertex %1 out of range").arg(idx);
                return false;
            }
            it.triangles << idx;
        }
        it.values = readNumbers(o.value(QStringLiteral("values")));
        it.gridU = o.value(QStringLiteral("gridU")).toInt();
        it.gridV = o.value(QStringLiteral("gridV")).toInt();
        it.center = readVec(o.value(QStringLiteral("center")));
        it.ringRadius = o.value(QStringLiteral("ringRadius")).toDouble(1.0);
        it.tubeRadius = o.value(QStringLiteral("tubeRadius")).toDouble(0.35);
        it.resolution = o.value(QStringLiteral("resolution")).toInt(64);
        it.showEdges = o.value(QStringLiteral("showEdges")).toBool();
        s.surfaces << it;
    }
    for (const QJsonValue& v : j.value(QStringLiteral("pointClouds")).toArray()) {
        const QJsonObject o = v.toObject();
        PointCloudSpec it;
        it.style = readStyle(o.value(QStringLiteral("style")));
        if (!readPoints(o.value(QStringLiteral("points")), &it.points, QStringLiteral("points"), error))
            return false;
        it.values = readNumbers(o.value(QStringLiteral("values")));
        it.pointSize = o.value(QStringLiteral("pointSize")).toDouble(4.0);
        s.pointClouds << it;
    }
    for (const QJsonValue& v : j.value(QStringLiteral("arrows")).toArray()) {
        const QJsonObject o = v.toObject();
        ArrowSetSpec it;
        it.style = readStyle(o.value(QStringLiteral("style")));
        if (!readPoints(o.value(QStringLiteral("origins")), &it.origins, QStringLiteral("arrows"), error) ||
            !readPoints(o.value(QStringLiteral("vectors")), &it.vectors, QStringLiteral("arrows"), error))
            return false;
        it.values = readNumbers(o.value(QStringLiteral("values")));
        it.scale = o.value(QStringLiteral("scale")).toDouble(1.0);
        s.arrows << it;
    }
    for (const QJsonValue& v : j.value(QStringLiteral("labels")).toArray()) {
        const QJsonObject o = v.toObject();
        s.labels << SceneLabelSpec{readVec(o.value(QStringLiteral("position"))),
                                   o.value(QStringLiteral("text")).toString()};
    }
    const QJsonObject cam = j.value(QStringLiteral("camera")).toObject();
    s.camera.azimuth = cam.value(QStringLiteral("azimuth")).toDouble(30);
    s.camera.elevation = cam.value(QStringLiteral("elevation")).toDouble(20);
    s.camera.zoom = cam.value(QStringLiteral("zoom")).toDouble(1.0);
    s.camera.parallel = cam.value(QStringLiteral("parallel")).toBool();
    s.camera.viewUp = readVec(cam.value(QStringLiteral("viewUp")), Vec3(0, 0, 1));
    if (cam.contains(QStringLiteral("position"))) {
        s.camera.hasPosition = true;
        s.camera.position = readVec(cam.value(QStringLiteral("position")));
        s.camera.focalPoint = readVec(cam.value(QStringLiteral("focalPoint")));
    }
    s.colormap = j.value(QStringLiteral("colormap")).toString(QStringLiteral("viridis"));
    if (const QJsonArray r = j.value(QStringLiteral("range")).toArray(); r.size() == 2) {
        s.fixedRange = true;
        s.vMin = r[0].toDouble();
        s.vMax = r[1].toDouble();
    }
    s.colorBarTitle = j.value(QStringLiteral("colorBarTitle")).toString();
    s.showColorBar = j.value(QStringLiteral("showColorBar")).toBool(true);
    s.message = j.value(QStringLiteral("message")).toString();
    if (out)
        *out = s;
    return true;
}

} // namespace pl::gui::detail
