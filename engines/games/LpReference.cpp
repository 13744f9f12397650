#include "LpReference.h"

#include "NashGap.h"
#include "core/Errors.h"

#include <ClpEventHandler.hpp>
#include <ClpSimplex.hpp>
#include <exception>
#include <limits>
#include <vector>

namespace pl::games {

namespace {

/// Calls the check function after every simplex iteration; when it throws, CLP is told to
/// stop and the exception is kept to be rethrown after the solve.
class CheckingEventHandler : public ClpEventHandler {
public:
    CheckingEventHandler(CheckFn check, std::exception_ptr* error)
        : m_check(std::move(check)), m_error(error) {}
    int event(Event which) override {
        if (which != endOfIteration || !m_check || *m_error)
            return *m_error ? 0 : -1;
        try {
            m_check();
        } catch (...) {
            *m_error = std::current_exception();
            return 0;
        }
        return -1;
    }
    ClpEventHandler* clone() const override { return new CheckingEventHandler(*this); }

private:
    CheckFn m_check;
    std::exception_ptr* m_error;
};

/// max v s.t. sum_i M_ij s_i - v >= 0 (j < cols of M), sum s = 1, s >= 0, v free; returns (s, v).
/// The column player's LP is the same problem on -A^T (min w = -max(-w)).
std::pair<Eigen::VectorXd, double> solveMaxMin(const Eigen::MatrixXd& M, int64_t& iterations,
                                               const CheckFn& check) {
    const int n = int(M.rows());
    const int m = int(M.cols());
    const double inf = std::numeric_limits<double>::infinity();
    std::vector<CoinBigIndex> start;
    std::vector<int> index;
    std::vector<double> value;
    start.reserve(size_t(n) + 2);
    index.reserve(size_t(n) * size_t(m + 1) + size_t(m));
    value.reserve(index.capacity());
    for (int i = 0; i < n; ++i) { // column of s_i: row j gets M_ij, the last row gets 1
        start.push_back(CoinBigIndex(index.size()));
        for (int j = 0; j < m; ++j)
            if (M(i, j) != 0) {
                index.push_back(j);
                value.push_back(M(i, j));
            }
        index.push_back(m);
        value.push_back(1.0);
    }
    start.push_back(CoinBigIndex(index.size())); // column of v: -1 in every payoff row
    for (int j = 0; j < m; ++j) {
        index.push_back(j);
        value.push_back(-1.0);
    }
    start.push_back(CoinBigIndex(index.size()));

    std::vector<double> collb(size_t(n) + 1, 0.0), colub(size_t(n) + 1, inf), obj(size_t(n) + 1, 0.0);
    collb[size_t(n)] = -inf;
    obj[size_t(n)] = 1.0;
    std::vector<double> rowlb(size_t(m) + 1, 0.0), rowub(size_t(m) + 1, inf);
    rowlb[size_t(m)] = rowub[size_t(m)] = 1.0;

    ClpSimplex model;
    model.setLogLevel(0);
    model.loadProblem(n + 1, m + 1, start.data(), index.data(), value.data(), collb.data(), colub.data(),
                      obj.data(), rowlb.data(), rowub.data());
    model.setOptimizationDirection(-1); // maximise
    model.setPrimalTolerance(1e-10);
    model.setDualTolerance(1e-10);
    std::exception_ptr error;
    if (check) {
        const CheckingEventHandler handler(check, &error);
        model.passInEventHandler(&handler);
    }
    model.dual();
    if (error)
        std::rethrow_exception(error);
    if (model.status() != 0)
        throw EngineError("CLP did not solve the game's linear program (status " +
                          std::to_string(model.status()) + ")");
    iterations += model.numberIterations();
    const double* sol = model.primalColumnSolution();
    Eigen::VectorXd s(n);
    for (int i = 0; i < n; ++i)
        s[i] = std::max(sol[i], 0.0);
    const double total = s.sum();
    if (!(total > 0))
        throw EngineError("CLP returned an empty strategy");
    s /= total;
    return {s, sol[n]};
}

} // namespace

LpGameSolution solveZeroSumLp(const Eigen::MatrixXd& A, const CheckFn& check) {
    if (A.size() == 0)
        throw EngineError("empty game");
    LpGameSolution out;
    if (check)
        check();
    auto [x, v] = solveMaxMin(A, out.iterations, check);
    const Eigen::MatrixXd negAt = -A.transpose();
    auto [y, negW] = solveMaxMin(negAt, out.iterations, check);
    out.x = x;
    out.y = y;
    out.value = v;
    out.columnValue = -negW;
    out.gap = dualityGap(A, out.x, out.y);
    return out;
}

} // namespace pl::games
