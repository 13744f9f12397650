#include "PanelControls.h"

#include "GuiLog.h"
#include "ParamChangeCommand.h"
#include "SavePresetDialog.h"
#include "SeedSpinBox.h"
#include "core/Errors.h"
#include "sdk/PanelModel.h"
#include "sdk/UserPresets.h"

#include "widgets/ParamForm.h"

#include <QComboBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QRandomGenerator>
#include <QSettings>
#include <QStyle>
#include <QSlider>
#include <QToolButton>
#include <QUndoStack>
#include <QVBoxLayout>

namespace pl::gui {

namespace {
/// Item data of the combo's last entry, which opens the "Save preset" dialog.
const QString kSaveItem = QStringLiteral("\x01save");
} // namespace

PanelControls::PanelControls(PanelModel* model, QWidget* parent)
    : QWidget(parent), m_model(model), m_undo(new QUndoStack(this)) {
    setObjectName(QStringLiteral("PanelControls"));
    model->setUserPresets(UserPresets::load(model->info().id));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);

    // Presets.
    m_preset = new QComboBox(this);
    m_preset->setObjectName(QStringLiteral("PresetCombo"));
    m_preset->setAccessibleName(tr("Preset"));
    rebuildPresetCombo();
    m_preset->setToolTip(tr("Named parameter sets from the paper and for teaching, and your own "
                            "(\"Save preset…\" at the end of the list)"));
    m_presetDescription = new QLabel(this);
    m_presetDescription->setWordWrap(true);
    m_presetDescription->setEnabled(false);
    auto* presetRow = new QFormLayout;
    presetRow->addRow(tr("&Preset:"), m_preset);
    layout->addLayout(presetRow);
    layout->addWidget(m_presetDescription);

    // Parameters (the form groups rows by ParamSpec::group and has per-row reset and "Reset all").
    m_form = new ParamForm(model->engine().params(), this);
    m_form->setObjectName(QStringLiteral("ParamForm"));
    layout->addWidget(m_form);
    connect(m_form, &ParamForm::valueChanged, this, &PanelControls::onFormValueChanged);

    // Seed.
    m_seed = new SeedSpinBox(this);
    m_seed->setValue(model->seed());
    m_seed->setToolTip(tr("Seed of the random generator: the same panel, parameters, inputs and seed give "
                          "the same result, bit for bit"));
    auto* dice = new QToolButton(this);
    dice->setText(tr("New"));
    dice->setToolTip(tr("Draw a new random seed"));
    auto* seedRow = new QHBoxLayout;
    seedRow->addWidget(new QLabel(tr("Seed:"), this));
    seedRow->addWidget(m_seed, 1);
    seedRow->addWidget(dice);
    layout->addLayout(seedRow);
    m_seed->setAccessibleName(tr("Seed"));
    dice->setAccessibleName(tr("New random seed"));
    m_dice = dice;
    connect(m_seed, &SeedSpinBox::valueChanged, this, [this](quint64 v) {
        if (m_syncing)
            return;
        const PanelSnapshot before = PanelSnapshot::of(*m_model);
        m_model->setSeed(v);
        recordChange(QStringLiteral("seed"), before, tr("Change seed"));
        m_model->requestRun(true);
    });
    connect(dice, &QToolButton::clicked, this,
            [this] { m_seed->setValue(QRandomGenerator::global()->generate64()); });

    // Input files.
    if (model->engine().maxInputs() > 0) {
        auto* box = new QGroupBox(tr("Input"), this);
        m_inputBox = box;
        auto* load = new QPushButton(tr("Load…"), box);
        load->setObjectName(QStringLiteral("LoadInputButton"));
        load->setToolTip(
            tr("Load an input file (%1); you can also drop files onto the panel").arg(inputFilter()));
        m_clearInput = new QToolButton(box);
        m_clearInput->setText(tr("Clear"));
        m_clearInput->setToolTip(tr("Forget the input file and use the built-in workload"));
        m_inputSummary = new QLabel(box);
        m_inputSummary->setWordWrap(true);
        m_inputSummary->setTextInteractionFlags(Qt::TextSelectableByMouse);
        auto* row = new QHBoxLayout;
        row->addWidget(load);
        row->addWidget(m_clearInput);
        row->addStretch(1);
        auto* bl = new QVBoxLayout(box);
        bl->setContentsMargins(4, 4, 4, 4);
        bl->addLayout(row);
        bl->addWidget(m_inputSummary);
        layout->addWidget(box);
        connect(load, &QPushButton::clicked, this, &PanelControls::chooseInputFile);
        connect(m_clearInput, &QToolButton::clicked, this, [this] {
            m_model->clearInputs();
            m_model->requestRun();
        });
    }

