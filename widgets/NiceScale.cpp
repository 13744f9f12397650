#include "NiceScale.h"

#include <charconv>
#include <cmath>

namespace pl::gui {

double NiceScale::step(double span, int maxTicks) {
    if (!(span > 0) || !std::isfinite(span))
        return 1.0;
    maxTicks = std::max(2, maxTicks);
    const double raw = span / double(maxTicks - 1);
    const double mag = std::pow(10.0, std::floor(std::log10(raw)));
    for (double m : {1.0, 2.0, 2.5, 5.0, 10.0})
        if (m * mag >= raw * (1.0 - 1e-9))
            return m * mag;
    return 10.0 * mag;
}

QVector<double> NiceScale::ticks(double lo, double hi, int maxTicks) {
    QVector<double> out;
    if (!std::isfinite(lo) || !std::isfinite(hi))
        return out;
    if (hi < lo)
        std::swap(lo, hi);
    if (hi == lo) {
        out.push_back(lo);
        return out;
    }
    const double s = step(hi - lo, maxTicks);
    const double k0 = std::ceil(lo / s - 1e-9);
    // Round to the step's own precision so 3 * 0.2 prints and compares as 0.6.
    const int e = int(std::floor(std::log10(s))) - 3;
    const double scale = std::pow(10.0, std::abs(e)); // exact for |e| <= 22
    for (int i = 0; i < 1000; ++i) {
        const double raw = (k0 + i) * s;
        double v = e < 0 ? std::round(raw * scale) / scale : std::round(raw / scale) * scale;
        if (v > hi + s * 1e-9)
            break;
        if (std::fabs(v) < s * 1e-9)
            v = 0; // avoid "-0" and 1e-17 residues
        out.push_back(v);
    }
    return out;
}

QVector<double> NiceScale::logTicks(double lo, double hi) {
    QVector<double> out;
    if (!(lo > 0) || !(hi > 0) || !std::isfinite(lo) || !std::isfinite(hi))
        return out;
    if (hi < lo)
        std::swap(lo, hi);
    const int e0 = int(std::ceil(std::log10(lo) - 1e-9)), e1 = int(std::floor(std::log10(hi) + 1e-9));
    const int stride = std::max(1, (e1 - e0 + 1 + 7) / 8);
    for (int e = e0; e <= e1; e += stride)
        out.push_back(std::pow(10.0, e));
    if (out.size() < 2) {
        out.clear();
        for (int e = e0 - 1; e <= e1 + 1; ++e)
            for (double m : {1.0, 2.0, 5.0}) {
                const double v = m * std::pow(10.0, e);
                if (v >= lo * (1 - 1e-9) && v <= hi * (1 + 1e-9))
                    out.push_back(v);
            }
    }
    return out;
}

QString NiceScale::labelFormat(double step, double maxAbs) {
    if (!(step > 0) || !std::isfinite(step))
        return QStringLiteral("%g");
    if (maxAbs >= 1e6 || step < 1e-4)
        return QStringLiteral("%.2e");
    const int decimals = std::max(0, int(std::ceil(-std::log10(step) - 1e-9)));
    // 2.5-steps need one more decimal than their power of ten.
    const double scaled = step * std::pow(10.0, decimals);
    const int extra = std::fabs(scaled - std::round(scaled)) > 1e-6 ? 1 : 0;
    return QStringLiteral("%.%1f").arg(decimals + extra);
}

QString NiceScale::formatTick(double value, double step) {
    const QString fmt = labelFormat(step, std::fabs(value));
    if (std::fabs(value) < step * 1e-9)
        value = 0;
    return QString::asprintf(fmt.toLatin1().constData(), value);
}

QString NiceScale::formatValue(double value, int significant) {
    if (std::isnan(value))
        return QStringLiteral("NaN");
    if (std::isinf(value))
        return value > 0 ? QStringLiteral("inf") : QStringLiteral("-inf");
    return QString::number(value, 'g', significant);
}

QString NiceScale::roundTrip(double value) {
    if (std::isnan(value))
        return QStringLiteral("NaN");
    if (std::isinf(value))
        return value > 0 ? QStringLiteral("inf") : QStringLiteral("-inf");
    char buf[64];
    auto res = std::to_chars(buf, buf + sizeof buf, value);
    return QString::fromLatin1(buf, int(res.ptr - buf));
}

} // namespace pl::gui
