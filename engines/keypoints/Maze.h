#pragma once
/// Grid mazes of the bottleneck-keypoints panel: the ASCII reader (`#` wall, `.` free, optional
/// `S` start and `G` goal) and the built-in layouts (four rooms, nine rooms, U-maze, random
/// rooms). Cells are indexed row-major (index = row * cols + col). Plain data, no Qt.

#include "core/Rng.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace pl::keypoints {

/// A rectangular grid of wall and free cells. Outside the grid counts as wall.
struct Maze {
    std::string name;
    int rows = 0;
    int cols = 0;
    std::vector<uint8_t> wall; ///< rows*cols, 1 = wall
    int start = -1;            ///< cell index of `S`, or -1
    int goal = -1;             ///< cell index of `G`, or -1
    /// Ground truth of built-in layouts: the door cells (openings in the walls between rooms).
    std::vector<int> doors;
    /// Ground truth of built-in layouts: room id per cell (-1 for walls and doors); empty for files.
    std::vector<int> room;

    int size() const { return rows * cols; }
    int index(int r, int c) const { return r * cols + c; }
    bool isFree(int r, int c) const {
        return r >= 0 && c >= 0 && r < rows && c < cols && !wall[size_t(index(r, c))];
    }
    bool isFree(int cell) const { return cell >= 0 && cell < size() && !wall[size_t(cell)]; }
    int freeCount() const;
    /// The cell reached from `cell` by action a (0 up, 1 down, 2 left, 3 right); the same cell
    /// when the move hits a wall or the border.
    int step(int cell, int action) const;
    /// Breadth-first distances on the true map from `source` (-1 = unreachable). Used for the
    /// behaviour policy that collects data and for reporting start-goal distances, never by a
    /// learned controller.
    std::vector<int> bfs(int source) const;
};

/// Limits of the reader (a maze larger than this is refused).
constexpr int kMaxMazeSide = 1000;

/// Parses an ASCII maze. Lines end with LF or CRLF; trailing empty lines are ignored.
/// Throws pl::InputError(file, reason, line, column) for ragged rows, unknown characters,
/// several S or G, an empty grid, no free cell or a side longer than kMaxMazeSide.
Maze parseMaze(std::string_view text, const std::string& file);
/// Reads and parses a maze file (InputError when it cannot be read).
Maze readMazeFile(const std::string& path);

/// Built-in layouts: a grid of roomsY x roomsX rectangular rooms of the given interior sizes
/// separated by one-cell walls, with one-cell doors. Ground-truth doors and rooms are filled in.
Maze fourRooms();
Maze nineRooms();
/// An AntMaze-like U-maze (no doors: one wide corridor bent around a wall).
Maze uMaze();
/// Random rooms: `roomsY` x `roomsX` rooms whose interior sizes are drawn so that the whole grid
/// is exactly rows x cols; the doors form a random spanning tree plus extra doors with
/// probability `extraDoor`. Requires every room side >= 2.
Maze randomRooms(Rng& rng, int rows, int cols, int roomsY, int roomsX, double extraDoor = 0.25);
/// The maze as text (for files and tests).
std::string toText(const Maze& m);

} // namespace pl::keypoints
