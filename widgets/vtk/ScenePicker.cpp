#include "ScenePicker.h"

#include "widgets/NiceScale.h"

#include <vtkActor.h>
#include <vtkCellPicker.h>
#include <vtkNew.h>
#include <vtkRenderer.h>

#include <cmath>
#include <limits>

namespace pl::gui::scenepick {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

QString itemName(const SceneItemStyle& s, const QString& kind, int i) {
    return s.name.isEmpty() ? QStringLiteral("%1 %2").arg(kind).arg(i) : s.name;
}

double valueAt(const QVector<double>& v, int i, qsizetype count) {
    return v.size() == count && i >= 0 && i < v.size() ? v[i] : std::numeric_limits<double>::quiet_NaN();
}

/// Index of the point of \a pts nearest to \a p.
int nearest(const QVector<Vec3>& pts, const Vec3& p) {
    int best = -1;
    float bestD = std::numeric_limits<float>::infinity();
    for (qsizetype i = 0; i < pts.size(); ++i) {
        const float d = (pts[i] - p).lengthSquared();
        if (d < bestD) {
            bestD = d;
            best = int(i);
        }
    }
    return best;
}

/// Smallest t >= 0 with |o + t d - c| = r (d unit), or inf.
double raySphere(const Vec3& o, const Vec3& d, const Vec3& c, double r) {
    const Vec3 oc = o - c;
    const double b = Vec3::dotProduct(oc, d);
    const double cc = double(oc.lengthSquared()) - r * r;
    const double disc = b * b - cc;
    if (disc < 0)
        return kInf;
    const double s = std::sqrt(disc);
    const double t0 = -b - s, t1 = -b + s;
    return t0 >= 0 ? t0 : t1 >= 0 ? t1 : kInf;
}

/// Ray parameter where the ray passes within \a tol of segment [a, b], or inf.
double raySegment(const Vec3& o, const Vec3& d, const Vec3& a, const Vec3& b,
                  double tol) {
    const Vec3 u = b - a;
    const Vec3 w = o - a;
    const double uu = Vec3::dotProduct(u, u), ud = Vec3::dotProduct(u, d);
    const double uw = Vec3::dotProduct(u, w), dw = Vec3::dotProduct(d, w);
    const double den = uu - ud * ud;
    double s = den > 1e-12 ? (uw - ud * dw) / den : 0.0; // along the segment (0..1)
    s = std::clamp(s, 0.0, 1.0);
    const Vec3 q = a + u * float(s);
    const double t = Vec3::dotProduct(q - o, d);
    if (t < 0)
        return kInf;
    return (o + d * float(t) - q).length() <= tol ? t : kInf;
}

QString describe(const ScenePick& p) {
    QString text =
        QStringLiteral("%1: %2 %3 at (%4, %5, %6)")
            .arg(p.item, p.kind)
            .arg(p.element)
            .arg(NiceScale::formatValue(p.position.x(), 3), NiceScale::formatValue(p.position.y(), 3),
                 NiceScale::formatValue(p.position.z(), 3));
    if (std::isfinite(p.value))
        text += QStringLiteral(", value %1").arg(NiceScale::formatValue(p.value));
    return text;
}

} // namespace

