#include "PanelBrowser.h"

#include "sdk/PluginManager.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QSet>
#include <QSplitter>
#include <QStyle>
#include <QVBoxLayout>

namespace pl::gui {

namespace {
constexpr int kIdRole = Qt::UserRole + 1;
} // namespace

PanelBrowser::PanelBrowser(PluginManager* plugins, QWidget* parent) : QWidget(parent), m_plugins(plugins) {
    setObjectName(QStringLiteral("PanelBrowser"));

    m_search = new QLineEdit(this);
    m_search->setPlaceholderText(tr("Search papers, ideas, tags…"));
    m_search->setClearButtonEnabled(true);
    m_search->setToolTip(tr("Every word must match the title, paper, idea, id or a tag (Ctrl+F)"));

    m_topic = new QComboBox(this);
    m_topic->setToolTip(tr("Show only panels with this topic"));

    m_list = new QListWidget(this);
    m_list->setObjectName(QStringLiteral("PanelList"));
    m_list->setWordWrap(true);
    m_list->setUniformItemSizes(false);
    m_list->setAlternatingRowColors(true);
    m_list->setTextElideMode(Qt::ElideRight);
    m_list->setSpacing(1);

    m_details = new QLabel(this);
    m_details->setWordWrap(true);
    m_details->setTextFormat(Qt::RichText);
    m_details->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    m_details->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_details->setMinimumHeight(80);

    m_open = new QPushButton(tr("&Open panel"), this);
    m_open->setEnabled(false);

    auto* detailsBox = new QWidget(this);
    auto* dl = new QVBoxLayout(detailsBox);
    dl->setContentsMargins(0, 0, 0, 0);
    dl->addWidget(m_details, 1);
    dl->addWidget(m_open);

    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(m_list);
    split->addWidget(detailsBox);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 1);
    split->setChildrenCollapsible(false);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(m_search);
    layout->addWidget(m_topic);
    layout->addWidget(split, 1);

    connect(m_search, &QLineEdit::textChanged, this, &PanelBrowser::applyFilter);
    connect(m_topic, &QComboBox::currentIndexChanged, this, &PanelBrowser::applyFilter);
    connect(m_list, &QListWidget::currentItemChanged, this, &PanelBrowser::showDetails);
    connect(m_list, &QListWidget::itemActivated, this, [this](QListWidgetItem* item) {
        if (item)
            emit openRequested(item->data(kIdRole).toString());
    });
    connect(m_open, &QPushButton::clicked, this, [this] {
        const QString id = currentId();
        if (!id.isEmpty())
            emit openRequested(id);
    });
    // Down arrow in the search field moves into the list; Enter opens the single match.
    connect(m_search, &QLineEdit::returnPressed, this, [this] {
        if (visibleCount() >= 1) {
            const QStringList ids = visibleIds();
            select(ids.first());
            if (ids.size() == 1)
                emit openRequested(ids.first());
            else
                m_list->setFocus();
        }
    });

    refresh();
}

bool PanelBrowser::matches(const PluginInfo& info, const QString& text, const QString& topic) {
    if (!topic.isEmpty() && !info.tags.contains(topic, Qt::CaseInsensitive))
        return false;
    const QString hay =
        QStringList{info.title, info.id, info.paper, info.idea, info.tags.join(QLatin1Char(' '))}.join(
            QLatin1Char(' '));
    const QStringList words = text.split(QLatin1Char(' '), Qt::SkipEmptyParts);
    for (const QString& w : words)
        if (!hay.contains(w, Qt::CaseInsensitive))
            return false;
    return true;
}

void PanelBrowser::refresh() {
    const QString keepId = currentId();
    const QString keepTopic = m_topic->currentData().toString();
    const QList<PluginInfo> infos = m_plugins ? m_plugins->plugins() : QList<PluginInfo>{};

    QSet<QString> tagSet;
    for (const PluginInfo& info : infos)
        for (const QString& t : info.tags)
            tagSet.insert(t);
    QStringList tags(tagSet.begin(), tagSet.end());
    tags.sort(Qt::CaseInsensitive);
    {
        const QSignalBlocker block(m_topic);
        m_topic->clear();
        m_topic->addItem(tr("All topics"), QString());
        for (const QString& t : tags)
            m_topic->addItem(t, t);
        const int idx = m_topic->findData(keepTopic);
        m_topic->setCurrentIndex(idx < 0 ? 0 : idx);
    }

    const QSignalBlocker block(m_list);
    m_list->clear();
    const QIcon broken = style()->standardIcon(QStyle::SP_MessageBoxWarning);
    for (const PluginInfo& info : infos) {
        const bool isBroken = !info.error.isEmpty();
        const QString title = info.title.isEmpty() ? info.id : info.title;
        const QString second = isBroken ? tr("Broken: %1").arg(info.error) : info.idea;
        auto* item =
            new QListWidgetItem(second.isEmpty() ? title : title + QLatin1Char('\n') + second, m_list);
        item->setData(kIdRole, info.id);
        item->setToolTip(QStringLiteral("<b>%1</b><br/>%2<br/><i>%3</i>")
                             .arg(title.toHtmlEscaped(), info.paper.toHtmlEscaped(),
                                  info.tags.join(QStringLiteral(", ")).toHtmlEscaped()));
        if (isBroken) {
            item->setIcon(broken);
            item->setForeground(palette().color(QPalette::Disabled, QPalette::Text));
        }
    }
    applyFilter();
    if (!keepId.isEmpty())
        select(keepId);
    showDetails();
}

