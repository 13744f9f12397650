#include "MessageBanner.h"

#include "widgets/Theme.h"
#include "widgets/ThemeManager.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QStyle>
#include <QToolButton>

namespace pl::gui {

MessageBanner::MessageBanner(QWidget* parent) : QFrame(parent) {
    setObjectName(QStringLiteral("MessageBanner"));
    setFrameShape(QFrame::StyledPanel);
    setAutoFillBackground(true);
    m_icon = new QLabel(this);
    m_text = new QLabel(this);
    m_text->setWordWrap(true);
    m_text->setTextFormat(Qt::PlainText);
    m_text->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* close = new QToolButton(this);
    close->setAutoRaise(true);
    close->setIcon(style()->standardIcon(QStyle::SP_TitleBarCloseButton));
    close->setToolTip(tr("Dismiss"));
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(6, 4, 4, 4);
    layout->addWidget(m_icon, 0, Qt::AlignTop);
    layout->addWidget(m_text, 1);
    layout->addWidget(close, 0, Qt::AlignTop);
    connect(close, &QToolButton::clicked, this, &MessageBanner::dismiss);
    connect(ThemeManager::instance(), &ThemeManager::themeChanged, this, &MessageBanner::restyle);
    hide();
}

void MessageBanner::showMessage(const QString& text, Level level) {
    m_level = level;
    m_text->setText(text);
    const QStyle::StandardPixmap icon = level == Level::Error     ? QStyle::SP_MessageBoxCritical
                                        : level == Level::Warning ? QStyle::SP_MessageBoxWarning
                                                                  : QStyle::SP_MessageBoxInformation;
    const int size = style()->pixelMetric(QStyle::PM_SmallIconSize, nullptr, this);
    m_icon->setPixmap(style()->standardIcon(icon).pixmap(size, size));
    restyle();
    show();
}

QString MessageBanner::text() const {
    return isHidden() ? QString() : m_text->text();
}

void MessageBanner::dismiss() {
    hide();
}

void MessageBanner::restyle() {
    const bool dark = Theme::current().isDark;
    QColor bg;
    switch (m_level) {
    case Level::Error:
        bg = dark ? QColor(0x5a, 0x22, 0x22) : QColor(0xf8, 0xd7, 0xda);
        break;
    case Level::Warning:
        bg = dark ? QColor(0x5a, 0x4a, 0x1a) : QColor(0xff, 0xf3, 0xcd);
        break;
    case Level::Info:
        bg = dark ? QColor(0x1f, 0x3d, 0x5a) : QColor(0xd1, 0xec, 0xf1);
        break;
    }
    QPalette p = palette();
    p.setColor(QPalette::Window, bg);
    p.setColor(QPalette::WindowText, dark ? QColor(0xf0, 0xf0, 0xf0) : QColor(0x20, 0x20, 0x20));
    setPalette(p);
}

} // namespace pl::gui
