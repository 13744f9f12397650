#pragma once
/// A non-modal message strip shown at the top of a panel (errors, refused files, notes):
/// icon, selectable text and a close button. Hidden until showMessage(). GUI thread.

#include <QFrame>

class QLabel;

namespace pl::gui {

class MessageBanner : public QFrame {
    Q_OBJECT
public:
    enum class Level { Info, Warning, Error };

    explicit MessageBanner(QWidget* parent = nullptr);

    /// Shows `text` (plain text) at `level`, replacing any previous message.
    void showMessage(const QString& text, Level level = Level::Error);
    /// The message shown, or an empty string when hidden.
    QString text() const;
    Level level() const { return m_level; }

public slots:
    void dismiss();

private:
    void restyle();
    QLabel* m_icon;
    QLabel* m_text;
    Level m_level = Level::Info;
};

} // namespace pl::gui