ScenePick pick(vtkRenderer* r, const SceneSpec& s, const QVector<Entry>& entries, double x, double y) {
    ScenePick best;
    double bestT = kInf;
    double w0[4], w1[4];
    r->SetDisplayPoint(x, y, 0.0);
    r->DisplayToWorld();
    r->GetWorldPoint(w0);
    r->SetDisplayPoint(x, y, 1.0);
    r->DisplayToWorld();
    r->GetWorldPoint(w1);
    if (w0[3] == 0 || w1[3] == 0)
        return best;
    const Vec3 o(float(w0[0] / w0[3]), float(w0[1] / w0[3]), float(w0[2] / w0[3]));
    Vec3 d = Vec3(float(w1[0] / w1[3]), float(w1[1] / w1[3]), float(w1[2] / w1[3])) - o;
    if (d.length() <= 0)
        return best;
    d.normalize();

    for (qsizetype k = 0; k < s.spheres.size(); ++k) {
        const SphereSetSpec& it = s.spheres[k];
        for (qsizetype i = 0; i < it.centers.size(); ++i) {
            const double rr = i < it.radii.size() ? it.radii[i] : it.radius;
            const double t = raySphere(o, d, it.centers[i], rr);
            if (t < bestT) {
                bestT = t;
                best = ScenePick();
                best.hit = true;
                best.kind = QStringLiteral("sphere");
                best.item = itemName(it.style, QStringLiteral("spheres"), int(k));
                best.itemIndex = int(k);
                best.element = int(i);
                best.position = it.centers[i];
                best.value = valueAt(it.values, int(i), it.centers.size());
                if (i < it.labels.size() && !it.labels[i].isEmpty())
                    best.item += QStringLiteral(" “%1”").arg(it.labels[i]);
            }
        }
    }
    for (qsizetype k = 0; k < s.arrows.size(); ++k) {
        const ArrowSetSpec& it = s.arrows[k];
        for (qsizetype i = 0; i < std::min(it.origins.size(), it.vectors.size()); ++i) {
            const Vec3 tip = it.origins[i] + it.vectors[i] * float(it.scale);
            const double len = (tip - it.origins[i]).length();
            const double t = raySegment(o, d, it.origins[i], tip, std::max(1e-6, 0.1 * len));
            if (t < bestT) {
                bestT = t;
                best = ScenePick();
                best.hit = true;
                best.kind = QStringLiteral("arrow");
                best.item = itemName(it.style, QStringLiteral("arrows"), int(k));
                best.itemIndex = int(k);
                best.element = int(i);
                best.position = it.origins[i];
                best.value = valueAt(it.values, int(i), it.origins.size());
            }
        }
    }

    vtkNew<vtkCellPicker> picker;
    picker->SetTolerance(0.004);
    picker->PickFromListOn();
    int listed = 0;
    for (const Entry& e : entries)
        if (e.actor && e.kind != QLatin1String("sphere") && e.kind != QLatin1String("arrow")) {
            picker->AddPickList(e.actor);
            ++listed;
        }
    if (listed > 0 && picker->Pick(x, y, 0.0, r)) {
        double pp[3];
        picker->GetPickPosition(pp);
        const Vec3 pos{float(pp[0]), float(pp[1]), float(pp[2])};
        const double t = Vec3::dotProduct(pos - o, d);
        const vtkActor* hitActor = picker->GetActor();
        for (const Entry& e : entries) {
            if (e.actor != hitActor || !(t < bestT))
                continue;
            ScenePick p;
            p.hit = true;
            p.kind = e.kind;
            p.itemIndex = e.index;
            p.position = pos;
            if (e.kind == QLatin1String("polyline")) {
                const PolylineSpec& it = s.polylines[e.index];
                p.item = itemName(it.style, QStringLiteral("polyline"), e.index);
                p.element = nearest(it.points, pos);
                p.value = valueAt(it.values, p.element, it.points.size());
            } else if (e.kind == QLatin1String("surface")) {
                const SurfaceSpec& it = s.surfaces[e.index];
                p.item = itemName(it.style, QStringLiteral("surface"), e.index);
                p.element = it.kind == SurfaceSpec::Kind::Mesh ? nearest(it.vertices, pos) : -1;
                if (it.kind == SurfaceSpec::Kind::Mesh)
                    p.value = valueAt(it.values, p.element, it.vertices.size());
            } else if (e.kind == QLatin1String("point")) {
                const PointCloudSpec& it = s.pointClouds[e.index];
                p.item = itemName(it.style, QStringLiteral("points"), e.index);
                p.element = nearest(it.points, pos);
                p.value = valueAt(it.values, p.element, it.points.size());
            }
            bestT = t;
            best = p;
            break;
        }
    }
    if (best.hit)
        best.text = describe(best);
    return best;
}

} // namespace pl::gui::scenepick
