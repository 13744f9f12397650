#include "MetricsPage.h"

#include "gui/ClaimsTable.h"
#include "gui/PinnedRun.h"

#include <QHeaderView>
#include <QLabel>
#include <QTableWidget>
#include <QVBoxLayout>

namespace pl::gui {

MetricsPage::MetricsPage(QWidget* parent) : QWidget(parent) {
    m_table = new QTableWidget(0, 2, this);
    m_table->setObjectName(QStringLiteral("MetricsTable"));
    m_table->setHorizontalHeaderLabels({tr("Metric"), tr("Value")});
    m_table->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
    m_table->horizontalHeader()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
    m_table->verticalHeader()->setVisible(false);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_notes = new QLabel(this);
    m_notes->setWordWrap(true);
    m_notes->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* ml = new QVBoxLayout(this);
    ml->setContentsMargins(0, 0, 0, 0);
    ml->addWidget(m_table, 1);
    ml->addWidget(m_notes);
}

void MetricsPage::clear() {
    m_table->setRowCount(0);
}

void MetricsPage::show(const ResultDocument& result, const PinnedRun* pinned) {
    m_table->setRowCount(int(result.metrics.size()) + 2);
    int r = 0;
    for (const auto& [name, value] : result.metrics) {
        m_table->setItem(r, 0, new QTableWidgetItem(QString::fromStdString(name)));
        auto* v = new QTableWidgetItem(ClaimsTable::formatNumber(value));
        v->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        v->setToolTip(QString::number(value, 'g', 17));
        m_table->setItem(r++, 1, v);
    }
    m_table->setItem(r, 0, new QTableWidgetItem(tr("seed")));
    m_table->setItem(r++, 1, new QTableWidgetItem(QString::number(result.seed)));
    m_table->setItem(r, 0, new QTableWidgetItem(tr("elapsed (ms)")));
    m_table->setItem(r++, 1, new QTableWidgetItem(QString::number(result.elapsedMs, 'f', 1)));
    if (pinned)
        pinned->decorateMetrics(m_table, result);
    QStringList notes;
    for (const std::string& n : result.notes)
        notes << QStringLiteral("• ") + QString::fromStdString(n).toHtmlEscaped();
    m_notes->setText(notes.join(QStringLiteral("<br/>")));
    m_notes->setVisible(!notes.isEmpty());
}

} // namespace pl::gui
