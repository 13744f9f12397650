#include "ParamForm.h"

#include "NumberSpinBox.h"

#include "core/Errors.h"

#include <QCheckBox>
#include <QComboBox>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSlider>
#include <QStyle>
#include <QToolButton>
#include <QVBoxLayout>

#include <cmath>
#include <limits>

namespace pl::gui {

namespace {

QString qs(const std::string& s) {
    return QString::fromStdString(s);
}

double asDouble(const ParamValue& v) {
    if (auto d = std::get_if<double>(&v))
        return *d;
    if (auto i = std::get_if<int64_t>(&v))
        return double(*i);
    return 0.0;
}

/// Rounds \a v to a multiple of the largest power of ten not above \a resolution.
double roundTo(double v, double resolution) {
    if (!(resolution > 0))
        return v;
    const double q = std::pow(10.0, std::floor(std::log10(resolution)));
    const double r = std::round(v / q) * q;
    return q < 1 ? std::round(r / q) / (1.0 / q) : r; // avoid 0.30000000000000004
}

double roundSignificant(double v, int digits) {
    if (v == 0 || !std::isfinite(v))
        return v;
    const int e = int(std::floor(std::log10(std::fabs(v)))) - (digits - 1);
    const double scale = std::pow(10.0, std::abs(e));
    return e < 0 ? std::round(v * scale) / scale : std::round(v / scale) * scale;
}

} // namespace

struct ParamForm::Row {
    ParamSpec spec;
    QString key;
    QLabel* label = nullptr;
    QSlider* slider = nullptr;
    NumberSpinBox* spin = nullptr;
    QCheckBox* check = nullptr;
    QComboBox* combo = nullptr;
    QLineEdit* line = nullptr;
    QToolButton* reset = nullptr;
    QWidget* editor = nullptr;
    bool locked = false;
    bool hidden = false;
};

ParamForm::ParamForm(QWidget* parent) : QWidget(parent) {
    m_layout = new QVBoxLayout(this);
    m_layout->setContentsMargins(0, 0, 0, 0);
    m_resetAll = new QPushButton(tr("Reset all"), this);
    m_resetAll->setToolTip(tr("Set every unlocked parameter back to its default"));
    m_resetAll->setAccessibleName(tr("Reset all parameters"));
    connect(m_resetAll, &QPushButton::clicked, this, &ParamForm::resetAll);
}

ParamForm::ParamForm(const std::vector<ParamSpec>& specs, QWidget* parent) : ParamForm(parent) {
    setSpecs(specs);
}

ParamForm::~ParamForm() = default;

void ParamForm::setSpecs(const std::vector<ParamSpec>& specs) {
    m_specs = specs;
    build();
}

int ParamForm::sliderSteps(const ParamSpec& s) {
    if (s.type != ParamType::Int && s.type != ParamType::Double)
        return 0;
    if (!std::isfinite(s.min) || !std::isfinite(s.max) || !(s.max > s.min))
        return 0;
    if (s.logScale)
        return s.min > 0 ? SliderSteps : 0;
    if (s.max - s.min > 1e12)
        return 0; // seeds and other effectively unbounded integers: spin box only
    if (s.type == ParamType::Int && s.max - s.min <= SliderSteps)
        return int(s.max - s.min);
    return SliderSteps;
}

int ParamForm::sliderPosition(const ParamSpec& s, double v) {
    const int steps = sliderSteps(s);
    if (steps == 0 || !std::isfinite(v))
        return 0;
    v = std::clamp(v, s.min, s.max);
    const double t =
        s.logScale ? std::log(v / s.min) / std::log(s.max / s.min) : (v - s.min) / (s.max - s.min);
    return std::clamp(int(std::lround(t * steps)), 0, steps);
}

double ParamForm::sliderValue(const ParamSpec& s, int position) {
    const int steps = sliderSteps(s);
    if (steps == 0)
        return s.min;
    position = std::clamp(position, 0, steps);
    if (position == 0)
        return s.min;
    if (position == steps)
        return s.max;
    const double t = double(position) / steps;
    double v;
    if (s.logScale) {
        v = roundSignificant(s.min * std::pow(s.max / s.min, t), 3);
    } else {
        v = s.min + t * (s.max - s.min);
        v = roundTo(v, (s.max - s.min) / steps);
    }
    if (s.type == ParamType::Int)
        v = std::round(v);
    return std::clamp(v, s.min, s.max);
}

void ParamForm::build() {
    // Tear down the old form.
    if (m_body) {
        m_layout->removeWidget(m_body);
        delete m_body;
        m_body = nullptr;
    }
    m_rows.clear();
    m_body = new QWidget(this);
    auto* bodyLayout = new QVBoxLayout(m_body);
    bodyLayout->setContentsMargins(0, 0, 0, 0);

    // Groups in order of first appearance.
    std::vector<std::string> groups;
    for (const ParamSpec& s : m_specs)
        if (std::find(groups.begin(), groups.end(), s.group) == groups.end())
            groups.push_back(s.group);
    for (const std::string& g : groups) {
        const QString title = !g.empty() ? qs(g) : (groups.size() > 1 ? tr("General") : tr("Parameters"));
        auto* box = new QGroupBox(title, m_body);
        box->setAccessibleName(title);
        auto* grid = new QGridLayout(box);
        grid->setColumnStretch(1, 1);
        grid->setHorizontalSpacing(8);
        int line = 0;
        for (const ParamSpec& s : m_specs) {
            if (s.group != g)
                continue;
            auto r = std::make_unique<Row>();
            r->spec = s;
            r->key = qs(s.key);
            addRow(grid, line++, *r);
            m_rows.push_back(std::move(r));
        }
        bodyLayout->addWidget(box);
    }
    auto* buttons = new QHBoxLayout;
    buttons->addStretch(1);
    buttons->addWidget(m_resetAll);
    bodyLayout->addLayout(buttons);
    bodyLayout->addStretch(1);
    m_layout->addWidget(m_body);
    m_resetAll->setEnabled(false);
    m_resetAll->setVisible(!m_rows.empty());
}

void ParamForm::addRow(QGridLayout* grid, int line, Row& r) {
    const ParamSpec& s = r.spec;
    QWidget* parent = grid->parentWidget();
    const QString label = qs(s.label.empty() ? s.key : s.label);
    const QString unit = qs(s.unit);

    QString tip = qs(s.help);
    tip += (tip.isEmpty() ? QString() : QStringLiteral("\n")) + tr("Allowed: %1").arg(qs(s.allowedText()));
    if (!unit.isEmpty())
        tip += QStringLiteral(" ") + unit;
    tip += QStringLiteral("\n") + tr("Default: %1").arg(qs(pl::toString(s.defaultValue)));
    tip += QStringLiteral("\n") + tr("Key: %1").arg(r.key);

    r.label = new QLabel(label, parent);
    r.label->setToolTip(tip);
    grid->addWidget(r.label, line, 0);

    switch (s.type) {
    case ParamType::Int:
    case ParamType::Double: {
        r.spin = new NumberSpinBox(parent);
        r.spin->setIntegerMode(s.type == ParamType::Int);
        const double lo = std::isfinite(s.min) ? s.min : -std::numeric_limits<double>::max();
        const double hi = std::isfinite(s.max) && s.max >= s.min ? s.max : std::numeric_limits<double>::max();
        r.spin->setRange(lo, hi);
        if (s.logScale && s.min > 0)
            r.spin->setLogStepping(true);
        else
            r.spin->setSingleStep(s.type == ParamType::Int ? 1.0 : std::max(1e-12, (hi - lo) / 100.0));
        if (!unit.isEmpty())
            r.spin->setSuffix(QStringLiteral(" ") + unit);
        r.spin->setMinimumWidth(90);
        r.editor = r.spin;
        if (sliderSteps(s) > 0) {
            r.slider = new QSlider(Qt::Horizontal, parent);
            r.slider->setRange(0, sliderSteps(s));
            r.slider->setPageStep(std::max(1, sliderSteps(s) / 10));
            r.slider->setToolTip(tip);
            r.slider->setAccessibleName(tr("%1 slider").arg(label));
            r.slider->setAccessibleDescription(qs(s.help));
            r.slider->setMinimumWidth(80);
            grid->addWidget(r.slider, line, 1);
            grid->addWidget(r.spin, line, 2);
        } else {
            grid->addWidget(r.spin, line, 1, 1, 2);
        }
        connect(r.spin, &QDoubleSpinBox::valueChanged, this, [this, &r](double v) {
            if (m_updating)
                return;
            ++m_updating;
            if (r.slider)
                r.slider->setValue(sliderPosition(r.spec, v));
            --m_updating;
            refreshReset(r);
            emit valueChanged(r.key, false);
        });
        if (r.slider) {
            connect(r.slider, &QSlider::valueChanged, this, [this, &r](int pos) {
                if (m_updating)
                    return;
                ++m_updating;
                r.spin->setValue(sliderValue(r.spec, pos));
                --m_updating;
                refreshReset(r);
                emit valueChanged(r.key, r.slider->isSliderDown());
            });
            connect(r.slider, &QSlider::sliderReleased, this,
                    [this, &r] { emit valueChanged(r.key, false); });
        }
        break;
    }
    case ParamType::Bool:
        r.check = new QCheckBox(parent);
        r.editor = r.check;
        grid->addWidget(r.check, line, 1, 1, 2);
        connect(r.check, &QCheckBox::toggled, this, [this, &r] {
            if (m_updating)
                return;
            refreshReset(r);
            emit valueChanged(r.key, false);
        });
        break;
    case ParamType::Choice:
        r.combo = new QComboBox(parent);
        for (const std::string& c : s.choices)
            r.combo->addItem(qs(c), qs(c));
        r.editor = r.combo;
        grid->addWidget(r.combo, line, 1, 1, 2);
        connect(r.combo, &QComboBox::currentIndexChanged, this, [this, &r] {
            if (m_updating)
                return;
            refreshReset(r);
            emit valueChanged(r.key, false);
        });
        break;
    case ParamType::String:
        r.line = new QLineEdit(parent);
        r.editor = r.line;
        grid->addWidget(r.line, line, 1, 1, 2);
        connect(r.line, &QLineEdit::editingFinished, this, [this, &r] {
            if (m_updating)
                return;
            refreshReset(r);
            emit valueChanged(r.key, false);
        });
        break;
    }
    r.editor->setToolTip(tip);
    r.editor->setAccessibleName(label);
    r.editor->setAccessibleDescription(qs(s.help));
    r.label->setBuddy(r.editor);

    r.reset = new QToolButton(parent);
    r.reset->setAutoRaise(true);
    const QIcon icon = QIcon::fromTheme(QStringLiteral("edit-undo"));
    if (icon.isNull())
        r.reset->setText(QStringLiteral("↺"));
    else
        r.reset->setIcon(icon);
    r.reset->setToolTip(tr("Reset %1 to %2").arg(label, qs(pl::toString(s.defaultValue))));
    r.reset->setAccessibleName(tr("Reset %1").arg(label));
    r.reset->setFocusPolicy(Qt::TabFocus);
    grid->addWidget(r.reset, line, 3);
    connect(r.reset, &QToolButton::clicked, this, [this, &r] { resetValue(r.key); });

    showValue(r, s.defaultValue);
    refreshReset(r);
}

ParamForm::Row* ParamForm::row(const QString& key) const {
    for (const auto& r : m_rows)
        if (r->key == key)
            return r.get();
    return nullptr;
}

void ParamForm::showValue(Row& r, const ParamValue& v) {
    ++m_updating;
    if (r.spin) {
        const double d = asDouble(v);
        r.spin->setValue(d);
        if (r.slider)
            r.slider->setValue(sliderPosition(r.spec, d));
    } else if (r.check) {
        r.check->setChecked(std::holds_alternative<bool>(v) && std::get<bool>(v));
    } else if (r.combo) {
        if (auto s = std::get_if<std::string>(&v))
            r.combo->setCurrentIndex(std::max(0, r.combo->findData(qs(*s))));
    } else if (r.line) {
        if (auto s = std::get_if<std::string>(&v))
            r.line->setText(qs(*s));
    }
    --m_updating;
}

ParamValue ParamForm::rowValue(const Row& r) const {
    switch (r.spec.type) {
    case ParamType::Int:
        return int64_t(std::llround(r.spin->value()));
    case ParamType::Double:
        return r.spin->value();
    case ParamType::Bool:
        return r.check->isChecked();
    case ParamType::Choice:
        return r.combo->currentData().toString().toStdString();
    case ParamType::String:
        return r.line->text().toStdString();
    }
    return 0.0;
}

void ParamForm::refreshReset(Row& r) {
    r.reset->setEnabled(!r.locked && rowValue(r) != r.spec.defaultValue);
    bool any = false;
    for (const auto& x : m_rows)
        any = any || (!x->locked && rowValue(*x) != x->spec.defaultValue);
    m_resetAll->setEnabled(any || (r.reset->isEnabled()));
}

void ParamForm::setValues(const ParamSet& set) {
    for (auto& r : m_rows) {
        const auto it = set.values().find(r->spec.key);
        if (it == set.values().end())
            continue;
        try {
            showValue(*r, r->spec.validate(it->second));
        } catch (const UsageError&) {
            // Out-of-range values from another spec version: keep the current value.
        }
        refreshReset(*r);
    }
}

ParamSet ParamForm::values() const {
    ParamSet set(m_specs);
    for (const auto& r : m_rows) {
        try {
            set.set(r->spec.key, rowValue(*r));
        } catch (const UsageError&) {
            // Cannot happen through the editors (ranges enforced); keep the default.
        }
    }
    return set;
}

ParamValue ParamForm::value(const QString& key) const {
    const Row* r = row(key);
    if (!r)
        throw UsageError("unknown parameter '" + key.toStdString() + "'");
    return rowValue(*r);
}

bool ParamForm::setValue(const QString& key, const ParamValue& v) {
    Row* r = row(key);
    if (!r)
        return false;
    ParamValue valid;
    try {
        valid = r->spec.validate(v);
    } catch (const UsageError&) {
        return false;
    }
    if (valid == rowValue(*r))
        return true;
    showValue(*r, valid);
    refreshReset(*r);
    emit valueChanged(key, false);
    return true;
}

void ParamForm::resetValue(const QString& key) {
    Row* r = row(key);
    if (!r || r->locked)
        return;
    setValue(key, r->spec.defaultValue);
}

void ParamForm::resetAll() {
    for (const auto& r : m_rows)
        resetValue(r->key);
}

void ParamForm::applyLockAndVisibility(Row& r) {
    for (QWidget* w : {static_cast<QWidget*>(r.label), static_cast<QWidget*>(r.slider), r.editor,
                       static_cast<QWidget*>(r.reset)})
        if (w) {
            w->setVisible(!r.hidden);
            if (w != r.label)
                w->setEnabled(!r.locked);
        }
    r.label->setEnabled(!r.locked);
    refreshReset(r);
}

void ParamForm::setLocked(const QString& key, bool locked) {
    if (Row* r = row(key)) {
        r->locked = locked;
        applyLockAndVisibility(*r);
    }
}

bool ParamForm::isLocked(const QString& key) const {
    const Row* r = row(key);
    return r && r->locked;
}

void ParamForm::setHidden(const QString& key, bool hidden) {
    if (Row* r = row(key)) {
        r->hidden = hidden;
        applyLockAndVisibility(*r);
    }
}

bool ParamForm::isRowHidden(const QString& key) const {
    const Row* r = row(key);
    return r && r->hidden;
}

QWidget* ParamForm::editor(const QString& key) const {
    const Row* r = row(key);
    return r ? r->editor : nullptr;
}

QSlider* ParamForm::slider(const QString& key) const {
    const Row* r = row(key);
    return r ? r->slider : nullptr;
}

QToolButton* ParamForm::resetButton(const QString& key) const {
    const Row* r = row(key);
    return r ? r->reset : nullptr;
}

} // namespace pl::gui
