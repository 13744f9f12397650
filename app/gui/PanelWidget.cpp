#include "PanelWidget.h"

#include "ClaimsTable.h"
#include "GuiLog.h"
#include "HelpViewer.h"
#include "PanelControls.h"
#include "ParamChangeCommand.h"
#include "TourBar.h"
#include "gui/FigureArea.h"
#include "gui/MetricsPage.h"
#include "gui/PinnedRun.h"
#include "gui/SelectionLinker.h"
#include "gui/SweepDialog.h"
#include "render/CompareReportWriter.h"
#include "render/ReportWriter.h"
#include "sdk/PanelModel.h"
#include "sdk/PanelStateCodec.h"
#include "sdk/PaperPlugin.h"
#include "sdk/RobustnessCheck.h"
#include "sdk/SelectionModel.h"
#include "sdk/TourPlayer.h"
#include "widgets/FigureExporter.h"
#include "widgets/Theme.h"
#include "widgets/ThemeManager.h"

#include "widgets/FigureView.h"

#include <QClipboard>
#include <QDir>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QInputDialog>
#include <QLabel>
#include <QMessageBox>
#include <QMimeData>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollArea>
#include <QSettings>
#include <QSpinBox>
#include <QSplitter>
#include <QTabBar>
#include <QTabWidget>
#include <QTableWidget>
#include <QTextBrowser>
#include <QThread>
#include <QUndoStack>
#include <QVBoxLayout>

