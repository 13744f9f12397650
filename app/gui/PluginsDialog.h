#pragma once
/// Lists every plugin the PluginManager found (not owned; must outlive the dialog): id, title,
/// version, state ("available", "loaded" or the error of a broken plugin, in red) and the
/// library path. Refreshes when a plugin fails to load. GUI thread.

#include <QDialog>

class QTableWidget;
class QLabel;

namespace pl {
class PluginManager;
}

namespace pl::gui {

class PluginsDialog : public QDialog {
    Q_OBJECT
public:
    enum Column { IdColumn, TitleColumn, VersionColumn, StatusColumn, PathColumn, ColumnCount };

    explicit PluginsDialog(PluginManager* plugins, QWidget* parent = nullptr);

    QTableWidget* table() const { return m_table; }

public slots:
    /// Re-reads the plugin list.
    void refresh();

private:
    PluginManager* m_plugins;
    QTableWidget* m_table;
    QLabel* m_summary;
};

} // namespace pl::gui
