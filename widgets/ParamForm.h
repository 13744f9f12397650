#pragma once
/// A form generated from an engine's parameter list (pl::ParamSpec): numbers get a slider and a
/// spin box kept in sync (log-scale slider when spec.logScale), the unit as suffix, a tooltip with
/// help, allowed range and default, and a per-row reset button; booleans a check box; choices a
/// combo box; text a line edit. Rows are grouped by spec.group in QGroupBoxes, with "Reset all"
/// at the bottom. GUI thread.

#include "core/ParamSpec.h"

#include <QString>
#include <QWidget>
#include <memory>
#include <vector>

class QGridLayout;
class QPushButton;
class QSlider;
class QToolButton;
class QVBoxLayout;

namespace pl::gui {

class ParamForm : public QWidget {
    Q_OBJECT
public:
    /// Positions of a number slider: 0..SliderSteps (integers with a smaller range use one
    /// position per value).
    static constexpr int SliderSteps = 1000;

    explicit ParamForm(QWidget* parent = nullptr);
    explicit ParamForm(const std::vector<pl::ParamSpec>& specs, QWidget* parent = nullptr);
    ~ParamForm() override;

    /// Rebuilds the form for \a specs, every value at its default.
    void setSpecs(const std::vector<pl::ParamSpec>& specs);
    const std::vector<pl::ParamSpec>& specs() const { return m_specs; }

    /// Shows the values of \a set for the keys this form has (others are ignored). Emits nothing.
    void setValues(const pl::ParamSet& set);
    /// Current values, validated against the specs.
    pl::ParamSet values() const;
    /// Current value of one key (throws pl::UsageError for an unknown key).
    pl::ParamValue value(const QString& key) const;
    /// Sets one value (validated; returns false for an unknown key or a bad value) and emits
    /// valueChanged(key, false) when it changed.
    bool setValue(const QString& key, const pl::ParamValue& value);

    /// Back to the default (emits valueChanged when it changed). Locked rows are left alone.
    void resetValue(const QString& key);
    /// resetValue() for every row.
    void resetAll();

    /// Locked rows keep their value and cannot be edited (e.g. fixed by a preset).
    void setLocked(const QString& key, bool locked);
    bool isLocked(const QString& key) const;
    /// Hidden rows are not shown (their value still counts).
    void setHidden(const QString& key, bool hidden);
    using QWidget::setHidden;
    bool isRowHidden(const QString& key) const;

    /// The main editor of a row (spin box, check box, combo box or line edit), for tests and
    /// focus handling; nullptr for an unknown key.
    QWidget* editor(const QString& key) const;
    /// The slider of a number row (nullptr if none).
    QSlider* slider(const QString& key) const;
    /// The reset button of a row.
    QToolButton* resetButton(const QString& key) const;

    /// Slider position (0..steps) for \a value, linear or log10 between spec.min and spec.max.
    static int sliderPosition(const pl::ParamSpec& spec, double value);
    /// Value for a slider position, rounded to a readable number inside [min, max]
    /// (integers for Int).
    static double sliderValue(const pl::ParamSpec& spec, int position);
    /// Number of slider positions for \a spec (0 = no slider: unbounded or empty range).
    static int sliderSteps(const pl::ParamSpec& spec);

signals:
    /// A value changed through the form. \a sliderDragging is true while the user still holds a
    /// slider: recompute cheaply or debounce, and expect a final call with false on release.
    void valueChanged(const QString& key, bool sliderDragging);

private:
    struct Row;
    Row* row(const QString& key) const;
    void build();
    void addRow(QGridLayout* grid, int line, Row& r);
    void showValue(Row& r, const pl::ParamValue& v);
    pl::ParamValue rowValue(const Row& r) const;
    void refreshReset(Row& r);
    void applyLockAndVisibility(Row& r);

    std::vector<pl::ParamSpec> m_specs;
    std::vector<std::unique_ptr<Row>> m_rows;
    QVBoxLayout* m_layout = nullptr;
    QWidget* m_body = nullptr;
    QPushButton* m_resetAll = nullptr;
    int m_updating = 0;
};

} // namespace pl::gui
