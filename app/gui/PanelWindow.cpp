#include "PanelWindow.h"

#include "PanelWidget.h"

#include <QAction>
#include <QCloseEvent>
#include <QStyle>
#include <QToolBar>

namespace pl::gui {

PanelWindow::PanelWindow(QWidget* panel, const QString& title, QWidget* parent)
    : QMainWindow(parent, Qt::Window), m_panel(panel) {
    setObjectName(QStringLiteral("PanelWindow"));
    setWindowTitle(tr("%1 — Paperlab").arg(title));
    setAttribute(Qt::WA_DeleteOnClose, false);

    auto* bar = addToolBar(tr("Panel"));
    bar->setObjectName(QStringLiteral("PanelWindowToolBar"));
    bar->setMovable(false);
    bar->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    QAction* reattach =
        bar->addAction(style()->standardIcon(QStyle::SP_TitleBarNormalButton), tr("Reattach"));
    reattach->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_D));
    reattach->setToolTip(tr("Put this panel back into the main window's tabs (Ctrl+Shift+D)"));
    connect(reattach, &QAction::triggered, this, [this] { emit reattachRequested(this); });

    if (auto* p = qobject_cast<PanelWidget*>(panel)) {
        QAction* run = bar->addAction(style()->standardIcon(QStyle::SP_MediaPlay), tr("Run"));
        run->setShortcuts({QKeySequence(Qt::Key_F5), QKeySequence(Qt::CTRL | Qt::Key_R)});
        connect(run, &QAction::triggered, p, &PanelWidget::run);
        QAction* cancel = bar->addAction(style()->standardIcon(QStyle::SP_BrowserStop), tr("Cancel"));
        cancel->setShortcut(QKeySequence(Qt::Key_Escape));
        connect(cancel, &QAction::triggered, p, &PanelWidget::cancel);
        QAction* help = bar->addAction(style()->standardIcon(QStyle::SP_DialogHelpButton), tr("Help"));
        help->setShortcut(QKeySequence(Qt::Key_F1));
        connect(help, &QAction::triggered, p, &PanelWidget::showHelp);
    }

    panel->setParent(this);
    setCentralWidget(panel);
    panel->show();
    resize(panel->size().expandedTo(QSize(900, 600)));
}

QWidget* PanelWindow::takePanel() {
    QWidget* p = m_panel;
    if (!p)
        return nullptr;
    takeCentralWidget();
    p->setParent(nullptr);
    m_panel = nullptr;
    return p;
}

void PanelWindow::closeEvent(QCloseEvent* event) {
    if (m_panel) {
        event->ignore();
        emit reattachRequested(this);
        return;
    }
    QMainWindow::closeEvent(event);
}

} // namespace pl::gui