void PanelBrowser::applyFilter() {
    const QString text = m_search->text();
    const QString topic = m_topic->currentData().toString();
    const QList<PluginInfo> infos = m_plugins ? m_plugins->plugins() : QList<PluginInfo>{};
    for (int i = 0; i < m_list->count(); ++i) {
        QListWidgetItem* item = m_list->item(i);
        const PluginInfo* info = m_plugins ? m_plugins->info(item->data(kIdRole).toString()) : nullptr;
        item->setHidden(!info || !matches(*info, text, topic));
    }
    QListWidgetItem* cur = m_list->currentItem();
    if (!cur || cur->isHidden()) {
        const QStringList ids = visibleIds();
        if (!ids.isEmpty())
            select(ids.first());
        else
            m_list->setCurrentItem(nullptr);
    }
    showDetails();
}

int PanelBrowser::visibleCount() const {
    return int(visibleIds().size());
}

QStringList PanelBrowser::visibleIds() const {
    QStringList ids;
    for (int i = 0; i < m_list->count(); ++i)
        if (!m_list->item(i)->isHidden())
            ids << m_list->item(i)->data(kIdRole).toString();
    return ids;
}

QStringList PanelBrowser::topics() const {
    QStringList t;
    for (int i = 1; i < m_topic->count(); ++i)
        t << m_topic->itemData(i).toString();
    return t;
}

void PanelBrowser::setSearchText(const QString& text) {
    m_search->setText(text);
}

void PanelBrowser::setTopic(const QString& topic) {
    const int idx = m_topic->findData(topic);
    m_topic->setCurrentIndex(idx < 0 ? 0 : idx);
}

void PanelBrowser::focusSearch() {
    m_search->setFocus(Qt::ShortcutFocusReason);
    m_search->selectAll();
}

void PanelBrowser::select(const QString& id) {
    for (int i = 0; i < m_list->count(); ++i) {
        QListWidgetItem* item = m_list->item(i);
        if (item->data(kIdRole).toString() == id && !item->isHidden()) {
            m_list->setCurrentItem(item);
            return;
        }
    }
}

QString PanelBrowser::currentId() const {
    const QListWidgetItem* item = m_list->currentItem();
    return item && !item->isHidden() ? item->data(kIdRole).toString() : QString();
}

void PanelBrowser::showDetails() {
    const QString id = currentId();
    const PluginInfo* info = (m_plugins && !id.isEmpty()) ? m_plugins->info(id) : nullptr;
    if (!info) {
        m_details->setText(m_list->count() == 0 ? tr("<i>No panels installed.</i>")
                                                : tr("<i>No panel matches the search.</i>"));
        m_open->setEnabled(false);
        return;
    }
    QStringList figures;
    for (const FigureInfo& f : info->figures)
        figures << (f.title.isEmpty() ? f.id : f.title).toHtmlEscaped();
    QStringList presets;
    for (const PresetInfo& p : info->presets)
        presets << p.name.toHtmlEscaped();
    QString html =
        QStringLiteral("<b>%1</b><br/><i>%2</i><p>%3</p>")
            .arg(info->title.toHtmlEscaped(), info->paper.toHtmlEscaped(), info->idea.toHtmlEscaped());
    if (!info->tags.isEmpty())
        html += tr("<b>Topics:</b> %1<br/>").arg(info->tags.join(QStringLiteral(", ")).toHtmlEscaped());
    if (!figures.isEmpty())
        html += tr("<b>Figures:</b> %1<br/>").arg(figures.join(QStringLiteral(", ")));
    if (!presets.isEmpty())
        html += tr("<b>Presets:</b> %1<br/>").arg(presets.join(QStringLiteral(", ")));
    if (!info->error.isEmpty())
        html += tr("<p style='color:#c62828'><b>Broken:</b> %1</p>").arg(info->error.toHtmlEscaped());
    m_details->setText(html);
    m_open->setEnabled(info->error.isEmpty());
}

} // namespace pl::gui
