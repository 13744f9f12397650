#pragma once
/// A two-player game prepared for the learning dynamics of the ftrl-potential-games panel:
/// double payoffs (what FTRL sees), optional exact integer payoffs (what exact fictitious play
/// sees), the improvement path of a snake and the target profile (the potential maximiser).
/// Plain data, immutable once built; copy freely between threads. No Qt.

#include <Eigen/Core>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace pl::games {

/// Exact payoffs: A = a / denominator, B = b / denominator, a and b integers stored row-major
/// (rows = row player's strategies). Fictitious play is invariant to the common positive
/// denominator, so it runs on a and b directly.
struct ExactPayoffs {
    int rows = 0;
    int cols = 0;
    std::vector<int64_t> a; ///< rows*cols, row-major
    std::vector<int64_t> b; ///< rows*cols, row-major
    int64_t denominator = 1;

    int64_t aAt(int i, int j) const { return a[size_t(i) * size_t(cols) + size_t(j)]; }
    int64_t bAt(int i, int j) const { return b[size_t(i) * size_t(cols) + size_t(j)]; }
    /// Largest |entry| of a and b.
    int64_t maxAbs() const;
};

struct FtrlGame {
    std::string title;                     ///< for notes and labels
    std::string kind;                      ///< "snake_linear", "snake_geometric", "random_potential", ...
    Eigen::MatrixXd A;                     ///< row player's payoffs (rows x cols)
    Eigen::MatrixXd B;                     ///< column player's payoffs (rows x cols)
    std::optional<ExactPayoffs> exact;     ///< set when the payoffs are exact rationals
    std::vector<std::pair<int, int>> path; ///< improvement path (snakes only), 0-based profiles
    int targetRow = -1;                    ///< profile that counts as "the equilibrium" (-1: none)
    int targetCol = -1;

    int rows() const { return int(A.rows()); }
    int cols() const { return int(A.cols()); }
};

/// Tries to write A and B as integers over one denominator 10^k (k = 0..6), each integer of
/// magnitude below 2^40 (so that 10^9 fictitious-play steps stay exact in doubles too).
/// Returns nothing when no such form exists within a relative 1e-12.
std::optional<ExactPayoffs> exactFromDouble(const Eigen::MatrixXd& A, const Eigen::MatrixXd& B);

/// Builds the double matrices from exact payoffs (a / denominator).
void fillFromExact(FtrlGame& game);

/// A pure Nash equilibrium of the bimatrix game maximising A + B (lowest row, then column, among
/// equals), or {-1, -1} when there is none.
std::pair<int, int> bestPureNash(const Eigen::MatrixXd& A, const Eigen::MatrixXd& B);

} // namespace pl::games
