#pragma once
/// Reduces long series to what a plot of a given pixel size can show, keeping the visual shape:
/// min/max per pixel column for lines, one point per pixel cell for scatter. Pure functions,
/// any thread.

#include <QList>
#include <QPointF>
#include <QRectF>
#include <QVector>

namespace pl::gui {

class SeriesDecimator {
public:
    /// Pairs (x[i], y[i]) that are finite, and positive on log axes, in input order.
    /// Extra entries of the longer vector are ignored.
    static QList<QPointF> finitePoints(const QVector<double>& x, const QVector<double>& y, bool logX,
                                       bool logY);
    /// True when x never decreases.
    static bool isSortedByX(const QList<QPointF>& points);
    /// Line decimation: splits the x range (log10 x when \a logX) into \a buckets columns and keeps,
    /// per column, the points with the minimum and the maximum y in their original order, plus the
    /// first and the last point. Output has at most 2 * buckets + 2 points. Unsorted x falls back
    /// to buckets of consecutive indices. Returns the input when it is already small enough.
    static QList<QPointF> minMax(const QList<QPointF>& points, int buckets, bool logX = false);
    /// Scatter decimation: keeps the first point falling in each cell of a cols x rows grid over
    /// \a bounds (log10 on log axes). Returns the input when it has at most cols * rows / 4 points.
    static QList<QPointF> gridThin(const QList<QPointF>& points, const QRectF& bounds, int cols, int rows,
                                   bool logX = false, bool logY = false);
    /// Step ("post") form: each value holds until the next x; 2n-1 points.
    static QList<QPointF> toSteps(const QList<QPointF>& points);
    /// Bounding box of \a points (null rect when empty).
    static QRectF bounds(const QList<QPointF>& points);
};

} // namespace pl::gui
