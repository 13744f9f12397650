#pragma once
/// A rectangular grid of tiles (ASCII: `.` grass, `T` tree, `S` stone, `C` coal, `I` iron,
/// `D` diamond, `~` water; `@` marks the start on grass), its reader, a seeded generator and BFS
/// over the walkable cells (grass only). Plain values; any thread. No Qt.

#include "core/Rng.h"

#include <array>
#include <string>
#include <vector>

namespace pl::gridworld {

/// Moves in the order of the L1 tokens N, E, S, W: row and column offsets.
inline constexpr std::array<int, 4> kDRow{-1, 0, 1, 0};
inline constexpr std::array<int, 4> kDCol{0, 1, 0, -1};

/// One map. Cells are stored row-major; the start cell holds grass.
struct GridMap {
    int rows = 0;
    int cols = 0;
    std::vector<char> cells; ///< rows*cols tile characters (never '@')
    int start = 0;           ///< cell index of `@`
    std::string name;        ///< file name or "generated #k"

    char at(int r, int c) const { return cells[size_t(r * cols + c)]; }
    bool inside(int r, int c) const { return r >= 0 && c >= 0 && r < rows && c < cols; }
    /// Grass, inside the map.
    bool walkable(int r, int c) const { return inside(r, c) && at(r, c) == '.'; }
    /// The map as text, one line per row, with `@` at the start.
    std::string toText() const;
};

/// True for the characters a map may hold (`.TSCID~@`).
bool isMapChar(char c);

/// Parses an ASCII map. Throws pl::InputError(file, reason, line, column) for an empty map, a
/// character outside `.TSCID~@`, a ragged line (other length than the first) or not exactly one `@`.
GridMap parseMap(const std::string& text, const std::string& file);

/// Reads and parses a map file (pl::InputError when unreadable).
GridMap readMapFile(const std::string& path);

/// A seeded size x size map: grass with water patches, clusters of each tile in \a tiles (at least
/// two clusters each, every one touching grass reachable from the start) and a start on grass.
GridMap generateMap(int size, const std::string& tiles, Rng rng, const std::string& name);

/// BFS distances (in moves) over walkable cells from cell \a from; -1 where unreachable.
std::vector<int> bfsDistances(const GridMap& m, int from);

/// True when some walkable cell reachable from the start touches (4-neighbour) a tile \a tile.
bool tileReachable(const GridMap& m, const std::vector<int>& distFromStart, char tile);

/// The first move (0..3 = N, E, S, W) of a shortest path from \a from to any walkable cell next to a
/// tile \a tile (ties: nearest target in row-major order, then moves in N, E, S, W order); 4 when
/// \a from already touches one; -1 when none is reachable. \a steps receives the path length.
int firstMoveToTile(const GridMap& m, int from, char tile, int* steps = nullptr);

} // namespace pl::gridworld