    // Run / cancel.
    m_run = new QPushButton(style()->standardIcon(QStyle::SP_MediaPlay), tr("Run"), this);
    m_run->setObjectName(QStringLiteral("RunButton"));
    m_run->setToolTip(tr("Compute now (F5). Parameter changes recompute automatically."));
    m_cancel = new QPushButton(style()->standardIcon(QStyle::SP_BrowserStop), tr("Cancel"), this);
    m_cancel->setObjectName(QStringLiteral("CancelButton"));
    m_cancel->setToolTip(tr("Stop the running computation (Esc)"));
    m_cancel->setEnabled(false);
    m_status = new QLabel(this);
    m_status->setWordWrap(true);
    auto* runRow = new QHBoxLayout;
    runRow->addWidget(m_run);
    runRow->addWidget(m_cancel);
    layout->addLayout(runRow);
    layout->addWidget(m_status);
    layout->addStretch(1);
    connect(m_run, &QPushButton::clicked, this, [this] { m_model->requestRun(); });
    connect(m_cancel, &QPushButton::clicked, this, [this] { m_model->cancel(); });

    connect(m_preset, &QComboBox::activated, this, [this](int index) {
        const QString name = m_preset->itemData(index).toString();
        if (name == kSaveItem) {
            syncPresetUi();
            savePresetInteractive();
        } else if (!name.isEmpty()) {
            applyPreset(name);
        }
    });
    connect(model, &PanelModel::paramsChanged, this, &PanelControls::syncParams);
    connect(model, &PanelModel::seedChanged, this, [this] {
        m_syncing = true;
        m_seed->setValue(m_model->seed());
        m_syncing = false;
    });
    connect(model, &PanelModel::inputsChanged, this, &PanelControls::syncInputs);
    connect(model, &PanelModel::runningChanged, this, [this](bool running) {
        m_cancel->setEnabled(running);
        if (running)
            m_status->setText(tr("running…"));
    });
    connect(model, &PanelModel::progress, this, [this](double f, const QString& s) {
        m_status->setText(s.isEmpty() ? tr("running… %1%").arg(int(f * 100))
                                      : tr("running… %1% (%2)").arg(int(f * 100)).arg(s));
    });
    connect(model, &PanelModel::resultChanged, this, [this] {
        if (const auto r = m_model->result())
            m_status->setText(tr("done in %1 ms").arg(r->elapsedMs, 0, 'f', r->elapsedMs < 10 ? 1 : 0));
    });
    syncParams();
    syncInputs();
    setupAccessibility();
}

void PanelControls::rebuildPresetCombo() {
    m_syncing = true;
    m_preset->clear();
    m_preset->addItem(tr("(custom)"), QString());
    for (const PresetInfo& p : m_model->info().presets) {
        m_preset->addItem(p.name, p.name);
        m_preset->setItemData(m_preset->count() - 1, p.description, Qt::ToolTipRole);
    }
    if (!m_model->userPresets().isEmpty())
        m_preset->insertSeparator(m_preset->count());
    for (const PresetInfo& p : m_model->userPresets()) {
        m_preset->addItem(tr("%1 (mine)").arg(p.name), p.name);
        m_preset->setItemData(m_preset->count() - 1, p.description, Qt::ToolTipRole);
    }
    m_preset->insertSeparator(m_preset->count());
    m_preset->addItem(tr("Save preset…"), kSaveItem);
    m_preset->setItemData(m_preset->count() - 1,
                          tr("Save the current parameters as your own preset (optionally locking or hiding "
                             "controls for a class)"),
                          Qt::ToolTipRole);
    m_syncing = false;
}

void PanelControls::setupAccessibility() {
    // ParamForm names its editors, sliders and reset buttons; here the keyboard order runs
    // top to bottom: preset, each row (editor, slider, reset), seed, input, Run, Cancel.
    QWidget* prev = m_preset;
    auto chain = [&prev](QWidget* w) {
        if (!w)
            return;
        QWidget::setTabOrder(prev, w);
        prev = w;
    };
    for (const ParamSpec& spec : m_form->specs()) {
        const QString key = QString::fromStdString(spec.key);
        chain(m_form->editor(key));
        chain(m_form->slider(key));
        chain(m_form->resetButton(key));
    }
    chain(m_seed);
    chain(m_dice);
    chain(m_run);
    chain(m_cancel);
    m_run->setAccessibleName(tr("Run"));
    m_cancel->setAccessibleName(tr("Cancel run"));
    m_status->setAccessibleName(tr("Run status"));
}

void PanelControls::recordChange(const QString& mergeKey, const PanelSnapshot& before, const QString& text) {
    const PanelSnapshot after = PanelSnapshot::of(*m_model);
    if (after == before)
        return;
    m_undo->push(new ParamChangeCommand(m_model, mergeKey, before, after, text));
}

void PanelControls::applyState(const PanelSnapshot& state, const QString& undoText) {
    const PanelSnapshot before = PanelSnapshot::of(*m_model);
    state.applyTo(*m_model);
    recordChange(QString(), before, undoText);
}

