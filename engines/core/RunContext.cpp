#include "RunContext.h"

namespace pl {

RunContext::RunContext(uint64_t seed, int threads)
    : m_seed(seed), m_threads(threads < 1 ? 1 : threads), m_stop(std::make_shared<std::atomic<bool>>(false)) {}

bool RunContext::cancelled() const {
    if (m_stop->load(std::memory_order_relaxed))
        return true;
    if (m_cancelQuery && m_cancelQuery()) {
        m_stop->store(true, std::memory_order_relaxed);
        return true;
    }
    return false;
}

void RunContext::throwIfCancelled() const {
    if (cancelled())
        throw Cancelled();
}

void RunContext::progress(double fraction, const std::string& status) {
    if (!m_progress)
        return;
    auto now = std::chrono::steady_clock::now();
    if (fraction < 1.0 && now - m_lastProgress < std::chrono::milliseconds(50))
        return;
    m_lastProgress = now;
    m_progress(fraction < 0 ? 0 : (fraction > 1 ? 1 : fraction), status);
}

} // namespace pl
