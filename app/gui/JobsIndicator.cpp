#include "JobsIndicator.h"

#include "sdk/JobRunner.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QStyle>
#include <QToolButton>

#include <algorithm>

namespace pl::gui {

JobsIndicator::JobsIndicator(JobRunner* runner, QWidget* parent) : QWidget(parent), m_runner(runner) {
    setObjectName(QStringLiteral("JobsIndicator"));
    m_label = new QLabel(this);
    m_label->setFixedWidth(300);
    m_label->setTextFormat(Qt::PlainText);
    m_bar = new QProgressBar(this);
    m_bar->setRange(0, 1000);
    m_bar->setFixedWidth(160);
    m_bar->setMaximumHeight(16);
    m_bar->setTextVisible(false);
    m_cancel = new QToolButton(this);
    m_cancel->setIcon(style()->standardIcon(QStyle::SP_BrowserStop));
    m_cancel->setText(tr("Cancel"));
    m_cancel->setToolTip(tr("Cancel the running computations"));
    m_cancel->setAutoRaise(true);

    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 4, 0);
    layout->setSpacing(4);
    layout->addWidget(m_label);
    layout->addWidget(m_bar);
    layout->addWidget(m_cancel);

    connect(m_cancel, &QToolButton::clicked, this, &JobsIndicator::cancelAll);
    if (m_runner) {
        connect(m_runner, &JobRunner::started, this, &JobsIndicator::onStarted);
        connect(m_runner, &JobRunner::progress, this, &JobsIndicator::onProgress);
        connect(m_runner, &JobRunner::finished, this, &JobsIndicator::onFinished);
    }
    refresh();
}

QString JobsIndicator::statusText() const {
    return m_label->text();
}

void JobsIndicator::cancelAll() {
    if (!m_runner)
        return;
    for (auto it = m_jobs.cbegin(); it != m_jobs.cend(); ++it)
        m_runner->cancel(it.key());
}

void JobsIndicator::onStarted(quint64 id, const QString& title) {
    m_jobs.insert(id, JobState{title, QString(), 0.0});
    m_latest = id;
    refresh();
}

void JobsIndicator::onProgress(quint64 id, double fraction, const QString& status) {
    auto it = m_jobs.find(id);
    if (it == m_jobs.end())
        return;
    it->fraction = std::clamp(fraction, 0.0, 1.0);
    it->status = status;
    if (id == m_latest)
        refresh();
}

void JobsIndicator::onFinished(quint64 id, const JobOutcome&) {
    m_jobs.remove(id);
    if (id == m_latest) {
        m_latest = 0;
        for (auto it = m_jobs.cbegin(); it != m_jobs.cend(); ++it)
            m_latest = std::max(m_latest, it.key());
    }
    refresh();
}

void JobsIndicator::refresh() {
    if (m_jobs.isEmpty()) {
        m_label->setText(tr("Idle"));
        m_bar->setValue(0);
        m_bar->setEnabled(false);
        m_cancel->setEnabled(false);
        setToolTip(tr("No computation is running"));
        return;
    }
    const JobState& job = m_jobs.value(m_latest);
    QString text = job.title;
    if (!job.status.isEmpty())
        text += QStringLiteral(": ") + job.status;
    if (m_jobs.size() > 1)
        text += tr(" (+%1 more)").arg(m_jobs.size() - 1);
    m_label->setText(fontMetrics().elidedText(text, Qt::ElideRight, m_label->width() - 4));
    m_bar->setEnabled(true);
    m_bar->setValue(int(job.fraction * 1000));
    m_cancel->setEnabled(true);
    QStringList lines;
    for (auto it = m_jobs.cbegin(); it != m_jobs.cend(); ++it)
        lines << QStringLiteral("%1: %2%").arg(it->title).arg(int(it->fraction * 100));
    setToolTip(lines.join(QLatin1Char('\n')));
}

} // namespace pl::gui
