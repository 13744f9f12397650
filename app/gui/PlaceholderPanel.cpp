#include "PlaceholderPanel.h"

#include <QJsonDocument>
#include <QLabel>
#include <QPlainTextEdit>
#include <QStyle>
#include <QVBoxLayout>

namespace pl::gui {

PlaceholderPanel::PlaceholderPanel(const QJsonObject& record, const QString& reason, QWidget* parent)
    : QWidget(parent), m_record(record), m_reason(reason) {
    setObjectName(QStringLiteral("PlaceholderPanel"));
    auto* icon = new QLabel(this);
    icon->setPixmap(style()->standardIcon(QStyle::SP_MessageBoxWarning).pixmap(48, 48));
    auto* text = new QLabel(this);
    text->setWordWrap(true);
    text->setTextFormat(Qt::RichText);
    text->setText(tr("<h3>Panel “%1” is not available</h3><p>%2</p><p>Its state is kept as it was in the "
                     "session and is saved back unchanged, so the session still opens on a machine "
                     "where the plugin is installed.</p>")
                      .arg(pluginId().toHtmlEscaped(), reason.toHtmlEscaped()));
    auto* json = new QPlainTextEdit(this);
    json->setReadOnly(true);
    json->setPlainText(QString::fromUtf8(QJsonDocument(record).toJson(QJsonDocument::Indented)));
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(icon, 0, Qt::AlignLeft);
    layout->addWidget(text);
    layout->addWidget(json, 1);
}

QString PlaceholderPanel::title() const {
    return tr("%1 (missing)").arg(pluginId());
}

} // namespace pl::gui
