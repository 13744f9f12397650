#pragma once
/// QDoubleSpinBox that shows numbers compactly and exactly (shortest text that reads back to the
/// same double: "0.001", "2.5e-07", "1500") instead of a fixed number of decimals, keeps full
/// double precision, accepts scientific notation, and can step multiplicatively (log scale).
/// GUI thread.

#include <QDoubleSpinBox>

namespace pl::gui {

class NumberSpinBox : public QDoubleSpinBox {
    Q_OBJECT
public:
    explicit NumberSpinBox(QWidget* parent = nullptr);

    /// Arrow keys / wheel multiply or divide by 10^(1/stepsPerDecade) instead of adding a step.
    void setLogStepping(bool on, int stepsPerDecade = 10);
    bool logStepping() const { return m_log; }
    /// Integer mode: shows and accepts whole numbers only.
    void setIntegerMode(bool on);

    QString textFromValue(double value) const override;
    double valueFromText(const QString& text) const override;
    QValidator::State validate(QString& text, int& pos) const override;
    void stepBy(int steps) override;

private:
    bool m_log = false;
    int m_stepsPerDecade = 10;
    bool m_integer = false;
};

} // namespace pl::gui
