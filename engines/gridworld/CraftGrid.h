#pragma once
/// CraftGrid, the stand-in environment of deepha-agent: an agent on a GridMap with an inventory,
/// the unified token vocabulary L3 (skills) ∪ L2 (grounding) ∪ L1 (motor), one step of the
/// dynamics, the backward-chaining expert (recipe DAG + BFS paths) and the observation features
/// (egocentric 5×5 one-hot, facing, BFS compass per collect tile, inventory, goal). Tiles are never
/// used up. Pure functions over plain values; any thread. No Qt.

#include "gridworld/GridMap.h"
#include "gridworld/RecipeBook.h"

#include <Eigen/Core>
#include <string>
#include <vector>

namespace pl::gridworld {

/// Token levels; Marker is the completion marker of compressed histories.
enum class Level { L3, L2, L1, Marker };

/// The token vocabulary of one recipe book: [L3: GET item...][L2: GOTO tile..., HERE]
/// [L1: N, E, S, W, USE, CRAFT item..., NOOP][DONE].
class Vocabulary {
public:
    explicit Vocabulary(const RecipeBook& book);
    int size() const { return int(m_names.size()); }
    int l3Begin() const { return 0; }
    int l2Begin() const { return m_l2; }
    int l1Begin() const { return m_l1; }
    int done() const { return size() - 1; }
    int count(Level l) const;
    int begin(Level l) const;
    Level level(int token) const;
    const std::string& name(int token) const { return m_names[size_t(token)]; }
    int skillToken(int item) const { return item; }
    /// GOTO token of a collect tile.
    int gotoToken(char tile) const;
    int hereToken() const { return m_l1 - 1; }
    /// L1 token of move k (0..3 = N, E, S, W).
    int moveToken(int k) const { return m_l1 + k; }
    int useToken() const { return m_l1 + 4; }
    /// CRAFT token of a craft or smelt item, -1 for a collect item.
    int craftToken(int item) const { return m_craft[size_t(item)]; }
    int noopToken() const { return done() - 1; }
    const std::string& tiles() const { return m_tiles; }

private:
    std::vector<std::string> m_names;
    std::vector<int> m_craft;
    std::string m_tiles;
    int m_l2 = 0, m_l1 = 0;
};

/// The agent: cell, facing (0..3 = N, E, S, W) and item counts.
struct AgentState {
    int cell = 0;
    int facing = 0;
    std::vector<int> inventory;
};

/// The starting state on a map: its `@` cell, facing north, empty inventory.
AgentState startState(const RecipeBook& book, const GridMap& map);

/// Applies one L1 token. Returns true when the inventory changed.
bool applyAction(const RecipeBook& book, const Vocabulary& v, const GridMap& map, AgentState& s, int l1);

/// Skills (item indices) that obtain \a goal from inventory \a inv, by backward chaining: for each
/// missing item its tool, station and inputs first (recursively), then its own action; empty when
/// \a goal is held. Stops (returns what it has) beyond 2000 skills.
std::vector<int> planSkills(const RecipeBook& book, std::vector<int> inv, int goal);

/// The expert's three tokens for one state: L3 = next skill, L2 = GOTO its tile or HERE, L1 = the
/// BFS move, the turn to face the tile, USE or CRAFT (NOOP when the tile is unreachable).
struct ChainTokens {
    int l3 = -1, l2 = -1, l1 = -1;
};
ChainTokens expertTokens(const RecipeBook& book, const Vocabulary& v, const GridMap& map, const AgentState& s,
                         int goal);

/// The L1 token that makes progress on skill \a item in state \a s (BFS move, turn, USE or CRAFT).
int groundedAction(const RecipeBook& book, const Vocabulary& v, const GridMap& map, const AgentState& s,
                   int item);

/// Length of the observation part of the features (everything but prefix and context).
int observationSize(const RecipeBook& book, const Vocabulary& v);

/// Observation features of a state: egocentric 5×5 one-hot of .TSCID~ and outside, facing, for each
/// collect tile the BFS first move (N, E, S, W, adjacent, unreachable) and "facing it", inventory
/// (held, min(count, 4)/4) and goal one-hot.
Eigen::VectorXd observe(const RecipeBook& book, const Vocabulary& v, const GridMap& map, const AgentState& s,
                        int goal);

} // namespace pl::gridworld
