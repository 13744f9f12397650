#pragma once
/// What an engine receives besides its inputs and parameters: a cooperative stop flag, a
/// progress sink, the seed and a thread budget. Thread affinity: an engine calls these from
/// its worker thread; requestStop() may be called from any thread.

#include "Backend.h"
#include "Errors.h"

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

namespace pl {

class RunContext {
public:
    /// Progress callback: fraction in [0, 1] and a short status text. Called at most ~20 times
    /// per second (RunContext throttles). May run on the worker thread; must be thread-safe.
    using ProgressFn = std::function<void(double fraction, const std::string& status)>;
    /// Optional external cancel query (e.g. QPromise::isCanceled); polled by cancelled().
    using CancelQuery = std::function<bool()>;

    explicit RunContext(uint64_t seed = 0, int threads = 1);

    uint64_t seed() const { return m_seed; }
    int threads() const { return m_threads; }
    /// The backend the user asked for (default Auto). Engines with a CUDA path resolve it with
    /// pl::cuda::useCuda() (engines/cuda); others ignore it.
    Backend backend() const { return m_backend; }
    void setBackend(Backend b) { m_backend = b; }

    void setProgressCallback(ProgressFn fn) { m_progress = std::move(fn); }
    void setCancelQuery(CancelQuery q) { m_cancelQuery = std::move(q); }

    /// Asks the engine to stop at its next check. Thread-safe.
    void requestStop() { m_stop->store(true, std::memory_order_relaxed); }
    /// True once a stop was requested (by requestStop or the cancel query).
    bool cancelled() const;
    /// Throws pl::Cancelled when cancelled(). Engines call this at least every ~50 ms of work.
    void throwIfCancelled() const;
    /// Reports progress (throttled to ~20 Hz, fraction 1 is always delivered).
    void progress(double fraction, const std::string& status = {});

private:
    uint64_t m_seed;
    int m_threads;
    Backend m_backend = Backend::Auto;
    std::shared_ptr<std::atomic<bool>> m_stop;
    ProgressFn m_progress;
    CancelQuery m_cancelQuery;
    std::chrono::steady_clock::time_point m_lastProgress{};
};

} // namespace pl
