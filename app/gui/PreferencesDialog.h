#pragma once
/// Edits the Preferences (theme light/dark/system, default export DPI, engine threads). The
/// theme previews live while the dialog is open and reverts on Cancel. The caller applies and
/// saves the accepted value (MainWindow::applyPreferences). GUI thread.

#include "Preferences.h"

#include <QDialog>

class QComboBox;
class QSpinBox;

namespace pl::gui {

class PreferencesDialog : public QDialog {
    Q_OBJECT
public:
    explicit PreferencesDialog(const Preferences& current, QWidget* parent = nullptr);

    /// The values shown in the dialog.
    Preferences preferences() const;
    void setPreferences(const Preferences& p);

    QComboBox* themeCombo() const { return m_theme; }
    QSpinBox* dpiSpin() const { return m_dpi; }
    QSpinBox* threadsSpin() const { return m_threads; }

signals:
    /// The theme selection changed (for a live preview): "light", "dark" or "system".
    void themePreviewRequested(const QString& theme);

private:
    QComboBox* m_theme;
    QSpinBox* m_dpi;
    QSpinBox* m_threads;
};

} // namespace pl::gui
