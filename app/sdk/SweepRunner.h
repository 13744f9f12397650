#pragma once
/// Runs the runs of a SweepPlan through PanelModel::runWith on worker threads (engines are
/// stateless, so runs of one model may overlap). Used by `paperlab sweep`; the model must not
/// change while it runs. Blocks the calling thread, which receives progress callbacks.

#include "core/ResultDocument.h"
#include "core/RunContext.h"
#include "sdk/SweepPlan.h"
#include "sdk/SweepQueue.h"

#include <atomic>
#include <exception>
#include <functional>
#include <vector>

namespace pl {

class PanelModel;

class SweepRunner {
public:
    /// Called on a worker thread once per finished run with its index into `runs`; may take the
    /// document. An exception thrown here stops the sweep like a failed run.
    using DoneFn = std::function<void(size_t index, ResultDocument& result)>;
    /// Called on the calling thread about every 100 ms and at the end: runs finished so far.
    using ProgressFn = std::function<void(int done, int total)>;

    /// Runs runs[i] for every i in `pending` on min(jobs, pending.size()) threads, each with
    /// RunContext(seed of the run, model.engineThreads()). After a failure no new run starts; the
    /// first failure is returned (nullptr when every run finished). `cancel` (optional) stops
    /// starting new runs and asks the running ones to stop.
    static std::exception_ptr run(const PanelModel& model, const SweepPlan& plan, const ParamSet& base,
                                  const std::vector<SweepCell>& runs, const std::vector<int>& pending,
                                  int jobs, const DoneFn& done, const ProgressFn& progress = {},
                                  const std::atomic<bool>* cancel = nullptr);
    /// The same on a snapshot of a model (PanelModel::snapshot) with `engineThreads` per run: the
    /// model itself may change meanwhile (background checks in the GUI).
    static std::exception_ptr run(const std::function<ResultDocument(const ParamSet&, RunContext&)>& runFn,
                                  int engineThreads, const SweepPlan& plan, const ParamSet& base,
                                  const std::vector<SweepCell>& runs, const std::vector<int>& pending,
                                  int jobs, const DoneFn& done, const ProgressFn& progress = {},
                                  const std::atomic<bool>* cancel = nullptr);
    /// The same, taking runs from `queue`, which others (the MPI dispatcher) may take from too;
    /// progress counts the runs finished here against queue.size(). A failure stops the queue.
    static std::exception_ptr run(const std::function<ResultDocument(const ParamSet&, RunContext&)>& runFn,
                                  int engineThreads, const SweepPlan& plan, const ParamSet& base,
                                  const std::vector<SweepCell>& runs, SweepQueue& queue, int jobs,
                                  const DoneFn& done, const ProgressFn& progress = {},
                                  const std::atomic<bool>* cancel = nullptr);
};

} // namespace pl
