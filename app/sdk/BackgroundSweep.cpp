#include "BackgroundSweep.h"

#include "sdk/PanelModel.h"
#include "sdk/SweepRunner.h"

#include <QPointer>
#include <QtConcurrent/QtConcurrent>

#include <chrono>

namespace pl {

BackgroundSweep::BackgroundSweep(QObject* parent) : QObject(parent) {}

BackgroundSweep::~BackgroundSweep() {
    cancel();
    for (auto* w : findChildren<QFutureWatcher<QString>*>())
        w->waitForFinished();
}

bool BackgroundSweep::isRunning() const {
    return m_watcher && m_watcher->isRunning();
}

void BackgroundSweep::cancel() {
    if (m_shared && isRunning()) {
        m_shared->cancel = true;
        m_cancelled = true;
    }
}

SweepResults BackgroundSweep::results() const {
    if (!m_shared)
        return {};
    std::lock_guard<std::mutex> lock(m_shared->mutex);
    return m_shared->results;
}

int BackgroundSweep::finishedRuns() const {
    if (!m_shared)
        return 0;
    std::lock_guard<std::mutex> lock(m_shared->mutex);
    return m_shared->done;
}

int BackgroundSweep::totalRuns() const {
    if (!m_shared)
        return 0;
    std::lock_guard<std::mutex> lock(m_shared->mutex);
    return int(m_shared->results.runs.size());
}

void BackgroundSweep::start(const PanelModel& model, const SweepPlan& plan, int jobs) {
    if (m_shared)
        m_shared->cancel = true; // the older sweep stops and reports nothing
    const int generation = ++m_generation;
    m_cancelled = false;
    m_base = model.params();
    auto shared = std::make_shared<Shared>();
    shared->results.panel = QString::fromStdString(model.engine().id());
    shared->results.plan = plan;
    shared->results.runs = plan.runs();
    shared->results.docs.resize(shared->results.runs.size());
    m_shared = shared;
    const PanelModel::RunFn run = model.snapshot();
    const int threads = model.engineThreads();
    const ParamSet base = m_base;
    QPointer<BackgroundSweep> self(this);
    auto notify = [self, generation, shared] {
        QMetaObject::invokeMethod(
            self.data(),
            [self, generation, shared] {
                if (self && self->m_generation == generation) {
                    std::unique_lock<std::mutex> lock(shared->mutex);
                    const int done = shared->done, total = int(shared->results.runs.size());
                    lock.unlock();
                    emit self->resultsChanged(done, total);
                }
            },
            Qt::QueuedConnection);
    };
    auto work = [run, threads, base, plan, jobs, shared, notify]() -> QString {
        const std::vector<SweepCell> runs = plan.runs();
        std::vector<int> pending(runs.size());
        for (size_t i = 0; i < pending.size(); ++i)
            pending[i] = int(i);
        auto last = std::chrono::steady_clock::now();
        std::mutex lastMutex;
        auto done = [&](size_t i, ResultDocument& d) {
            {
                std::lock_guard<std::mutex> lock(shared->mutex);
                shared->results.docs[i] = std::move(d);
                ++shared->done;
            }
            std::lock_guard<std::mutex> lock(lastMutex);
            const auto now = std::chrono::steady_clock::now();
            if (now - last > std::chrono::milliseconds(200)) {
                last = now;
                notify();
            }
        };
        const std::exception_ptr e =
            SweepRunner::run(run, threads, plan, base, runs, pending, jobs, done, {}, &shared->cancel);
        notify();
        if (!e || shared->cancel.load())
            return {};
        try {
            std::rethrow_exception(e);
        } catch (const std::exception& x) {
            return QString::fromUtf8(x.what());
        } catch (...) {
            return QStringLiteral("the engine failed");
        }
    };
    auto* watcher = new QFutureWatcher<QString>(this);
    connect(watcher, &QFutureWatcher<QString>::finished, this, [this, watcher, generation] {
        const QString error = watcher->result();
        watcher->deleteLater();
        if (m_watcher == watcher)
            m_watcher = nullptr;
        if (generation != m_generation)
            return;
        if (!error.isEmpty())
            emit failed(error);
        emit finished();
    });
    m_watcher = watcher;
    watcher->setFuture(QtConcurrent::run(work));
}

} // namespace pl
