#include "ClaimsTable.h"

#include "widgets/Theme.h"
#include "widgets/ThemeManager.h"

#include <QHeaderView>
#include <QStyle>

#include <algorithm>
#include <cmath>

namespace pl::gui {

namespace {
QColor holdsColour(bool dark) {
    return dark ? QColor(0x2e, 0x6b, 0x3a) : QColor(0xd4, 0xed, 0xda);
}
QColor failsColour(bool dark) {
    return dark ? QColor(0x7a, 0x2a, 0x2a) : QColor(0xf8, 0xd7, 0xda);
}
QColor verdictText(bool dark, bool holds) {
    if (dark)
        return QColor(0xf0, 0xf0, 0xf0);
    return holds ? QColor(0x15, 0x57, 0x24) : QColor(0x72, 0x1c, 0x24);
}
} // namespace

ClaimsTable::ClaimsTable(QWidget* parent) : QTableWidget(0, ColumnCount, parent) {
    setObjectName(QStringLiteral("ClaimsTable"));
    setHorizontalHeaderLabels({tr("Claim"), tr("Observed"), tr("Threshold"), tr("Verdict"), tr("On seeds")});
    horizontalHeader()->setSectionResizeMode(StatementColumn, QHeaderView::Stretch);
    horizontalHeader()->setSectionResizeMode(ObservedColumn, QHeaderView::ResizeToContents);
    horizontalHeader()->setSectionResizeMode(ThresholdColumn, QHeaderView::ResizeToContents);
    horizontalHeader()->setSectionResizeMode(VerdictColumn, QHeaderView::ResizeToContents);
    horizontalHeader()->setSectionResizeMode(SeedsColumn, QHeaderView::ResizeToContents);
    horizontalHeaderItem(SeedsColumn)
        ->setToolTip(
            tr("How many seeds the claim holds on, from the last robustness check of these parameters"));
    verticalHeader()->setVisible(false);
    setEditTriggers(QAbstractItemView::NoEditTriggers);
    setSelectionBehavior(QAbstractItemView::SelectRows);
    setWordWrap(true);
    setSortingEnabled(false);
    setAlternatingRowColors(false);
    connect(ThemeManager::instance(), &ThemeManager::themeChanged, this, &ClaimsTable::recolour);
    clearClaims();
}

QString ClaimsTable::formatNumber(double v) {
    if (std::isnan(v))
        return QStringLiteral("NaN");
    if (std::isinf(v))
        return v > 0 ? QStringLiteral("∞") : QStringLiteral("−∞");
    return QString::number(v, 'g', 4);
}

int ClaimsTable::holdingCount() const {
    int n = 0;
    for (const Claim& c : m_claims)
        n += c.holds ? 1 : 0;
    return n;
}

QString ClaimsTable::summary() const {
    if (!m_hasResult)
        return tr("no result yet");
    if (m_claims.empty())
        return tr("no claims checked");
    return tr("%1 of %2 claims hold").arg(holdingCount()).arg(m_claims.size());
}

void ClaimsTable::clearClaims() {
    m_claims.clear();
    m_hasResult = false;
    setRowCount(0);
    emit summaryChanged(summary());
}

void ClaimsTable::setClaims(const std::vector<Claim>& claims) {
    m_claims = claims;
    m_hasResult = true;
    setRowCount(int(claims.size()));
    for (int r = 0; r < int(claims.size()); ++r) {
        const Claim& c = claims[size_t(r)];
        const QString detail = QString::fromStdString(c.detail);
        const QString tip = QStringLiteral("<b>%1</b><br/>%2")
                                .arg(QString::fromStdString(c.id).toHtmlEscaped(), detail.toHtmlEscaped());
        auto* statement = new QTableWidgetItem(QString::fromStdString(c.statement));
        statement->setToolTip(tip);
        auto* observed = new QTableWidgetItem(formatNumber(c.observed));
        observed->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        observed->setToolTip(tip);
        auto* threshold = new QTableWidgetItem(formatNumber(c.threshold));
        threshold->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        threshold->setToolTip(tip);
        auto* verdict = new QTableWidgetItem(c.holds ? tr("holds") : tr("fails"));
        verdict->setIcon(
            style()->standardIcon(c.holds ? QStyle::SP_DialogApplyButton : QStyle::SP_MessageBoxCritical));
        verdict->setToolTip(tip);
        verdict->setData(Qt::UserRole, c.holds);
        setItem(r, StatementColumn, statement);
        setItem(r, ObservedColumn, observed);
        setItem(r, ThresholdColumn, threshold);
        setItem(r, VerdictColumn, verdict);
    }
    fillSeedsColumn();
    recolour();
    resizeRowsToContents();
    emit summaryChanged(summary());
}

void ClaimsTable::setRobustness(const std::vector<ClaimTally>& tallies, int seeds) {
    m_tallies = tallies;
    m_seeds = seeds;
    fillSeedsColumn();
}

void ClaimsTable::clearRobustness() {
    m_tallies.clear();
    m_seeds = 0;
    fillSeedsColumn();
}

void ClaimsTable::fillSeedsColumn() {
    for (int r = 0; r < rowCount() && r < int(m_claims.size()); ++r) {
        const Claim& c = m_claims[size_t(r)];
        auto it = std::find_if(m_tallies.begin(), m_tallies.end(),
                               [&](const ClaimTally& t) { return t.id == c.id; });
        auto* cell = new QTableWidgetItem;
        cell->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        if (it != m_tallies.end()) {
            cell->setText(tr("%1 of %2").arg(it->holds).arg(it->runs));
            cell->setToolTip(tr("Holds on %1 of %2 seeds (1..%3): fraction %4, 95% Wilson interval [%5, %6]; "
                                "observed from %7 to %8 (median %9) against %10.")
                                 .arg(it->holds)
                                 .arg(it->runs)
                                 .arg(m_seeds)
                                 .arg(formatNumber(it->fraction()), QString::number(it->interval.lo, 'f', 2),
                                      QString::number(it->interval.hi, 'f', 2), formatNumber(it->observedMin),
                                      formatNumber(it->observedMax), formatNumber(it->observedMedian),
                                      formatNumber(it->threshold)));
        } else {
            cell->setText(m_tallies.empty() ? QString() : QStringLiteral("–"));
        }
        setItem(r, SeedsColumn, cell);
    }
}

void ClaimsTable::recolour() {
    const bool dark = Theme::current().isDark;
    for (int r = 0; r < rowCount(); ++r) {
        QTableWidgetItem* verdict = item(r, VerdictColumn);
        if (!verdict)
            continue;
        const bool holds = verdict->data(Qt::UserRole).toBool();
        verdict->setBackground(holds ? holdsColour(dark) : failsColour(dark));
        verdict->setForeground(verdictText(dark, holds));
        QFont f = verdict->font();
        f.setBold(!holds);
        verdict->setFont(f);
    }
}

} // namespace pl::gui
