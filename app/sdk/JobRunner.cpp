#include "JobRunner.h"

#include "core/Errors.h"

#include <QFutureWatcher>
#include <QPromise>
#include <QThread>
#include <QtConcurrent>
#include <atomic>

namespace pl {

struct JobRunner::Job {
    QString channel;
    QFutureWatcher<JobOutcome>* watcher = nullptr;
    /// Our own stop flag, shared with the worker, set together with QFuture::cancel(): the
    /// engine's stop does not depend on how Qt propagates cancellation into the promise.
    std::shared_ptr<std::atomic<bool>> stop = std::make_shared<std::atomic<bool>>(false);
};

JobRunner::JobRunner(QObject* parent, int threads) : QObject(parent) {
    qRegisterMetaType<pl::JobOutcome>();
    if (threads <= 0)
        threads = std::max(1, QThread::idealThreadCount() - 1);
    m_pool.setMaxThreadCount(threads);
    m_pool.setObjectName(QStringLiteral("paperlab-engines"));
}

JobRunner::~JobRunner() {
    cancelAll();
    m_pool.waitForDone(5000);
}

static void runJob(QPromise<JobOutcome>& promise, uint64_t seed, int engineThreads,
                   const std::shared_ptr<std::atomic<bool>>& stop, const JobRunner::Work& work) {
    RunContext ctx(seed, engineThreads);
    ctx.setCancelQuery([&promise, stop] { return stop->load(std::memory_order_relaxed) || promise.isCanceled(); });
    promise.setProgressRange(0, 1000);
    ctx.setProgressCallback([&promise](double f, const std::string& s) {
        promise.setProgressValueAndText(int(f * 1000), QString::fromStdString(s));
    });
    JobOutcome out;
    try {
        out.result = std::make_shared<const ResultDocument>(work(ctx));
    } catch (const Cancelled&) {
        out.status = JobOutcome::Status::Cancelled;
        out.message = QStringLiteral("cancelled");
    } catch (const InputError& e) {
        out.status = JobOutcome::Status::InputError;
        out.message = QString::fromStdString(e.what());
    } catch (const std::exception& e) {
        out.status = JobOutcome::Status::EngineError;
        out.message = QString::fromStdString(e.what());
    } catch (...) {
        out.status = JobOutcome::Status::EngineError;
        out.message = QStringLiteral("unknown failure in the engine");
    }
    if (promise.isCanceled() && out.status == JobOutcome::Status::Done) {
        // Finished despite a late cancel: still deliver, the receiver decides via "latest wins".
    }
    promise.addResult(out);
}

quint64 JobRunner::submit(const QString& channel, const QString& title, uint64_t seed, int engineThreads, Work work) {
    cancelChannel(channel);
    const quint64 id = m_nextId++;
    auto* job = new Job;
    job->channel = channel;
    job->watcher = new QFutureWatcher<JobOutcome>(this);
    auto* w = job->watcher;
    // Connect before setFuture (Qt warns about races otherwise).
    connect(w, &QFutureWatcherBase::progressValueChanged, this,
            [this, id, w](int v) { emit progress(id, v / 1000.0, w->progressText()); });
    connect(w, &QFutureWatcherBase::finished, this, [this, id, w] {
        JobOutcome out;
        if (w->future().resultCount() > 0)
            out = w->future().result();
        else {
            out.status = JobOutcome::Status::Cancelled;
            out.message = QStringLiteral("cancelled before it started");
        }
        Job* j = m_jobs.take(id);
        if (j && m_channelJob.value(j->channel) == id)
            m_channelJob.remove(j->channel);
        delete j;
        w->deleteLater();
        emit finished(id, out);
        emit activeCountChanged(activeCount());
    });
    m_jobs.insert(id, job);
    m_channelJob.insert(channel, id);
    w->setFuture(QtConcurrent::run(&m_pool, runJob, seed, engineThreads, job->stop, std::move(work)));
    emit started(id, title);
    emit activeCountChanged(activeCount());
    return id;
}

void JobRunner::cancel(quint64 id) {
    if (Job* j = m_jobs.value(id)) {
        j->stop->store(true);
        j->watcher->cancel();
    }
}

void JobRunner::cancelChannel(const QString& channel) {
    if (m_channelJob.contains(channel))
        cancel(m_channelJob.value(channel));
}

void JobRunner::cancelAll() {
    for (Job* j : std::as_const(m_jobs)) {
        j->stop->store(true);
        j->watcher->cancel();
    }
}

bool JobRunner::waitForDone(int ms) { return m_pool.waitForDone(ms); }

} // namespace pl
