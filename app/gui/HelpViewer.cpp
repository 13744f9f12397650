#include "HelpViewer.h"

#include <QAction>
#include <QGuiApplication>
#include <QKeySequence>
#include <QLineEdit>
#include <QShortcut>
#include <QTextBrowser>
#include <QTextCursor>
#include <QVBoxLayout>

namespace pl::gui {

HelpViewer::HelpViewer(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("HelpViewer"));
    m_browser = new QTextBrowser(this);
    m_browser->setOpenExternalLinks(true);
    m_browser->setOpenLinks(true);
    m_find = new QLineEdit(this);
    m_find->setPlaceholderText(tr("Find in help (Enter: next, Shift+Enter: previous, Esc: close)"));
    m_find->setClearButtonEnabled(true);
    m_find->hide();
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    layout->addWidget(m_browser, 1);
    layout->addWidget(m_find);

    auto* find = new QShortcut(QKeySequence::Find, this, this, &HelpViewer::startFind);
    find->setContext(Qt::WidgetWithChildrenShortcut);
    auto* close = new QShortcut(QKeySequence(Qt::Key_Escape), m_find, m_find, &QLineEdit::hide);
    close->setContext(Qt::WidgetShortcut);
    connect(m_find, &QLineEdit::returnPressed, this,
            [this] { findNext(QGuiApplication::keyboardModifiers() & Qt::ShiftModifier); });
    connect(m_find, &QLineEdit::textEdited, this, [this] {
        QTextCursor c = m_browser->textCursor();
        c.setPosition(c.selectionStart());
        m_browser->setTextCursor(c);
        findNext(false);
    });
}

void HelpViewer::setMarkdown(const QString& markdown) {
    m_markdown = markdown;
    m_browser->setMarkdown(markdown);
}

QString HelpViewer::plainText() const {
    return m_browser->toPlainText();
}

void HelpViewer::startFind() {
    m_find->show();
    m_find->setFocus();
    m_find->selectAll();
}

bool HelpViewer::findNext(bool backward) {
    const QString text = m_find->text();
    if (text.isEmpty())
        return false;
    const QTextDocument::FindFlags flags =
        backward ? QTextDocument::FindBackward : QTextDocument::FindFlags();
    if (m_browser->find(text, flags))
        return true;
    // Wrap around once.
    QTextCursor c = m_browser->textCursor();
    c.movePosition(backward ? QTextCursor::End : QTextCursor::Start);
    m_browser->setTextCursor(c);
    return m_browser->find(text, flags);
}

QString HelpViewer::shortcutsMarkdown(const QList<QAction*>& actions) {
    QString md = tr("# Keyboard shortcuts\n\n| Action | Shortcut |\n|---|---|\n");
    for (const QAction* a : actions) {
        if (!a || a->shortcut().isEmpty())
            continue;
        QString name = a->text();
        name.remove(QLatin1Char('&'));
        name.replace(QStringLiteral("..."), QString()).replace(QStringLiteral("…"), QString());
        QStringList keys;
        for (const QKeySequence& k : a->shortcuts())
            keys << QStringLiteral("`%1`").arg(k.toString(QKeySequence::NativeText));
        md += QStringLiteral("| %1 | %2 |\n").arg(name, keys.join(QStringLiteral(", ")));
    }
    return md;
}

HelpViewer* HelpViewer::showWindow(const QString& title, const QString& markdown, QWidget* parent) {
    auto* viewer = new HelpViewer(parent);
    viewer->setWindowFlag(Qt::Window);
    viewer->setAttribute(Qt::WA_DeleteOnClose);
    viewer->setWindowTitle(title);
    viewer->setMarkdown(markdown);
    viewer->resize(640, 560);
    viewer->show();
    return viewer;
}

} // namespace pl::gui
