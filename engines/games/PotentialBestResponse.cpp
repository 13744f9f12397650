#include "PotentialBestResponse.h"

#include "core/Errors.h"

namespace pl::games {

BestResponseRun alternatingBestResponse(const Eigen::MatrixXd& A, const Eigen::MatrixXd& B, int row0,
                                        int col0, int maxMoves) {
    if (A.rows() != B.rows() || A.cols() != B.cols() || A.size() == 0)
        throw EngineError("best response: payoff matrices must be non-empty and of equal shape");
    if (row0 < 0 || row0 >= A.rows() || col0 < 0 || col0 >= A.cols())
        throw UsageError("best response: starting profile outside the game");
    BestResponseRun run;
    int i = row0, j = col0;
    run.path.push_back({i, j});
    int idle = 0; // consecutive turns without a move
    for (int turn = 0; idle < 2 && run.moves < maxMoves; ++turn) {
        bool moved = false;
        if (turn % 2 == 0) {
            int best = i;
            for (int k = 0; k < A.rows(); ++k)
                if (A(k, j) > A(best, j))
                    best = k;
            moved = best != i;
            i = best;
        } else {
            int best = j;
            for (int k = 0; k < B.cols(); ++k)
                if (B(i, k) > B(i, best))
                    best = k;
            moved = best != j;
            j = best;
        }
        if (moved) {
            ++run.moves;
            idle = 0;
            run.path.push_back({i, j});
        } else {
            ++idle;
        }
    }
    run.reachedEquilibrium = idle >= 2;
    return run;
}

} // namespace pl::games
