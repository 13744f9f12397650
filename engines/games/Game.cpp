#include "Game.h"

#include "core/Errors.h"

#include <limits>

namespace pl::games {

int64_t NormalFormGame::numProfiles() const {
    if (numStrategies.empty())
        return 0;
    int64_t n = 1;
    for (int k : numStrategies) {
        if (k <= 0)
            return 0;
        if (n > std::numeric_limits<int64_t>::max() / k)
            throw EngineError("game has too many strategy profiles to index");
        n *= k;
    }
    return n;
}

int64_t NormalFormGame::profileIndex(const std::vector<int>& profile) const {
    if (profile.size() != numStrategies.size())
        throw EngineError("profile has " + std::to_string(profile.size()) + " entries, game has " +
                          std::to_string(numStrategies.size()) + " players");
    int64_t index = 0;
    int64_t stride = 1;
    for (size_t p = 0; p < profile.size(); ++p) {
        if (profile[p] < 0 || profile[p] >= numStrategies[p])
            throw EngineError("strategy " + std::to_string(profile[p]) + " of player " + std::to_string(p) +
                              " is out of range");
        index += stride * profile[p];
        stride *= numStrategies[p];
    }
    return index;
}

double NormalFormGame::payoff(int player, const std::vector<int>& profile) const {
    if (player < 0 || player >= numPlayers())
        throw EngineError("player " + std::to_string(player) + " is out of range");
    return payoffs[size_t(player)][size_t(profileIndex(profile))];
}

Eigen::MatrixXd NormalFormGame::matrix(int player) const {
    if (numPlayers() != 2)
        throw EngineError("a payoff matrix needs a two-player game, this one has " +
                          std::to_string(numPlayers()) + " players");
    if (player < 0 || player > 1)
        throw EngineError("player " + std::to_string(player) + " is out of range");
    const int n = numStrategies[0];
    const int m = numStrategies[1];
    const auto& pay = payoffs[size_t(player)];
    Eigen::MatrixXd M(n, m);
    // Gambit order: player 0 fastest, so profile (i, j) sits at i + n * j (column-major).
    for (int j = 0; j < m; ++j)
        for (int i = 0; i < n; ++i)
            M(i, j) = pay[size_t(i) + size_t(n) * size_t(j)];
    return M;
}

NormalFormGame NormalFormGame::fromBimatrix(const Eigen::MatrixXd& A, const Eigen::MatrixXd& B,
                                            std::string title) {
    if (A.rows() != B.rows() || A.cols() != B.cols())
        throw EngineError("bimatrix payoffs differ in shape");
    if (A.rows() < 1 || A.cols() < 1)
        throw EngineError("a game needs at least one strategy per player");
    NormalFormGame g;
    g.title = std::move(title);
    g.playerNames = {"Player 1", "Player 2"};
    g.numStrategies = {int(A.rows()), int(A.cols())};
    g.strategyNames.resize(2);
    for (int p = 0; p < 2; ++p)
        for (int s = 0; s < g.numStrategies[size_t(p)]; ++s)
            g.strategyNames[size_t(p)].push_back(std::to_string(s + 1));
    const size_t profiles = size_t(A.rows()) * size_t(A.cols());
    g.payoffs.assign(2, std::vector<double>(profiles));
    for (Eigen::Index j = 0; j < A.cols(); ++j)
        for (Eigen::Index i = 0; i < A.rows(); ++i) {
            const size_t k = size_t(i) + size_t(A.rows()) * size_t(j);
            g.payoffs[0][k] = A(i, j);
            g.payoffs[1][k] = B(i, j);
        }
    return g;
}

} // namespace pl::games
