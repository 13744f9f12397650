#include "SeriesDecimator.h"

#include <QSet>

#include <algorithm>
#include <cmath>
#include <vector>

namespace pl::gui {

QList<QPointF> SeriesDecimator::finitePoints(const QVector<double>& x, const QVector<double>& y, bool logX,
                                             bool logY) {
    const qsizetype n = std::min(x.size(), y.size());
    QList<QPointF> out;
    out.reserve(n);
    for (qsizetype i = 0; i < n; ++i) {
        const double xi = x[i], yi = y[i];
        if (!std::isfinite(xi) || !std::isfinite(yi))
            continue;
        if ((logX && !(xi > 0)) || (logY && !(yi > 0)))
            continue;
        out.append(QPointF(xi, yi));
    }
    return out;
}

bool SeriesDecimator::isSortedByX(const QList<QPointF>& points) {
    for (qsizetype i = 1; i < points.size(); ++i)
        if (points[i].x() < points[i - 1].x())
            return false;
    return true;
}

QList<QPointF> SeriesDecimator::minMax(const QList<QPointF>& points, int buckets, bool logX) {
    const qsizetype n = points.size();
    buckets = std::max(1, buckets);
    if (n <= 2 * qsizetype(buckets) + 2)
        return points;

    // Bucket index of every point: by x value when sorted, else by position.
    const bool sorted = isSortedByX(points);
    auto key = [&](double x) { return logX ? std::log10(x) : x; };
    const double x0 = key(points.front().x()), x1 = key(points.back().x());
    const bool byValue = sorted && x1 > x0;
    auto bucketOf = [&](qsizetype i) -> int {
        if (byValue)
            return std::min(buckets - 1, int((key(points[i].x()) - x0) / (x1 - x0) * buckets));
        return int(i * buckets / n);
    };

    QList<QPointF> out;
    out.reserve(2 * buckets + 2);
    out.append(points.front());
    qsizetype i = 1;
    while (i < n - 1) {
        const int b = bucketOf(i);
        qsizetype lo = i, hi = i;
        qsizetype j = i;
        for (; j < n - 1 && bucketOf(j) == b; ++j) {
            if (points[j].y() < points[lo].y())
                lo = j;
            if (points[j].y() > points[hi].y())
                hi = j;
        }
        if (lo == hi) {
            out.append(points[lo]);
        } else {
            out.append(points[std::min(lo, hi)]);
            out.append(points[std::max(lo, hi)]);
        }
        i = j;
    }
    out.append(points.back());
    return out;
}

QList<QPointF> SeriesDecimator::gridThin(const QList<QPointF>& points, const QRectF& bounds, int cols,
                                         int rows, bool logX, bool logY) {
    cols = std::max(1, cols);
    rows = std::max(1, rows);
    if (points.size() <= qsizetype(cols) * rows / 4)
        return points;
    auto kx = [&](double v) { return logX ? std::log10(v) : v; };
    auto ky = [&](double v) { return logY ? std::log10(v) : v; };
    const double bx0 = kx(bounds.left()), bx1 = kx(bounds.right());
    const double by0 = ky(bounds.top()), by1 = ky(bounds.bottom());
    const double sx = bx1 > bx0 ? cols / (bx1 - bx0) : 0.0;
    const double sy = by1 > by0 ? rows / (by1 - by0) : 0.0;
    std::vector<bool> used(size_t(cols) * size_t(rows), false);
    QList<QPointF> out;
    for (const QPointF& p : points) {
        const int cx = std::clamp(int((kx(p.x()) - bx0) * sx), 0, cols - 1);
        const int cy = std::clamp(int((ky(p.y()) - by0) * sy), 0, rows - 1);
        const size_t k = size_t(cy) * size_t(cols) + size_t(cx);
        if (!used[k]) {
            used[k] = true;
            out.append(p);
        }
    }
    return out;
}

QList<QPointF> SeriesDecimator::toSteps(const QList<QPointF>& points) {
    if (points.size() < 2)
        return points;
    QList<QPointF> out;
    out.reserve(points.size() * 2 - 1);
    out.append(points.front());
    for (qsizetype i = 1; i < points.size(); ++i) {
        out.append(QPointF(points[i].x(), points[i - 1].y()));
        out.append(points[i]);
    }
    return out;
}

QRectF SeriesDecimator::bounds(const QList<QPointF>& points) {
    if (points.isEmpty())
        return {};
    double x0 = points.front().x(), x1 = x0, y0 = points.front().y(), y1 = y0;
    for (const QPointF& p : points) {
        x0 = std::min(x0, p.x());
        x1 = std::max(x1, p.x());
        y0 = std::min(y0, p.y());
        y1 = std::max(y1, p.y());
    }
    return QRectF(QPointF(x0, y0), QPointF(x1, y1));
}

} // namespace pl::gui
