#include "PluginsDialog.h"

#include "sdk/PluginManager.h"

#include <QDialogButtonBox>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QStyle>
#include <QTableWidget>
#include <QVBoxLayout>

namespace pl::gui {

PluginsDialog::PluginsDialog(PluginManager* plugins, QWidget* parent) : QDialog(parent), m_plugins(plugins) {
    setObjectName(QStringLiteral("PluginsDialog"));
    setWindowTitle(tr("Plugins"));
    resize(860, 420);

    m_summary = new QLabel(this);
    m_summary->setWordWrap(true);
    m_table = new QTableWidget(0, ColumnCount, this);
    m_table->setHorizontalHeaderLabels({tr("Id"), tr("Title"), tr("Version"), tr("Status"), tr("Library")});
    m_table->verticalHeader()->setVisible(false);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setWordWrap(true);
    m_table->horizontalHeader()->setSectionResizeMode(IdColumn, QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setSectionResizeMode(TitleColumn, QHeaderView::Interactive);
    m_table->horizontalHeader()->setSectionResizeMode(VersionColumn, QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setSectionResizeMode(StatusColumn, QHeaderView::Stretch);
    m_table->horizontalHeader()->setSectionResizeMode(PathColumn, QHeaderView::Interactive);
    m_table->setColumnWidth(TitleColumn, 220);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_summary);
    layout->addWidget(m_table, 1);
    layout->addWidget(buttons);

    if (m_plugins)
        connect(m_plugins, &PluginManager::pluginFailed, this, &PluginsDialog::refresh);
    refresh();
}

void PluginsDialog::refresh() {
    const QList<PluginInfo> infos = m_plugins ? m_plugins->plugins() : QList<PluginInfo>{};
    m_table->setRowCount(int(infos.size()));
    int broken = 0;
    const QIcon ok = style()->standardIcon(QStyle::SP_DialogApplyButton);
    const QIcon bad = style()->standardIcon(QStyle::SP_MessageBoxCritical);
    for (int r = 0; r < int(infos.size()); ++r) {
        const PluginInfo& info = infos.at(r);
        const bool isBroken = !info.error.isEmpty();
        broken += isBroken ? 1 : 0;
        auto* status = new QTableWidgetItem(isBroken ? info.error : tr("available"));
        status->setIcon(isBroken ? bad : ok);
        status->setToolTip(isBroken ? info.error
                                    : tr("Metadata read; the library loads when the panel is first opened."));
        if (isBroken)
            status->setForeground(QColor(0xc6, 0x28, 0x28));
        const QString path = info.libraryPath.isEmpty() ? tr("(built in)") : info.libraryPath;
        auto* pathItem = new QTableWidgetItem(path);
        pathItem->setToolTip(path);
        m_table->setItem(r, IdColumn, new QTableWidgetItem(info.id));
        m_table->setItem(r, TitleColumn, new QTableWidgetItem(info.title));
        m_table->setItem(r, VersionColumn, new QTableWidgetItem(info.version));
        m_table->setItem(r, StatusColumn, status);
        m_table->setItem(r, PathColumn, pathItem);
    }
    m_table->resizeRowsToContents();
    if (infos.isEmpty())
        m_summary->setText(tr("No plugins were found. Searched: %1")
                               .arg(PluginManager::defaultSearchPaths().join(QStringLiteral(", "))));
    else if (broken == 0)
        m_summary->setText(tr("%n plugin(s), all usable.", nullptr, int(infos.size())));
    else
        m_summary->setText(tr("%1 plugins, %2 broken (listed with their error; they are never loaded).")
                               .arg(infos.size())
                               .arg(broken));
}

} // namespace pl::gui
