#include "PreferencesDialog.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

namespace pl::gui {

PreferencesDialog::PreferencesDialog(const Preferences& current, QWidget* parent) : QDialog(parent) {
    setObjectName(QStringLiteral("PreferencesDialog"));
    setWindowTitle(tr("Preferences"));

    m_theme = new QComboBox(this);
    m_theme->addItem(tr("Follow the system"), QStringLiteral("system"));
    m_theme->addItem(tr("Light"), QStringLiteral("light"));
    m_theme->addItem(tr("Dark"), QStringLiteral("dark"));
    m_theme->setToolTip(tr("Colours of the application and of figures on screen. Exported figures use "
                           "the theme chosen in the export options."));

    m_dpi = new QSpinBox(this);
    m_dpi->setRange(Preferences::kMinDpi, Preferences::kMaxDpi);
    m_dpi->setSingleStep(50);
    m_dpi->setSuffix(tr(" dpi"));
    m_dpi->setToolTip(tr("Resolution of PNG figures exported from the GUI (the CLI's --dpi default is 300)"));

    m_threads = new QSpinBox(this);
    m_threads->setRange(1, Preferences::maxThreads());
    m_threads->setToolTip(tr("Threads an engine may use inside one run (like the CLI's --threads). "
                             "Results do not depend on it."));

    auto* form = new QFormLayout;
    form->addRow(tr("&Theme:"), m_theme);
    form->addRow(tr("Default export &DPI:"), m_dpi);
    form->addRow(tr("Engine &threads:"), m_threads);

    auto* note = new QLabel(tr("Changes to threads apply to the next run of each panel."), this);
    note->setWordWrap(true);
    note->setEnabled(false);

    auto* buttons = new QDialogButtonBox(
        QDialogButtonBox::Ok | QDialogButtonBox::Cancel | QDialogButtonBox::RestoreDefaults, this);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(buttons->button(QDialogButtonBox::RestoreDefaults), &QPushButton::clicked, this,
            [this] { setPreferences(Preferences{}); });

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(note);
    layout->addStretch(1);
    layout->addWidget(buttons);

    setPreferences(current);
    connect(m_theme, &QComboBox::currentIndexChanged, this,
            [this] { emit themePreviewRequested(m_theme->currentData().toString()); });
}

Preferences PreferencesDialog::preferences() const {
    Preferences p;
    p.theme = m_theme->currentData().toString();
    p.dpi = m_dpi->value();
    p.threads = m_threads->value();
    return p;
}

void PreferencesDialog::setPreferences(const Preferences& p) {
    const int idx = m_theme->findData(p.theme);
    m_theme->setCurrentIndex(idx < 0 ? 0 : idx);
    m_dpi->setValue(p.dpi);
    m_threads->setValue(p.threads);
}

} // namespace pl::gui
