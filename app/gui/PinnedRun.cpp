#include "PinnedRun.h"

#include "gui/ClaimsTable.h"
#include "sdk/PaperPlugin.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QTableWidget>

#include <cmath>

namespace pl::gui {

namespace {

int holding(const ResultDocument& d) {
    int n = 0;
    for (const Claim& c : d.claims)
        n += c.holds ? 1 : 0;
    return n;
}

} // namespace

PinnedRun::PinnedRun(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("PinnedRun"));
    m_pin = new QPushButton(tr("Pin as A"), this);
    m_pin->setObjectName(QStringLiteral("PinButton"));
    m_pin->setToolTip(tr("Keep this result as run A; the next runs become B and every figure shows both"));
    m_unpin = new QPushButton(tr("Unpin A"), this);
    m_unpin->setObjectName(QStringLiteral("UnpinButton"));
    m_viewChooser = new QComboBox(this);
    m_viewChooser->setObjectName(QStringLiteral("CompareView"));
    m_viewChooser->addItem(tr("A and B (heatmaps: B − A)"));
    m_viewChooser->addItem(tr("A only"));
    m_viewChooser->addItem(tr("B only"));
    m_viewChooser->addItem(tr("B − A"));
    m_line = new QLabel(this);
    m_line->setObjectName(QStringLiteral("PinnedLine"));
    m_line->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_line->setWordWrap(true);
    auto* l = new QHBoxLayout(this);
    l->setContentsMargins(0, 0, 0, 0);
    l->addWidget(m_pin);
    l->addWidget(m_unpin);
    l->addWidget(m_viewChooser);
    l->addWidget(m_line, 1);
    connect(m_pin, &QPushButton::clicked, this, &PinnedRun::pinRequested);
    connect(m_unpin, &QPushButton::clicked, this, &PinnedRun::unpin);
    connect(m_viewChooser, &QComboBox::currentIndexChanged, this, [this](int i) {
        constexpr CompareView views[] = {CompareView::Overlay, CompareView::OnlyA, CompareView::OnlyB,
                                         CompareView::Difference};
        if (i >= 0 && i < 4)
            setView(views[i]);
    });
    m_unpin->setVisible(false);
    m_viewChooser->setVisible(false);
}

void PinnedRun::pin(std::shared_ptr<const ResultDocument> a, const IPaperPlugin* plugin) {
    if (!a || !plugin)
        return;
    m_a = std::move(a);
    m_plugin = plugin;
    m_specsA.clear();
    m_unpin->setVisible(true);
    m_viewChooser->setVisible(true);
    m_pin->setText(tr("Pin again"));
    describe(*m_a);
    emit changed();
}

void PinnedRun::unpin() {
    m_a.reset();
    m_specsA.clear();
    m_unpin->setVisible(false);
    m_viewChooser->setVisible(false);
    m_pin->setText(tr("Pin as A"));
    m_line->clear();
    emit changed();
}

void PinnedRun::setView(CompareView view) {
    if (view == m_view)
        return;
    m_view = view;
    emit changed();
}

FigureSpec PinnedRun::present(const FigureSpec& b) {
    if (!m_a)
        return b;
    auto it = m_specsA.find(b.id);
    if (it == m_specsA.end()) {
        FigureSpec a;
        try {
            a = m_plugin->buildFigure(b.id, *m_a);
        } catch (const std::exception&) {
            return b; // A lacks what this figure needs: B alone
        }
        it = m_specsA.insert(b.id, a);
    }
    return compareFigures(*it, b, m_view);
}

void PinnedRun::describe(const ResultDocument& b) {
    if (!m_a)
        return;
    QStringList diff;
    for (const ParamDifference& d : parameterDifferences(*m_a, b))
        diff << QStringLiteral("%1 %2 → %3")
                    .arg(QString::fromStdString(d.key), QString::fromStdString(d.a),
                         QString::fromStdString(d.b));
    m_line->setText(
        tr("<b>A</b> pinned. Differs: %1. Claims holding: A %2 of %3, B %4 of %5.")
            .arg(diff.isEmpty() ? tr("nothing (same parameters and seed)") : diff.join(QStringLiteral(", ")))
            .arg(holding(*m_a))
            .arg(m_a->claims.size())
            .arg(holding(b))
            .arg(b.claims.size()));
}

void PinnedRun::decorateMetrics(QTableWidget* table, const ResultDocument& b) const {
    if (!m_a) {
        table->setColumnCount(2);
        table->setHorizontalHeaderLabels({tr("Metric"), tr("Value")});
        return;
    }
    table->setColumnCount(4);
    table->setHorizontalHeaderLabels({tr("Metric"), tr("B (this run)"), tr("A (pinned)"), tr("B − A")});
    for (int r = 0; r < table->rowCount(); ++r) {
        const QTableWidgetItem* name = table->item(r, 0);
        if (!name)
            continue;
        const std::string key = name->text().toStdString();
        const auto ia = m_a->metrics.find(key);
        const auto ib = b.metrics.find(key);
        if (ia == m_a->metrics.end())
            continue;
        auto* a = new QTableWidgetItem(ClaimsTable::formatNumber(ia->second));
        a->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        table->setItem(r, 2, a);
        if (ib != b.metrics.end()) {
            auto* d = new QTableWidgetItem(ClaimsTable::formatNumber(ib->second - ia->second));
            d->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            table->setItem(r, 3, d);
        }
    }
}

} // namespace pl::gui
