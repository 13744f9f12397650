#include "NumberSpinBox.h"

#include <QLocale>
#include <QRegularExpression>

#include <cmath>

namespace pl::gui {

NumberSpinBox::NumberSpinBox(QWidget* parent) : QDoubleSpinBox(parent) {
    setDecimals(323); // QDoubleSpinBox rounds values to decimals(): keep every double intact
    setKeyboardTracking(false);
    setAccelerated(true);
    setCorrectionMode(QAbstractSpinBox::CorrectToNearestValue);
}

void NumberSpinBox::setLogStepping(bool on, int stepsPerDecade) {
    m_log = on;
    m_stepsPerDecade = std::max(1, stepsPerDecade);
}

void NumberSpinBox::setIntegerMode(bool on) {
    m_integer = on;
    setDecimals(on ? 0 : 323);
}

QString NumberSpinBox::textFromValue(double value) const {
    if (m_integer)
        return QString::number(std::llround(value));
    // Shortest round-trip form, so focus-out re-parsing never changes the value.
    return QString::number(value, 'g', QLocale::FloatingPointShortest);
}

double NumberSpinBox::valueFromText(const QString& text) const {
    QString t = text;
    t.remove(suffix()).remove(prefix());
    bool ok = false;
    const double v = t.trimmed().toDouble(&ok);
    return ok ? v : value();
}

QValidator::State NumberSpinBox::validate(QString& text, int&) const {
    QString t = text;
    if (!suffix().isEmpty() && t.endsWith(suffix()))
        t.chop(suffix().size());
    if (!prefix().isEmpty() && t.startsWith(prefix()))
        t.remove(0, prefix().size());
    t = t.trimmed();
    static const QRegularExpression partial(QStringLiteral("^[+-]?(\\d*\\.?\\d*)([eE][+-]?\\d*)?$"));
    static const QRegularExpression partialInt(QStringLiteral("^[+-]?\\d*$"));
    if (t.isEmpty())
        return QValidator::Intermediate;
    if (!(m_integer ? partialInt : partial).match(t).hasMatch())
        return QValidator::Invalid;
    bool ok = false;
    const double v = t.toDouble(&ok);
    if (!ok)
        return QValidator::Intermediate;
    return (v >= minimum() && v <= maximum()) ? QValidator::Acceptable : QValidator::Intermediate;
}

void NumberSpinBox::stepBy(int steps) {
    if (!m_log || value() <= 0) {
        QDoubleSpinBox::stepBy(steps);
        return;
    }
    const double factor = std::pow(10.0, double(steps) / m_stepsPerDecade);
    double v = value() * factor;
    // Round to 3 significant digits so stepping lands on readable values.
    const double mag = std::pow(10.0, std::floor(std::log10(v)) - 2);
    v = std::round(v / mag) * mag;
    setValue(std::clamp(v, minimum(), maximum()));
    selectAll();
}

} // namespace pl::gui
