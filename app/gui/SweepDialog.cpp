#include "SweepDialog.h"

#include "core/Errors.h"
#include "sdk/BackgroundSweep.h"
#include "sdk/PanelModel.h"
#include "sdk/SweepFigures.h"
#include "sdk/SweepFiles.h"
#include "widgets/FigureView.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QSplitter>
#include <QThread>
#include <QVBoxLayout>

#include <cmath>

namespace pl::gui {

namespace {

/// A first guess at an axis for a parameter: every choice, both booleans, or five values from
/// half to twice the current value (log-spaced for log-scale parameters), clipped to the range.
QString suggestedValues(const ParamSpec& spec, const ParamValue& current) {
    switch (spec.type) {
    case ParamType::Choice: {
        QStringList all;
        for (const std::string& c : spec.choices)
            all << QString::fromStdString(c);
        return all.join(QLatin1Char(','));
    }
    case ParamType::Bool:
        return QStringLiteral("false,true");
    case ParamType::Int:
    case ParamType::Double: {
        const double v = QString::fromStdString(pl::toString(current)).toDouble();
        double lo = v > 0 ? v / 2 : spec.min, hi = v > 0 ? v * 2 : spec.max;
        lo = std::max(lo, spec.min);
        hi = std::min(hi, spec.max);
        if (spec.type == ParamType::Int) {
            lo = std::ceil(lo);
            hi = std::floor(hi);
        }
        const int n = spec.type == ParamType::Int ? int(std::min(5.0, hi - lo + 1)) : 5;
        const bool log = spec.logScale && lo > 0;
        return QStringLiteral("%1:%2:%3%4")
            .arg(lo, 0, 'g', 6)
            .arg(hi, 0, 'g', 6)
            .arg(std::max(n, 1))
            .arg(log ? QStringLiteral(":log") : QString());
    }
    default:
        return QString::fromStdString(pl::toString(current));
    }
}

} // namespace

SweepDialog::SweepDialog(PanelModel* model, QWidget* parent)
    : QDialog(parent), m_model(model), m_sweep(new BackgroundSweep(this)) {
    setObjectName(QStringLiteral("SweepDialog"));
    setWindowTitle(tr("Sweep: %1").arg(model->info().title));
    auto* form = new QFormLayout;
    for (int a = 0; a < 2; ++a) {
        m_key[a] = new QComboBox(this);
        m_key[a]->setObjectName(QStringLiteral("SweepKey%1").arg(a));
        if (a == 1)
            m_key[a]->addItem(tr("(none)"), QString());
        for (const ParamSpec& p : model->engine().params())
            m_key[a]->addItem(QString::fromStdString(p.label.empty() ? p.key : p.label) +
                                  QStringLiteral(" (") + QString::fromStdString(p.key) + QLatin1Char(')'),
                              QString::fromStdString(p.key));
        m_values[a] = new QLineEdit(this);
        m_values[a]->setObjectName(QStringLiteral("SweepValues%1").arg(a));
        m_values[a]->setPlaceholderText(tr("v1,v2,... or lo:hi:n or lo:hi:n:log"));
        connect(m_key[a], &QComboBox::currentIndexChanged, this, [this, a] { fillAxisValues(a); });
        auto* row = new QHBoxLayout;
        row->addWidget(m_key[a], 1);
        row->addWidget(m_values[a], 2);
        form->addRow(a == 0 ? tr("Grid axis 1") : tr("Grid axis 2"), row);
    }
    m_seeds = new QSpinBox(this);
    m_seeds->setRange(1, 1000);
    m_seeds->setValue(10);
    m_seeds->setPrefix(tr("1 .. "));
    m_seeds->setToolTip(tr("Every grid cell runs on seeds 1..K"));
    form->addRow(tr("Seeds"), m_seeds);
    m_jobs = new QSpinBox(this);
    m_jobs->setRange(1, 256);
    m_jobs->setValue(std::max(1, QThread::idealThreadCount() - 1));
    m_jobs->setToolTip(tr("Runs computed at the same time (one core each)"));
    form->addRow(tr("Worker threads"), m_jobs);

    m_run = new QPushButton(tr("Run sweep"), this);
    m_run->setObjectName(QStringLiteral("SweepRun"));
    m_save = new QPushButton(tr("Save…"), this);
    m_save->setObjectName(QStringLiteral("SweepSave"));
    m_save->setToolTip(tr("Write the runs, sweep.csv and sweep.json to a directory (`paperlab sweep` resumes "
                          "it, `paperlab report --sweep` renders it)"));
    m_save->setEnabled(false);
    m_progress = new QProgressBar(this);
    m_progress->setVisible(false);
    m_status = new QLabel(this);
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(m_run);
    buttons->addWidget(m_save);
    buttons->addStretch(1);

    m_figureChooser = new QComboBox(this);
    m_figureChooser->setObjectName(QStringLiteral("SweepFigure"));
    m_view = new FigureView(this);
    m_view->setMinimumSize(520, 360);

    auto* left = new QWidget(this);
    auto* ll = new QVBoxLayout(left);
    ll->addLayout(form);
    ll->addLayout(buttons);
    ll->addWidget(m_progress);
    ll->addWidget(m_status);
    ll->addStretch(1);
    auto* right = new QWidget(this);
    auto* rl = new QVBoxLayout(right);
    rl->addWidget(m_figureChooser);
    rl->addWidget(m_view, 1);
    auto* split = new QSplitter(this);
    split->addWidget(left);
    split->addWidget(right);
    split->setStretchFactor(1, 1);
    auto* close = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(close, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* top = new QVBoxLayout(this);
    top->addWidget(split, 1);
    top->addWidget(close);
    resize(1100, 560);

    connect(m_run, &QPushButton::clicked, this, [this] {
        if (m_sweep->isRunning())
            m_sweep->cancel();
        else
            startSweep();
    });
    connect(m_save, &QPushButton::clicked, this, &SweepDialog::saveInteractive);
    connect(m_figureChooser, &QComboBox::currentIndexChanged, this, &SweepDialog::showFigure);
    connect(m_sweep, &BackgroundSweep::resultsChanged, this, [this](int done, int total) {
        m_progress->setRange(0, total);
        m_progress->setValue(done);
        m_progress->setFormat(tr("%1 of %2 runs").arg(done).arg(total));
        refreshFigures();
    });
    connect(m_sweep, &BackgroundSweep::failed, this,
            [this](const QString& why) { setStatus(tr("The sweep stopped: %1").arg(why), true); });
    connect(m_sweep, &BackgroundSweep::finished, this, [this] {
        m_run->setText(tr("Run sweep"));
        m_progress->setVisible(false);
        m_save->setEnabled(true);
        refreshFigures();
        const int done = m_sweep->finishedRuns(), total = m_sweep->totalRuns();
        if (m_sweep->wasCancelled())
            setStatus(
                tr("Cancelled after %1 of %2 runs; Save… keeps them, and `paperlab sweep` with the same "
                   "grid finishes the rest.")
                    .arg(done)
                    .arg(total));
        else if (done == total)
            setStatus(tr("%1 runs done.").arg(total));
    });
    fillAxisValues(0);
}

SweepDialog::~SweepDialog() = default;

void SweepDialog::setAxis(int axis, const QString& key, const QString& values) {
    const int i = m_key[axis]->findData(key);
    if (i >= 0)
        m_key[axis]->setCurrentIndex(i);
    m_values[axis]->setText(values);
}

void SweepDialog::setSeeds(int seeds) {
    m_seeds->setValue(seeds);
}

void SweepDialog::fillAxisValues(int axis) {
    const QString key = m_key[axis]->currentData().toString();
    if (key.isEmpty()) {
        m_values[axis]->clear();
        return;
    }
    for (const ParamSpec& p : m_model->engine().params())
        if (p.key == key.toStdString())
            m_values[axis]->setText(suggestedValues(p, m_model->params().values().at(p.key)));
}

void SweepDialog::startSweep() {
    std::vector<std::string> grids;
    for (int a = 0; a < 2; ++a) {
        const QString key = m_key[a]->currentData().toString();
        if (!key.isEmpty())
            grids.push_back((key + QLatin1Char('=') + m_values[a]->text().trimmed()).toStdString());
    }
    SweepPlan plan;
    try {
        plan = SweepPlan::parse(m_model->engine().params(), grids, "1.." + std::to_string(m_seeds->value()),
                                100000);
    } catch (const UsageError& e) {
        setStatus(QString::fromStdString(e.what()), true);
        return;
    }
    m_figures.clear();
    m_figureChooser->clear();
    m_save->setEnabled(false);
    m_progress->setRange(0, int(plan.runs().size()));
    m_progress->setValue(0);
    m_progress->setVisible(true);
    m_run->setText(tr("Cancel"));
    setStatus(tr("Running %1 grid cells × %2 seeds with the panel's current parameters…")
                  .arg(plan.cellCount())
                  .arg(plan.seeds().size()));
    m_sweep->start(*m_model, plan, m_jobs->value());
}

void SweepDialog::refreshFigures() {
    const SweepResults results = m_sweep->results();
    m_figures = sweepFigures(results);
    const QString current = m_figureChooser->currentData().toString();
    QSignalBlocker block(m_figureChooser);
    m_figureChooser->clear();
    for (const FigureSpec& f : std::as_const(m_figures))
        m_figureChooser->addItem(f.title, f.id);
    const int i = m_figureChooser->findData(current);
    m_figureChooser->setCurrentIndex(i >= 0 ? i : 0);
    showFigure();
}

void SweepDialog::showFigure() {
    const int i = m_figureChooser->currentIndex();
    if (i >= 0 && i < m_figures.size())
        m_view->setSpec(m_figures[i]);
}

void SweepDialog::saveInteractive() {
    const QString dir = QFileDialog::getExistingDirectory(this, tr("Save sweep into a directory"));
    if (!dir.isEmpty())
        saveTo(dir);
}

bool SweepDialog::saveTo(const QString& dir) {
    const SweepResults results = m_sweep->results();
    QJsonObject sets;
    const ParamSet& base = m_sweep->base();
    for (const auto& [key, value] : base.values())
        sets[QString::fromStdString(key)] = QString::fromStdString(pl::toString(value));
    const SweepRecord record{results.panel, QString(), sets, &results.plan, &results.runs, &results.docs};
    QString error;
    if (!saveSweepDirectory(dir, record, &error)) {
        setStatus(tr("Not saved: %1").arg(error), true);
        return false;
    }
    setStatus(
        tr("Saved %1 of %2 runs to %3.").arg(m_sweep->finishedRuns()).arg(results.runs.size()).arg(dir));
    return true;
}

void SweepDialog::setStatus(const QString& text, bool error) {
    m_status->setText(text);
    m_status->setStyleSheet(error ? QStringLiteral("color: #c0392b;") : QString());
}

} // namespace pl::gui