bool PanelControls::saveUserPreset(const QString& name, const QString& description, const QStringList& locked,
                                   const QStringList& hidden, QString* error) {
    const QString n = name.trimmed();
    QString why;
    if (n.isEmpty())
        why = tr("a preset needs a name");
    else if (m_model->info().preset(n))
        why = tr("'%1' is one of the paper's presets: choose another name").arg(n);
    if (!why.isEmpty()) {
        if (error)
            *error = why;
        emit messageRequested(why, MessageBanner::Level::Error);
        return false;
    }
    PresetInfo p;
    p.name = n;
    p.description = description;
    p.params = UserPresets::paramsToJson(m_model->params());
    p.locked = locked;
    p.hidden = hidden;
    m_model->setUserPresets(UserPresets::put(m_model->info().id, p));
    rebuildPresetCombo();
    applyPreset(n);
    emit messageRequested(tr("Saved preset '%1'").arg(n), MessageBanner::Level::Info);
    return true;
}

void PanelControls::savePresetInteractive() {
    SavePresetDialog dialog(m_model->engine().params(), this);
    if (dialog.exec() == QDialog::Accepted)
        saveUserPreset(dialog.name(), dialog.description(), dialog.lockedKeys(), dialog.hiddenKeys());
}

QString PanelControls::inputFilter() const {
    QStringList patterns;
    for (const std::string& ext : m_model->engine().inputExtensions())
        patterns << QStringLiteral("*.") + QString::fromStdString(ext);
    QString filter;
    if (!patterns.isEmpty())
        filter = tr("Input files (%1);;").arg(patterns.join(QLatin1Char(' ')));
    return filter + tr("All files (*)");
}

QString PanelControls::inputSummary() const {
    return m_inputSummary ? m_inputSummary->text() : QString();
}

QString PanelControls::statusText() const {
    return m_status->text();
}

void PanelControls::setStatusText(const QString& text) {
    m_status->setText(text);
}

void PanelControls::onFormValueChanged(const QString& key, bool dragging) {
    if (m_syncing)
        return;
    try {
        // setParam debounces the recompute while a slider is dragged (latest wins).
        const PanelSnapshot before = PanelSnapshot::of(*m_model);
        m_model->setParam(key, m_form->value(key), dragging);
        recordChange(key, before, tr("Change %1").arg(key));
    } catch (const std::exception& e) {
        emit messageRequested(QString::fromStdString(e.what()), MessageBanner::Level::Error);
        syncParams(); // show the model's (unchanged) value again
    }
}

void PanelControls::syncParams() {
    m_syncing = true;
    m_form->setValues(m_model->params());
    syncPresetUi();
    m_syncing = false;
}

void PanelControls::syncPresetUi() {
    const QString active = m_model->activePreset();
    const int idx = m_preset->findData(active);
    m_preset->setCurrentIndex(idx < 0 ? 0 : idx);
    const PresetInfo* p = active.isEmpty() ? nullptr : m_model->presetInfo(active);
    m_presetDescription->setText(p ? p->description : QString());
    m_presetDescription->setVisible(p && !p->description.isEmpty());
    for (const ParamSpec& spec : m_form->specs()) {
        const QString key = QString::fromStdString(spec.key);
        m_form->setLocked(key, p && p->locked.contains(key));
        m_form->setHidden(key, p && p->hidden.contains(key));
    }
}

void PanelControls::syncInputs() {
    if (!m_inputSummary)
        return;
    QStringList lines;
    for (const InputFile& f : m_model->inputs()) {
        const QString name = QFileInfo(f.path).fileName();
        const QString summary = f.data ? QString::fromStdString(f.data->summary) : QString();
        lines << (summary.isEmpty() ? name : QStringLiteral("%1: %2").arg(name, summary));
    }
    m_inputSummary->setText(lines.isEmpty()
                                ? tr("No input file: the built-in workload of the parameters is used.")
                                : lines.join(QLatin1Char('\n')));
    m_inputSummary->setToolTip(lines.isEmpty() ? QString() : m_model->inputs().first().path);
    m_clearInput->setEnabled(!lines.isEmpty());
}

void PanelControls::applyPreset(const QString& name) {
    QString error;
    const PanelSnapshot before = PanelSnapshot::of(*m_model);
    if (!m_model->applyPreset(name, &error)) {
        emit messageRequested(error, MessageBanner::Level::Error);
        syncPresetUi();
        return;
    }
    recordChange(QString(), before, tr("Apply preset %1").arg(name));
    m_model->requestRun();
}

void PanelControls::resetParameters() {
    const PanelSnapshot before = PanelSnapshot::of(*m_model);
    try {
        m_model->restoreParams(ParamSet(m_model->engine().params()), QString());
    } catch (const std::exception& e) {
        emit messageRequested(QString::fromStdString(e.what()), MessageBanner::Level::Error);
        return;
    }
    recordChange(QString(), before, tr("Reset parameters"));
    m_model->requestRun();
}

void PanelControls::chooseInputFile() {
    QSettings settings;
    const QString dir = settings.value(QStringLiteral("inputs/lastDir")).toString();
    const QString path = QFileDialog::getOpenFileName(
        this, tr("Load input for %1").arg(m_model->info().title), dir, inputFilter());
    if (path.isEmpty())
        return;
    settings.setValue(QStringLiteral("inputs/lastDir"), QFileInfo(path).absolutePath());
    emit inputFileChosen(path);
}

} // namespace pl::gui
