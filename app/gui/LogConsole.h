#pragma once
/// The log console shown in the bottom dock: every Qt log message of the process (qDebug,
/// qCInfo(...), qWarning, ...) with time, level and category, filterable by level and text.
/// A process-wide message handler (installed once, chaining to the previous one so stderr and
/// Qt Test still see everything) feeds a shared ring buffer that every console displays.

#include <QString>
#include <QWidget>
#include <QtGlobal>

class QComboBox;
class QLineEdit;
class QPlainTextEdit;

namespace pl::gui {

class LogConsole : public QWidget {
    Q_OBJECT
public:
    /// GUI thread. Installs the message handler if that was not done yet.
    explicit LogConsole(QWidget* parent = nullptr);
    ~LogConsole() override;

    /// Installs the process-wide message handler (idempotent). Call from the GUI thread after
    /// the QApplication exists; messages are then collected from every thread.
    static void installMessageHandler();
    /// Adds a line to every console. Thread-safe (delivered on the GUI thread, queued).
    static void post(QtMsgType type, const QString& category, const QString& text);

    /// The lines currently shown (after filtering), for tests and "copy all".
    QString visibleText() const;
    /// Number of messages kept in the shared buffer (at most a few thousand).
    static int bufferedCount();

    struct Entry; ///< one message (defined in the .cpp)

public slots:
    /// Empties the shared buffer and every console.
    void clearAll();

private:
    static void deliver(const Entry& e);
    static QString format(const Entry& e);
    bool accepts(const Entry& e) const;
    void appendEntry(const Entry& e);
    void rebuild();

    QPlainTextEdit* m_view;
    QComboBox* m_level;
    QLineEdit* m_filter;
};

} // namespace pl::gui
