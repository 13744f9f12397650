#include "GameGenerators.h"

#include "core/Errors.h"

#include <algorithm>

namespace pl::games {

const std::vector<std::string>& gameGeneratorNames() {
    static const std::vector<std::string> names = {"gaussian", "uniform", "rps", "hide_and_seek",
                                                   "degenerate"};
    return names;
}

GameGenerator parseGameGenerator(const std::string& name) {
    const auto& names = gameGeneratorNames();
    for (size_t i = 0; i < names.size(); ++i)
        if (names[i] == name)
            return GameGenerator(i);
    throw UsageError("unknown game generator '" + name + "'");
}

bool isSquareGenerator(GameGenerator g) {
    return g == GameGenerator::Rps || g == GameGenerator::HideAndSeek;
}

Eigen::MatrixXd randomZeroSumGame(GameGenerator kind, int rows, int cols, Rng& rng) {
    if (rows < 1 || cols < 1)
        throw UsageError("a game needs at least one strategy per player");
    switch (kind) {
    case GameGenerator::Gaussian:
    case GameGenerator::Degenerate: {
        Eigen::MatrixXd A(rows, cols);
        for (int i = 0; i < rows; ++i) // row by row so that the stream order is the reading order
            for (int j = 0; j < cols; ++j)
                A(i, j) = rng.normal();
        if (kind == GameGenerator::Degenerate && rows >= 2) {
            const int copies = std::max(1, rows / 3);
            for (int i = rows - copies; i < rows; ++i)
                A.row(i) = A.row(int(rng.uniformInt(uint64_t(rows - copies))));
        }
        return A;
    }
    case GameGenerator::Uniform: {
        Eigen::MatrixXd A(rows, cols);
        for (int i = 0; i < rows; ++i)
            for (int j = 0; j < cols; ++j)
                A(i, j) = rng.uniform(-1.0, 1.0);
        return A;
    }
    case GameGenerator::Rps: {
        // Strategy i beats the next h = (n-1)/2 strategies (cyclically) and loses to the
        // previous h; each pair has its own stake 1 + U[0,1). Skew-symmetric: value 0.
        const int n = rows;
        const int h = (n - 1) / 2;
        Eigen::MatrixXd A = Eigen::MatrixXd::Zero(n, n);
        for (int i = 0; i < n; ++i)
            for (int k = 1; k <= h; ++k) {
                const int j = (i + k) % n;
                const double stake = 1.0 + rng.uniform();
                A(i, j) = stake;
                A(j, i) = -stake;
            }
        return A;
    }
    case GameGenerator::HideAndSeek: {
        Eigen::MatrixXd A = Eigen::MatrixXd::Zero(rows, rows);
        for (int i = 0; i < rows; ++i)
            A(i, i) = rng.uniform(0.2, 1.0);
        return A;
    }
    }
    throw UsageError("unknown game generator");
}

} // namespace pl::games
