#pragma once
/// A spin box for 64-bit unsigned seeds (QSpinBox stops at 2^31 - 1). Accepts decimal digits
/// only; emits valueChanged when stepped or when editing finished with a new value. GUI thread.

#include <QAbstractSpinBox>
#include <QtGlobal>

namespace pl::gui {

class SeedSpinBox : public QAbstractSpinBox {
    Q_OBJECT
public:
    explicit SeedSpinBox(QWidget* parent = nullptr);

    quint64 value() const { return m_value; }
    /// Sets the value without emitting valueChanged when it is unchanged.
    void setValue(quint64 value);

    void stepBy(int steps) override;
    QValidator::State validate(QString& input, int& pos) const override;
    void fixup(QString& input) const override;
    QSize sizeHint() const override;

signals:
    void valueChanged(quint64 value);

protected:
    StepEnabled stepEnabled() const override;

private:
    void commitText();
    quint64 m_value = 0;
};

} // namespace pl::gui
