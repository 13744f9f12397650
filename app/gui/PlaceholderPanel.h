#pragma once
/// Stands in for a panel whose plugin is missing or broken when a session is opened. It keeps
/// the session record verbatim (saved back unchanged) and says why the panel cannot open. GUI thread.

#include <QJsonObject>
#include <QWidget>

namespace pl::gui {

class PlaceholderPanel : public QWidget {
    Q_OBJECT
public:
    PlaceholderPanel(const QJsonObject& record, const QString& reason, QWidget* parent = nullptr);

    /// The record exactly as it was read from the session.
    const QJsonObject& record() const { return m_record; }
    QString pluginId() const { return m_record.value(QStringLiteral("plugin")).toString(); }
    QString reason() const { return m_reason; }
    /// Tab title: "<plugin id> (missing)".
    QString title() const;

private:
    QJsonObject m_record;
    QString m_reason;
};

} // namespace pl::gui