namespace pl::gui {

namespace {} // namespace

PanelWidget::PanelWidget(PanelModel* model, QWidget* parent) : QWidget(parent), m_model(model) {
    setObjectName(QStringLiteral("PanelWidget"));
    model->setParent(this);
    setAcceptDrops(true);

    m_banner = new MessageBanner(this);
    m_controls = new PanelControls(model, this);
    auto* scroll = new QScrollArea(this);
    m_scroll = scroll;
    scroll->setWidget(m_controls);
    scroll->setWidgetResizable(true);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    scroll->setMinimumWidth(m_controls->sizeHint().width() + 24);

    m_tabs = new QTabWidget(this);
    m_tabs->setObjectName(QStringLiteral("FigureTabs"));
    m_tabs->setDocumentMode(true);
    buildFigureTabs();

    // Metrics tab: table plus the result's notes.
    m_metricsPage = new MetricsPage(m_tabs);
    m_tabs->addTab(m_metricsPage, tr("Metrics"));

    m_help = new HelpViewer(m_tabs);
    m_help->setMarkdown(model->plugin() ? model->plugin()->helpMarkdown() : QString());
    m_tabs->addTab(m_help, tr("Help"));

    // Claims: always visible below the figures, failed ones included.
    auto* claimsBox = new QWidget(this);
    m_claimsSummary = new QLabel(claimsBox);
    m_claims = new ClaimsTable(claimsBox);
    // Robustness: the same parameters on seeds 1..K, in the background.
    m_robustness = new RobustnessCheck(this);
    m_robustSeeds = new QSpinBox(claimsBox);
    m_robustSeeds->setObjectName(QStringLiteral("RobustnessSeeds"));
    m_robustSeeds->setRange(2, 200);
    m_robustSeeds->setValue(10);
    m_robustSeeds->setSuffix(tr(" seeds"));
    m_robustSeeds->setToolTip(tr("How many seeds (1..K) the robustness check runs"));
    m_robustButton = new QPushButton(tr("Check on seeds"), claimsBox);
    m_robustButton->setObjectName(QStringLiteral("RobustnessButton"));
    m_robustButton->setToolTip(tr("Run these parameters on seeds 1..K in the background and show on how many "
                                  "seeds each claim holds"));
    m_robustProgress = new QProgressBar(claimsBox);
    m_robustProgress->setMaximumWidth(160);
    m_robustProgress->setVisible(false);
    connect(m_robustButton, &QPushButton::clicked, this, &PanelWidget::checkRobustness);
    auto* sweepButton = new QPushButton(tr("Sweep…"), claimsBox);
    sweepButton->setObjectName(QStringLiteral("SweepButton"));
    sweepButton->setToolTip(tr("Run a grid of parameter values × seeds in the background and see where the "
                               "claims hold"));
    connect(sweepButton, &QPushButton::clicked, this, &PanelWidget::openSweepDialog);
    connect(m_robustness, &RobustnessCheck::progress, this, [this](int done, int total) {
        m_robustProgress->setRange(0, total);
        m_robustProgress->setValue(done);
        m_robustProgress->setFormat(tr("%1 of %2 seeds").arg(done).arg(total));
    });
    auto robustDone = [this] {
        m_robustProgress->setVisible(false);
        m_robustButton->setText(tr("Check on seeds"));
    };
    connect(m_robustness, &RobustnessCheck::finished, this, [this, robustDone] {
        robustDone();
        m_claims->setRobustness(m_robustness->tallies(), m_robustness->seeds());
        qCInfo(lcGui).noquote() << QStringLiteral("%1: robustness check on %2 seeds done")
                                       .arg(m_model->info().title)
                                       .arg(m_robustness->seeds());
    });
    connect(m_robustness, &RobustnessCheck::failed, this, [this, robustDone](const QString& why) {
        robustDone();
        showMessage(tr("Robustness check failed: %1").arg(why), MessageBanner::Level::Warning);
    });
    auto* header = new QHBoxLayout;
    header->setContentsMargins(0, 0, 0, 0);
    header->addWidget(m_claimsSummary, 1);
    header->addWidget(m_robustProgress);
    header->addWidget(m_robustSeeds);
    header->addWidget(m_robustButton);
    header->addWidget(sweepButton);
    auto* cl = new QVBoxLayout(claimsBox);
    cl->setContentsMargins(0, 0, 0, 0);
    cl->addLayout(header);
    cl->addWidget(m_claims, 1);
    connect(m_claims, &ClaimsTable::summaryChanged, this, [this](const QString& s) {
        m_claimsSummary->setText(tr("<b>Claims checked on this run:</b> %1").arg(s));
    });
    m_claimsSummary->setText(tr("<b>Claims checked on this run:</b> %1").arg(m_claims->summary()));

    auto* right = new QWidget(this);
    auto* rl = new QVBoxLayout(right);
    rl->setContentsMargins(0, 0, 0, 0);
    m_tourBar = new TourBar(right);
    rl->addWidget(m_tourBar);
    m_pinned = new PinnedRun(right); // "Pin as A": later runs are compared with the pinned one
    rl->addWidget(m_pinned);
    connect(m_pinned, &PinnedRun::pinRequested, this,
            [this] { m_pinned->pin(m_model->result(), m_model->plugin()); });
    connect(m_pinned, &PinnedRun::changed, this, &PanelWidget::updateFromResult);
    connect(m_tourBar, &TourBar::closeRequested, this, &PanelWidget::endTour);
    auto* vsplit = new QSplitter(Qt::Vertical, right);
    QList<QPair<QString, QString>> figures;
    for (const FigureInfo& f : m_model->info().figures)
        figures.append({f.id, f.title.isEmpty() ? f.id : f.title});
    m_figureArea = new FigureArea(
        m_tabs, figures, [this](const QString& id, FigureSpec* out) { return figureSpec(id, out); }, right);
    m_figureArea->applyLayoutState(m_model->info().layout); // paper.json's default, if any
    connect(m_figureArea, &FigureArea::layoutChanged, this, &PanelWidget::stateChanged);
    m_selection = new SelectionModel(this); // linked selection: tabs and grid panes (issue 34)
    auto* linker = new SelectionLinker(m_selection, this);
    for (FigureView* view : std::as_const(m_views))
        linker->addView(view);
    for (int i = 0; i < 4; ++i)
        linker->addView(m_figureArea->grid()->paneView(i));
    vsplit->addWidget(m_figureArea);
    vsplit->addWidget(claimsBox);
    vsplit->setStretchFactor(0, 3);
    vsplit->setStretchFactor(1, 1);
    vsplit->setChildrenCollapsible(false);
    rl->addWidget(vsplit, 1);

    auto* hsplit = new QSplitter(Qt::Horizontal, this);
    hsplit->addWidget(scroll);
    hsplit->addWidget(right);
    hsplit->setStretchFactor(0, 0);
    hsplit->setStretchFactor(1, 1);
    hsplit->setChildrenCollapsible(false);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addWidget(m_banner);
    layout->addWidget(hsplit, 1);

    connect(m_controls, &PanelControls::messageRequested, this, &PanelWidget::showMessage);
    connect(m_controls, &PanelControls::inputFileChosen, this, &PanelWidget::loadInputFile);
    connect(model, &PanelModel::resultChanged, this, &PanelWidget::updateFromResult);
    connect(model, &PanelModel::errorOccurred, this, [this](const QString& msg) {
        if (m_loadingInput)
            return; // loadInputFile() reports it
        showMessage(msg, MessageBanner::Level::Error);
        m_runErrorShown = true;
        m_controls->setStatusText(tr("failed (see the message above)"));
    });
    connect(model, &PanelModel::runningChanged, this, [this](bool running) {
        if (!running && !m_model->result() && !m_runErrorShown)
            m_controls->setStatusText(tr("cancelled"));
    });
    connect(model, &PanelModel::paramsChanged, this, &PanelWidget::stateChanged);
    connect(model, &PanelModel::seedChanged, this, &PanelWidget::stateChanged);
    connect(model, &PanelModel::inputsChanged, this, &PanelWidget::stateChanged);
}

PanelWidget::~PanelWidget() {
    if (m_model)
        m_model->cancel();
}

QString PanelWidget::pluginId() const {
    return m_model->info().id;
}

QString PanelWidget::title() const {
    return m_model->info().title.isEmpty() ? m_model->info().id : m_model->info().title;
}

void PanelWidget::buildFigureTabs() {
    for (const FigureInfo& f : m_model->info().figures) {
        // FigureView draws charts and heatmaps, shows a note for graph/3d kinds, and has the
        // export context menu (figure, data, copy image) and the caption line.
        auto* view = new FigureView(m_tabs);
        view->setObjectName(QStringLiteral("figure:") + f.id);
        ExportOptions options = view->exportOptions();
        options.dpi = m_dpi;
        view->setExportOptions(options);
        m_views.insert(f.id, view);
        const int idx = m_tabs->addTab(view, f.title.isEmpty() ? f.id : f.title);
        m_tabs->setTabToolTip(idx, f.title);
        m_tabs->tabBar()->setTabData(idx, f.id);
    }
}

QStringList PanelWidget::figureIds() const {
    QStringList ids;
    for (const FigureInfo& f : m_model->info().figures)
        ids << f.id;
    return ids;
}

FigureView* PanelWidget::figureView(const QString& id) const {
    return m_views.value(id);
}

void PanelWidget::setExportDpi(int dpi) {
    m_dpi = dpi;
    if (m_figureArea)
        m_figureArea->grid()->setExportDpi(dpi);
    for (FigureView* view : std::as_const(m_views)) {
        ExportOptions options = view->exportOptions();
        options.dpi = dpi;
        view->setExportOptions(options);
    }
}

bool PanelWidget::figureSpec(const QString& id, FigureSpec* out) const {
    const auto it = m_specs.constFind(id);
    if (it == m_specs.cend())
        return false;
    *out = *it;
    return true;
}

QString PanelWidget::currentFigureId() const {
    return m_tabs->tabBar()->tabData(m_tabs->currentIndex()).toString();
}

void PanelWidget::showFigure(const QString& id) {
    for (int i = 0; i < m_tabs->count(); ++i)
        if (m_tabs->tabBar()->tabData(i).toString() == id)
            m_tabs->setCurrentIndex(i);
}

void PanelWidget::updateFromResult() {
    const auto result = m_model->result();
    if (!result)
        return;
    if (m_runErrorShown) {
        m_banner->dismiss();
        m_runErrorShown = false;
    }
    QStringList errors;
    for (const FigureInfo& f : m_model->info().figures) {
        FigureSpec spec;
        QString error;
        if (!m_model->figure(f.id, &spec, &error)) {
            errors << error;
            continue;
        }
        spec = m_pinned->present(spec); // B itself unless a run A is pinned
        m_specs.insert(f.id, spec);
        m_views.value(f.id)->setSpec(spec);
        m_figureArea->updateSpec(spec);
    }
    m_pinned->describe(*result);
    m_claims->setClaims(result->claims);
    if (m_claims->hasRobustness() && !(m_robustness->params() == m_model->params()))
        m_claims->clearRobustness(); // checked for other parameters
    updateMetrics();
    if (!errors.isEmpty())
        showMessage(errors.join(QLatin1Char('\n')), MessageBanner::Level::Warning);
    emit resultShown();
}

SweepDialog* PanelWidget::openSweepDialog() {
    if (!m_sweepDialog)
        m_sweepDialog = new SweepDialog(m_model, this);
    m_sweepDialog->show();
    m_sweepDialog->raise();
    return m_sweepDialog;
}

void PanelWidget::checkRobustness() {
    if (m_robustness->isRunning()) {
        m_robustness->cancel();
        m_robustProgress->setVisible(false);
        m_robustButton->setText(tr("Check on seeds"));
        return;
    }
    m_robustProgress->setRange(0, m_robustSeeds->value());
    m_robustProgress->setValue(0);
    m_robustProgress->setFormat(tr("0 of %1 seeds").arg(m_robustSeeds->value()));
    m_robustProgress->setVisible(true);
    m_robustButton->setText(tr("Cancel"));
    m_robustness->start(*m_model, m_robustSeeds->value(), std::max(1, QThread::idealThreadCount() - 1));
}

QTableWidget* PanelWidget::metricsTable() const {
    return m_metricsPage->table();
}

void PanelWidget::updateMetrics() {
    const auto result = m_model->result();
    if (result)
        m_metricsPage->show(*result, m_pinned);
    else
        m_metricsPage->clear();
}

void PanelWidget::run() {
    m_model->requestRun();
}

void PanelWidget::cancel() {
    m_model->cancel();
}

void PanelWidget::showHelp() {
    m_tabs->setCurrentWidget(m_help);
    m_help->browser()->setFocus(Qt::ShortcutFocusReason);
}

void PanelWidget::showMessage(const QString& text, MessageBanner::Level level) {
    m_banner->showMessage(text, level);
    // Messages from the model already start with the panel id.
    const QString prefix = pluginId() + QStringLiteral(": ");
    const QString line = text.startsWith(prefix) ? text : prefix + text;
    if (level == MessageBanner::Level::Info)
        qCInfo(lcGui).noquote() << line;
    else
        qCWarning(lcGui).noquote() << line;
}

bool PanelWidget::acceptsInputFile(const QString& path) const {
    if (m_model->engine().maxInputs() <= 0)
        return false;
    const auto exts = m_model->engine().inputExtensions();
    if (exts.empty())
        return true;
    const QString name = QFileInfo(path).fileName().toLower();
    for (const std::string& e : exts)
        if (name.endsWith(QLatin1Char('.') + QString::fromStdString(e)))
            return true;
    return false;
}

bool PanelWidget::loadInputFile(const QString& path) {
    QString error;
    const bool append = m_model->engine().maxInputs() > 1;
    // PanelModel::loadInput also reports failures through errorOccurred; m_loadingInput keeps
    // that from being shown as a failed run.
    m_loadingInput = true;
    const bool ok = m_model->loadInput(path, &error, append);
    m_loadingInput = false;
    if (!ok) {
        showInputError(error.isEmpty() ? tr("%1: cannot be used as input").arg(path) : error,
                       tr("The file was not loaded; nothing changed."));
        return false;
    }
    qCInfo(lcGui).noquote() << pluginId() + QStringLiteral(": loaded input") << path;
    m_model->requestRun();
    return true;
}

bool PanelWidget::loadInputFiles(const QStringList& paths) {
    if (paths.size() == 1)
        return loadInputFile(paths.first());
    QString error;
    bool ok = !paths.isEmpty() && paths.size() <= m_model->engine().maxInputs();
    if (!ok)
        error = tr("%1 files given; panel '%2' takes 1 to %3 input files")
                    .arg(paths.size())
                    .arg(pluginId())
                    .arg(m_model->engine().maxInputs());
    m_loadingInput = true;
    for (int i = 0; ok && i < paths.size(); ++i) {
        ok = m_model->loadInput(paths.at(i), &error, /*append=*/i > 0);
        if (!ok && error.isEmpty())
            error = tr("%1: cannot be used as input").arg(paths.at(i));
    }
    m_loadingInput = false;
    if (!ok) {
        m_model->clearInputs();
        showInputError(error, tr("The files were not loaded; the panel has no input files now."));
        return false;
    }
    qCInfo(lcGui).noquote() << pluginId() + QStringLiteral(": loaded inputs")
                            << paths.join(QStringLiteral(", "));
    m_model->requestRun();
    return true;
}

void PanelWidget::showInputError(const QString& error, const QString& consequence) {
    showMessage(error, MessageBanner::Level::Error);
    if (m_errorBox)
        m_errorBox->close();
    m_errorBox = new QMessageBox(QMessageBox::Warning, tr("Input file refused"), consequence,
                                 QMessageBox::Close, this);
    m_errorBox->setInformativeText(error);
    m_errorBox->setAttribute(Qt::WA_DeleteOnClose);
    m_errorBox->setWindowModality(Qt::NonModal);
    m_errorBox->show();
}

QStringList PanelWidget::droppedInputs(const QMimeData* mime) const {
    QStringList files;
    if (!mime || !mime->hasUrls())
        return files;
    for (const QUrl& url : mime->urls())
        if (url.isLocalFile() && acceptsInputFile(url.toLocalFile()))
            files << url.toLocalFile();
    return files;
}

void PanelWidget::changeEvent(QEvent* event) {
    QWidget::changeEvent(event);
    if (event->type() == QEvent::FontChange)
        m_scroll->setMinimumWidth(m_controls->sizeHint().width() + 24);
}

void PanelWidget::dragEnterEvent(QDragEnterEvent* event) {
    if (!droppedInputs(event->mimeData()).isEmpty())
        event->acceptProposedAction();
    else
        event->ignore(); // e.g. a session file: the main window takes it
}

void PanelWidget::dropEvent(QDropEvent* event) {
    const QStringList files = droppedInputs(event->mimeData());
    if (files.isEmpty()) {
        event->ignore();
        return;
    }
    event->acceptProposedAction();
    const int n = std::max(1, m_model->engine().maxInputs());
    for (int i = 0; i < std::min<int>(n, int(files.size())); ++i)
        if (!loadInputFile(files.at(i)))
            break;
}

QUndoStack* PanelWidget::undoStack() const {
    return m_controls->undoStack();
}

QString PanelWidget::stateString() const {
    return PanelStateCodec::encode(pluginId(), m_model->params(), m_model->seed());
}

bool PanelWidget::applyStateString(const QString& text, QString* error) {
    ParamSet params;
    uint64_t seed = 0;
    QString why;
    if (!PanelStateCodec::decode(text, pluginId(), m_model->engine().params(), &params, &seed, &why)) {
        if (error)
            *error = why;
        return false;
    }
    m_controls->applyState(PanelSnapshot{params, QString(), seed}, tr("Paste state"));
    return true;
}

void PanelWidget::copyState() {
    const QString s = stateString();
    QGuiApplication::clipboard()->setText(s);
    qCInfo(lcGui).noquote() << pluginId() + QStringLiteral(": copied state") << s;
}

void PanelWidget::pasteState() {
    const QString text = QGuiApplication::clipboard()->text().trimmed();
    QString error;
    if (text.isEmpty())
        error = tr("the clipboard holds no text");
    if (!error.isEmpty() || !applyStateString(text, &error))
        showMessage(tr("Paste state refused, nothing changed: %1").arg(error), MessageBanner::Level::Error);
}

QStringList PanelWidget::tourNames() const {
    QStringList names;
    for (const TourInfo& t : m_model->info().tours)
        names << t.name;
    return names;
}

bool PanelWidget::startTour(const QString& name) {
    Tour tour;
    QString error;
    if (!Tour::load(m_model->info(), name, &tour, &error) ||
        !tour.validate(m_model->info(), m_model->engine().params(), &error)) {
        showMessage(error, MessageBanner::Level::Error);
        return false;
    }
    endTour();
    m_tourPlayer = new TourPlayer(m_model, tour, this);
    connect(m_tourPlayer, &TourPlayer::stepChanged, this, [this](int i) {
        QString fig;
        for (int k = i; k >= 0 && fig.isEmpty(); --k)
            fig = m_tourPlayer->tour().steps.at(k).figure;
        highlightFigure(fig);
    });
    connect(m_tourPlayer, &TourPlayer::errorOccurred, this,
            [this](const QString& msg) { showMessage(msg, MessageBanner::Level::Error); });
    m_tourBar->setPlayer(m_tourPlayer);
    qCInfo(lcGui).noquote() << pluginId() + QStringLiteral(": tour") << name;
    return m_tourPlayer->start();
}

void PanelWidget::endTour() {
    if (!m_tourPlayer)
        return;
    m_tourBar->setPlayer(nullptr);
    m_tourPlayer->stop();
    m_tourPlayer->deleteLater();
    m_tourPlayer = nullptr;
    highlightFigure(QString());
}

void PanelWidget::startTourInteractive() {
    const QStringList names = tourNames();
    if (names.isEmpty())
        return showMessage(tr("This panel ships no guided tour."), MessageBanner::Level::Info);
    QString name = names.first();
    if (names.size() > 1) {
        QStringList titles;
        for (const TourInfo& t : m_model->info().tours)
            titles << t.title;
        bool ok = false;
        const QString title =
            QInputDialog::getItem(this, tr("Guided tour"), tr("Tour:"), titles, 0, false, &ok);
        if (!ok)
            return;
        name = names.at(titles.indexOf(title));
    }
    startTour(name);
}

void PanelWidget::highlightFigure(const QString& id) {
    m_highlighted = id;
    QTabBar* bar = m_tabs->tabBar();
    for (int i = 0; i < m_tabs->count(); ++i) {
        const bool on = !id.isEmpty() && bar->tabData(i).toString() == id;
        bar->setTabTextColor(i, on ? palette().color(QPalette::Highlight) : QColor());
        const QString text = m_tabs->tabText(i).remove(QStringLiteral("▶ "));
        m_tabs->setTabText(i, on ? QStringLiteral("▶ ") + text : text);
    }
    if (!id.isEmpty())
        showFigure(id);
}

bool PanelWidget::exportFigure(const QString& id, const QString& path, QString* error) const {
    FigureSpec spec;
    if (!figureSpec(id, &spec)) {
        if (error)
            *error = tr("figure '%1' has no data yet (no finished run)").arg(id);
        return false;
    }
    ExportOptions options;
    options.dpi = m_dpi;
    return FigureExporter::exportFile(spec, path, options, error);
}

bool PanelWidget::exportFigureData(const QString& id, const QString& path, QString* error) const {
    FigureSpec spec;
    if (!figureSpec(id, &spec)) {
        if (error)
            *error = tr("figure '%1' has no data yet (no finished run)").arg(id);
        return false;
    }
    return FigureExporter::exportDataFile(spec, path, error);
}

bool PanelWidget::exportResult(const QString& path, QString* error) const {
    const auto result = m_model->result();
    if (!result) {
        if (error)
            *error = tr("no result yet");
        return false;
    }
    return FigureExporter::writeAtomically(path, QByteArray::fromStdString(result->toJson(2)), error);
}

bool PanelWidget::exportReport(const QString& path, QString* error) const {
    const auto result = m_model->result();
    if (!result || !m_model->plugin()) {
        if (error)
            *error = tr("no result yet");
        return false;
    }
    const bool pdf = path.endsWith(QLatin1String(".pdf"), Qt::CaseInsensitive);
    const int dpi = std::min(m_dpi, 300);
    if (m_pinned && m_pinned->isPinned()) {
        // With a pinned run the report is the A/B comparison (as `report --compare`): the parameters
        // that differ, metrics and claims of A and B, every figure drawn as A and B overlaid.
        const ResultDocument& a = *m_pinned->pinned();
        QVector<FigureSpec> figures;
        for (const FigureInfo& f : m_model->info().figures)
            figures << compareFigures(m_model->plugin()->buildFigure(f.id, a),
                                      m_model->plugin()->buildFigure(f.id, *result), CompareView::Overlay);
        const CompareReportWriter writer(m_model->info(), a, *result, figures, dpi);
        return pdf ? writer.writePdf(path, error) : writer.writeHtml(path, error);
    }
    const ReportWriter writer(m_model->info(), *m_model->plugin(), *result, dpi);
    return pdf ? writer.writePdf(path, error) : writer.writeHtml(path, error);
}

QString PanelWidget::askSavePath(const QString& title, const QString& suggestedName,
                                 const QString& filter) const {
    QSettings settings;
    const QString dir = settings.value(QStringLiteral("export/lastDir")).toString();
    const QString path = QFileDialog::getSaveFileName(const_cast<PanelWidget*>(this), title,
                                                      QDir(dir).filePath(suggestedName), filter);
    if (!path.isEmpty())
        settings.setValue(QStringLiteral("export/lastDir"), QFileInfo(path).absolutePath());
    return path;
}

void PanelWidget::exportCurrentFigureInteractive() {
    QString id = currentFigureId();
    if (id.isEmpty() && !figureIds().isEmpty())
        id = figureIds().first();
    if (id.isEmpty())
        return showMessage(tr("This panel has no figures to export."), MessageBanner::Level::Info);
    const QString path = askSavePath(tr("Export figure"), QStringLiteral("%1-%2.png").arg(pluginId(), id),
                                     tr("PNG image (*.png);;SVG vector image (*.svg);;PDF document (*.pdf)"));
    QString error;
    if (!path.isEmpty() && !exportFigure(id, path, &error))
        showMessage(error);
}

void PanelWidget::exportDataInteractive() {
    QString id = currentFigureId();
    if (id.isEmpty() && !figureIds().isEmpty())
        id = figureIds().first();
    if (id.isEmpty())
        return showMessage(tr("This panel has no figures to export."), MessageBanner::Level::Info);
    const QString path =
        askSavePath(tr("Export figure data"), QStringLiteral("%1-%2.csv").arg(pluginId(), id),
                    tr("CSV table (*.csv);;JSON (*.json)"));
    QString error;
    if (!path.isEmpty() && !exportFigureData(id, path, &error))
        showMessage(error);
}

void PanelWidget::exportResultInteractive() {
    const QString path = askSavePath(tr("Export result"), QStringLiteral("%1-result.json").arg(pluginId()),
                                     tr("Result JSON (*.json)"));
    QString error;
    if (!path.isEmpty() && !exportResult(path, &error))
        showMessage(error);
}

void PanelWidget::exportReportInteractive() {
    const QString name = m_pinned && m_pinned->isPinned() ? QStringLiteral("%1-compare.html")
                                                          : QStringLiteral("%1-report.html");
    const QString path = askSavePath(tr("Export report"), name.arg(pluginId()),
                                     tr("HTML report (*.html);;PDF report (*.pdf)"));
    QString error;
    if (!path.isEmpty() && !exportReport(path, &error))
        showMessage(error);
}

} // namespace pl::gui
