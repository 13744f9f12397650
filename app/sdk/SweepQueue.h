#pragma once
/// The runs of a sweep still to do, handed out one at a time to whoever asks first: local worker
/// threads (SweepRunner) and, under MPI, the ranks that the dispatcher serves. Dynamic load
/// balancing: runs differ in cost, so nobody is given a fixed share. Thread-safe.

#include <atomic>
#include <cstddef>
#include <utility>
#include <vector>

namespace pl {

class SweepQueue {
public:
    /// `pending`: indices into the sweep's run list, in the order they are handed out.
    explicit SweepQueue(std::vector<int> pending) : m_pending(std::move(pending)) {}

    /// The next run index, or -1 when none is left or the queue was stopped. Any thread.
    int take() {
        if (m_stop.load())
            return -1;
        const size_t k = m_next.fetch_add(1);
        return k < m_pending.size() ? m_pending[k] : -1;
    }
    /// Hands out nothing more (after a failure or a cancel). Any thread.
    void stop() { m_stop = true; }
    /// Runs in the queue when it was made.
    int size() const { return int(m_pending.size()); }

private:
    std::vector<int> m_pending;
    std::atomic<size_t> m_next{0};
    std::atomic<bool> m_stop{false};
};

} // namespace pl
