#pragma once
/// A parameter sweep of a panel run in the background for the GUI's Sweep dialog: SweepRunner on a
/// snapshot of the model (the user may keep working), results gathered as they arrive so that the
/// sweep figures can be drawn while it runs, cancel at any time, one sweep at a time per object
/// (start() cancels the previous one; only the latest reports). Lives on the GUI thread; its
/// signals arrive there. Destroying it cancels and waits for the worker threads.

#include "core/ParamSpec.h"
#include "sdk/SweepResults.h"

#include <QFutureWatcher>
#include <QObject>
#include <QString>

#include <atomic>
#include <memory>
#include <mutex>

namespace pl {

class PanelModel;

class BackgroundSweep : public QObject {
    Q_OBJECT
public:
    explicit BackgroundSweep(QObject* parent = nullptr);
    ~BackgroundSweep() override;

    /// Starts every run of `plan` with `model`'s parameters as the base, on `jobs` threads.
    void start(const PanelModel& model, const SweepPlan& plan, int jobs);
    /// Stops the running sweep: no new run starts, running ones are asked to stop; the results so
    /// far stay readable; finished() follows with wasCancelled() true.
    void cancel();
    bool isRunning() const;
    bool wasCancelled() const { return m_cancelled; }
    /// The sweep so far: docs[i] is empty (no panel) for a run not finished yet. A copy.
    SweepResults results() const;
    /// Runs finished so far, and in all.
    int finishedRuns() const;
    int totalRuns() const;
    /// The base parameters of the current sweep.
    const ParamSet& base() const { return m_base; }

signals:
    /// Some runs finished since the last signal (at most every 200 ms, and at the end).
    void resultsChanged(int done, int total);
    /// The sweep ended (all runs done, cancelled, or failed).
    void finished();
    /// A run failed; the sweep stopped (finished() follows).
    void failed(const QString& message);

private:
    struct Shared {
        std::mutex mutex;
        SweepResults results; ///< guarded by mutex
        int done = 0;         ///< guarded by mutex
        std::atomic<bool> cancel{false};
    };
    QFutureWatcher<QString>* m_watcher = nullptr;
    std::shared_ptr<Shared> m_shared;
    int m_generation = 0;
    bool m_cancelled = false;
    ParamSet m_base;
};

} // namespace pl
