#include "SweepRunner.h"

#include "sdk/PanelModel.h"

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

namespace pl {

std::exception_ptr SweepRunner::run(const PanelModel& model, const SweepPlan& plan, const ParamSet& base,
                                    const std::vector<SweepCell>& runs, const std::vector<int>& pending,
                                    int jobs, const DoneFn& done, const ProgressFn& progress,
                                    const std::atomic<bool>* cancel) {
    return run(model.snapshot(), model.engineThreads(), plan, base, runs, pending, jobs, done, progress,
               cancel);
}

std::exception_ptr SweepRunner::run(const std::function<ResultDocument(const ParamSet&, RunContext&)>& runFn,
                                    int engineThreads, const SweepPlan& plan, const ParamSet& base,
                                    const std::vector<SweepCell>& runs, const std::vector<int>& pending,
                                    int jobs, const DoneFn& done, const ProgressFn& progress,
                                    const std::atomic<bool>* cancel) {
    SweepQueue queue(pending);
    return run(runFn, engineThreads, plan, base, runs, queue, jobs, done, progress, cancel);
}

std::exception_ptr SweepRunner::run(const std::function<ResultDocument(const ParamSet&, RunContext&)>& runFn,
                                    int engineThreads, const SweepPlan& plan, const ParamSet& base,
                                    const std::vector<SweepCell>& runs, SweepQueue& queue, int jobs,
                                    const DoneFn& done, const ProgressFn& progress,
                                    const std::atomic<bool>* cancel) {
    std::atomic<int> finished{0};
    std::mutex failureMutex;
    std::exception_ptr failure;
    auto worker = [&] {
        for (;;) {
            if (cancel && cancel->load())
                queue.stop();
            const int taken = queue.take();
            if (taken < 0)
                return;
            const size_t i = size_t(taken);
            try {
                RunContext ctx(runs[i].seed, engineThreads);
                if (cancel)
                    ctx.setCancelQuery([cancel] { return cancel->load(); });
                ResultDocument d = runFn(plan.paramsOf(base, runs[i]), ctx);
                done(i, d);
            } catch (...) {
                std::lock_guard<std::mutex> lock(failureMutex);
                if (!failure)
                    failure = std::current_exception();
                queue.stop();
            }
            ++finished;
        }
    };
    const int threads = std::max(1, std::min<int>(jobs, queue.size()));
    int live = threads; // guarded by liveMutex
    std::mutex liveMutex;
    std::condition_variable liveChanged;
    std::vector<std::thread> pool;
    for (int t = 0; t < threads; ++t)
        pool.emplace_back([&] {
            worker();
            std::lock_guard<std::mutex> lock(liveMutex);
            --live;
            liveChanged.notify_all();
        });
    const int total = queue.size();
    int shown = -1;
    for (;;) {
        const int f = finished.load();
        if (progress && f != shown) {
            progress(f, total);
            shown = f;
        }
        std::unique_lock<std::mutex> lock(liveMutex);
        if (liveChanged.wait_for(lock, std::chrono::milliseconds(100), [&] { return live == 0; }))
            break;
    }
    for (std::thread& t : pool)
        t.join();
    if (progress && finished.load() != shown)
        progress(finished.load(), total);
    return failure;
}

} // namespace pl
