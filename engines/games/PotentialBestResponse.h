#pragma once
/// Memoryless alternating best-response dynamics on a two-player game: the row player moves to a
/// best response against the current column (only when that strictly improves, lowest index
/// among the best), then the column player does the same, and so on. In a finite potential game
/// every move raises the potential, so the dynamics stop at a pure Nash equilibrium. Contrast to
/// fictitious play: on the snake it needs exactly 2n-2 moves. Pure function; thread-safe.

#include <Eigen/Core>
#include <utility>
#include <vector>

namespace pl::games {

struct BestResponseRun {
    bool reachedEquilibrium = false;       ///< stopped because neither player wants to move
    int moves = 0;                         ///< strategy changes made
    std::vector<std::pair<int, int>> path; ///< profiles visited, starting profile first
};

/// Runs from (row0, col0), row player first, for at most maxMoves strategy changes.
BestResponseRun alternatingBestResponse(const Eigen::MatrixXd& A, const Eigen::MatrixXd& B, int row0,
                                        int col0, int maxMoves);

} // namespace pl::games
