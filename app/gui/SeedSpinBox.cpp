#include "SeedSpinBox.h"

#include <QLineEdit>

#include <limits>

namespace pl::gui {

SeedSpinBox::SeedSpinBox(QWidget* parent) : QAbstractSpinBox(parent) {
    setObjectName(QStringLiteral("SeedSpinBox"));
    setAccelerated(true);
    setCorrectionMode(QAbstractSpinBox::CorrectToPreviousValue);
    lineEdit()->setText(QStringLiteral("0"));
    connect(this, &QAbstractSpinBox::editingFinished, this, &SeedSpinBox::commitText);
}

void SeedSpinBox::setValue(quint64 value) {
    const bool changed = value != m_value;
    m_value = value;
    const QString text = QString::number(value);
    if (lineEdit()->text() != text)
        lineEdit()->setText(text);
    if (changed)
        emit valueChanged(value);
}

void SeedSpinBox::commitText() {
    bool ok = false;
    const quint64 v = lineEdit()->text().trimmed().toULongLong(&ok);
    if (ok)
        setValue(v);
    else
        lineEdit()->setText(QString::number(m_value));
}

void SeedSpinBox::stepBy(int steps) {
    commitText();
    constexpr quint64 kMax = std::numeric_limits<quint64>::max();
    quint64 v = m_value;
    if (steps > 0)
        v = (kMax - v < quint64(steps)) ? kMax : v + quint64(steps);
    else if (steps < 0)
        v = (v < quint64(-qint64(steps))) ? 0 : v - quint64(-qint64(steps));
    setValue(v);
    selectAll();
}

QAbstractSpinBox::StepEnabled SeedSpinBox::stepEnabled() const {
    StepEnabled e = StepNone;
    if (m_value > 0)
        e |= StepDownEnabled;
    if (m_value < std::numeric_limits<quint64>::max())
        e |= StepUpEnabled;
    return e;
}

QValidator::State SeedSpinBox::validate(QString& input, int&) const {
    const QString t = input.trimmed();
    if (t.isEmpty())
        return QValidator::Intermediate;
    for (QChar c : t)
        if (!c.isDigit())
            return QValidator::Invalid;
    bool ok = false;
    t.toULongLong(&ok);
    return ok ? QValidator::Acceptable : QValidator::Invalid;
}

void SeedSpinBox::fixup(QString& input) const {
    input = QString::number(m_value);
}

QSize SeedSpinBox::sizeHint() const {
    QSize s = QAbstractSpinBox::sizeHint();
    s.setWidth(std::max(s.width(),
                        fontMetrics().horizontalAdvance(QStringLiteral("18446744073709551615")) / 2 + 40));
    return s;
}

} // namespace pl::gui
