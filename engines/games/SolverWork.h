#pragma once
/// Work accounting and cooperative cancellation for the zero-sum solvers, so that PRM+, DRS
/// and semi-smooth Newton can be compared on equal terms. Not thread-safe: one per solve.

#include "core/RunContext.h"

#include <cstdint>
#include <string>

namespace pl::games {

struct SolverWork {
    int64_t rows = 1, cols = 1; ///< size of A (n x m)
    int64_t matvecs = 0;        ///< full products with A or A^T (2nm flops each)
    double flops = 0;           ///< all counted floating-point work, including factorisations

    /// One full product with A or A^T.
    void matvec() {
        ++matvecs;
        flops += 2.0 * double(rows) * double(cols);
    }
    void add(double f) { flops += f; }
    /// Work expressed in full matrix-vector products (flops / 2nm).
    double matvecEquivalents() const { return flops / (2.0 * double(rows) * double(cols)); }
};

/// Forwards cancellation checks and progress from a solver to an optional RunContext, mapping
/// the solver's own progress fraction into [from, to]. Checks cost a relaxed atomic load.
class SolveMonitor {
public:
    SolveMonitor() = default;
    SolveMonitor(RunContext* ctx, double from, double to, std::string label)
        : m_ctx(ctx), m_from(from), m_to(to), m_label(std::move(label)) {}

    /// Throws pl::Cancelled when a stop was requested.
    void check() const {
        if (m_ctx)
            m_ctx->throwIfCancelled();
    }
    /// Checks for cancellation once roughly `interval` flops of work have passed.
    void checkEvery(const SolverWork& work, double interval = 2e6) {
        if (work.flops - m_lastCheck >= interval) {
            m_lastCheck = work.flops;
            check();
        }
    }
    /// Reports the solver's progress fraction f in [0, 1] (throttled by RunContext).
    void progress(double f) const {
        if (m_ctx)
            m_ctx->progress(m_from + (m_to - m_from) * (f < 0 ? 0 : (f > 1 ? 1 : f)), m_label);
    }

private:
    RunContext* m_ctx = nullptr;
    double m_from = 0, m_to = 1;
    std::string m_label;
    double m_lastCheck = 0;
};

} // namespace pl::games
