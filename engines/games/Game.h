#pragma once
/// Normal-form games shared by the ssn-nash and ftrl-potential-games engines. No Qt.

#include "core/Engine.h"

#include <Eigen/Core>
#include <cstdint>
#include <string>
#include <vector>

namespace pl::games {

/// An N-player game in strategic form. Payoffs are stored per player as a flat tensor in
/// Gambit order: player 0's strategy changes fastest. Immutable once built.
struct NormalFormGame {
    std::string title;
    std::vector<std::string> playerNames;
    std::vector<std::vector<std::string>> strategyNames; ///< [player][strategy], may be empty strings
    std::vector<int> numStrategies;                      ///< per player, each >= 1
    std::vector<std::vector<double>> payoffs;            ///< [player][profile index]

    int numPlayers() const { return int(numStrategies.size()); }
    int64_t numProfiles() const;
    /// Flat index of a pure profile (player 0 fastest).
    int64_t profileIndex(const std::vector<int>& profile) const;
    double payoff(int player, const std::vector<int>& profile) const;
    /// Two-player games only: payoff matrix of `player`, rows = player 0's strategies,
    /// columns = player 1's strategies.
    Eigen::MatrixXd matrix(int player) const;
    /// Builds a two-player game from payoff matrices (rows: player 0).
    static NormalFormGame fromBimatrix(const Eigen::MatrixXd& A, const Eigen::MatrixXd& B, std::string title = {});
};

/// A game loaded from a user file (.nfg or .csv), the engines' staging object.
struct GameInput : LoadedInput {
    NormalFormGame game;
};

} // namespace pl::games
