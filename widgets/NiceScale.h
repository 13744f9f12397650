#pragma once
/// Tick placement and number formatting shared by charts, heatmap axes and colour bars.
/// Pure functions, any thread.

#include <QString>
#include <QVector>

namespace pl::gui {

class NiceScale {
public:
    /// A "nice" tick step (1, 2, 2.5 or 5 times a power of ten) giving at most about
    /// \a maxTicks ticks over \a span (> 0).
    static double step(double span, int maxTicks);
    /// Tick values that are multiples of step(hi - lo, maxTicks) inside [lo, hi].
    static QVector<double> ticks(double lo, double hi, int maxTicks);
    /// Powers of ten inside [lo, hi] (lo > 0); when fewer than two, falls back to 1-2-5 steps.
    static QVector<double> logTicks(double lo, double hi);
    /// Formats a tick value with the decimals \a step needs ("0.25", "1500", "2e-05").
    static QString formatTick(double value, double step);
    /// printf-style format for Qt Charts' QValueAxis::setLabelFormat matching formatTick().
    static QString labelFormat(double step, double maxAbs);
    /// Compact human form with \a significant digits ("0.0123", "1.5e+06", "NaN", "inf").
    static QString formatValue(double value, int significant = 4);
    /// Shortest text that reads back to exactly \a value (CSV / JSON export); "NaN", "inf", "-inf".
    static QString roundTrip(double value);
};

} // namespace pl::gui
