#pragma once
/// The panel browser (left dock): a search field, a topic (tag) filter, the list of panels with
/// each paper's one-line idea, and a details box (paper, tags, figures, presets, error).
/// Broken plugins are listed, greyed, with their error. Reads metadata only: nothing is loaded
/// until a panel is opened. The PluginManager is not owned and must outlive the browser. GUI thread.

#include <QString>
#include <QWidget>

class QComboBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QListWidgetItem;
class QPushButton;

namespace pl {
class PluginManager;
struct PluginInfo;
} // namespace pl

namespace pl::gui {

class PanelBrowser : public QWidget {
    Q_OBJECT
public:
    explicit PanelBrowser(PluginManager* plugins, QWidget* parent = nullptr);

    /// Rebuilds the list and the topic filter from the manager's plugins().
    void refresh();
    /// Number of plugins currently listed (after search and topic filtering).
    int visibleCount() const;
    /// Ids of the listed plugins, in display order (after filtering).
    QStringList visibleIds() const;
    /// All topics offered by the topic filter (sorted, without "All topics").
    QStringList topics() const;

    QLineEdit* searchField() const { return m_search; }
    QComboBox* topicCombo() const { return m_topic; }
    QListWidget* list() const { return m_list; }

    /// True when `info` matches the search `text` (title, id, paper, idea, tags; every word must
    /// match) and `topic` (empty = any).
    static bool matches(const PluginInfo& info, const QString& text, const QString& topic);

public slots:
    void setSearchText(const QString& text);
    /// Selects a topic ("" = all topics).
    void setTopic(const QString& topic);
    /// Focuses the search field and selects its text.
    void focusSearch();
    /// Selects the plugin with this id (if listed).
    void select(const QString& id);

signals:
    /// The user asked to open a panel (double click, Enter or the Open button).
    void openRequested(const QString& pluginId);

private:
    void applyFilter();
    void showDetails();
    QString currentId() const;

    PluginManager* m_plugins;
    QLineEdit* m_search;
    QComboBox* m_topic;
    QListWidget* m_list;
    QLabel* m_details;
    QPushButton* m_open;
};

} // namespace pl::gui
