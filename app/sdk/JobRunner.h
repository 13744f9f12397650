#pragma once
/// Runs engine work on a private thread pool (QtConcurrent, run-with-promise mode) and reports
/// back on the thread that owns the runner (the GUI thread). "Latest wins": submitting to a
/// channel cancels the job that channel still runs. Cancellation is cooperative through
/// pl::RunContext. Thread affinity: create and call on one thread (the main thread).

#include "core/ResultDocument.h"
#include "core/RunContext.h"

#include <QHash>
#include <QObject>
#include <QString>
#include <QThreadPool>
#include <functional>
#include <memory>

namespace pl {

/// How a job ended.
struct JobOutcome {
    enum class Status { Done, Cancelled, InputError, EngineError };
    Status status = Status::Done;
    std::shared_ptr<const ResultDocument> result; ///< set when Done
    QString message;                              ///< set otherwise
};

class JobRunner : public QObject {
    Q_OBJECT
public:
    /// The work: runs on a pool thread, must poll ctx and never touch widgets.
    using Work = std::function<ResultDocument(RunContext&)>;

    /// threads: pool size; 0 = idealThreadCount() - 1 (at least 1).
    explicit JobRunner(QObject* parent = nullptr, int threads = 0);
    ~JobRunner() override; ///< cancels everything and waits (engines stop within ~50 ms)

    /// Starts `work` for `channel`, cancelling that channel's running job. Returns the job id.
    quint64 submit(const QString& channel, const QString& title, uint64_t seed, int engineThreads, Work work);
    void cancel(quint64 id);
    void cancelChannel(const QString& channel);
    void cancelAll();
    /// Blocks (processing no events) until all jobs ended or `ms` passed. For shutdown only.
    bool waitForDone(int ms);
    int activeCount() const { return int(m_jobs.size()); }
    QThreadPool* pool() { return &m_pool; }

signals:
    void started(quint64 id, const QString& title);
    /// fraction in [0, 1]; throttled by Qt to ~25 per second.
    void progress(quint64 id, double fraction, const QString& status);
    /// Always emitted exactly once per job, also for cancelled and failed jobs.
    void finished(quint64 id, const pl::JobOutcome& outcome);
    void activeCountChanged(int count);

private:
    struct Job;
    QThreadPool m_pool;
    quint64 m_nextId = 1;
    QHash<quint64, Job*> m_jobs;
    QHash<QString, quint64> m_channelJob;
};

} // namespace pl

Q_DECLARE_METATYPE(pl::JobOutcome)
