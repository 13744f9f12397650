#pragma once
/// Shows a Markdown help page (a panel's helpMarkdown() or the application's keyboard
/// shortcuts) with a find bar (Ctrl+F inside the viewer, Enter / Shift+Enter for next/previous).
/// Links to web pages open in the system browser. GUI thread.

#include <QWidget>

class QLineEdit;
class QTextBrowser;
class QAction;

namespace pl::gui {

class HelpViewer : public QWidget {
    Q_OBJECT
public:
    explicit HelpViewer(QWidget* parent = nullptr);

    void setMarkdown(const QString& markdown);
    QString markdown() const { return m_markdown; }
    /// The rendered text (for tests and copying).
    QString plainText() const;
    QTextBrowser* browser() const { return m_browser; }

    /// A Markdown table of the shortcuts of `actions` (those with a shortcut, in order).
    static QString shortcutsMarkdown(const QList<QAction*>& actions);
    /// Opens a non-modal window titled `title` showing `markdown`; deleted when closed.
    static HelpViewer* showWindow(const QString& title, const QString& markdown, QWidget* parent);

public slots:
    /// Shows the find bar and focuses it.
    void startFind();
    /// Finds the next (or previous) occurrence of the find bar's text; returns false when none.
    bool findNext(bool backward = false);

private:
    QTextBrowser* m_browser;
    QLineEdit* m_find;
    QString m_markdown;
};

} // namespace pl::gui
