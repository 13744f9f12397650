#include "Maze.h"

#include "core/Errors.h"

#include <algorithm>
#include <cstdio>
#include <deque>
#include <fstream>
#include <numeric>
#include <sstream>

namespace pl::keypoints {

int Maze::freeCount() const {
    return int(std::count(wall.begin(), wall.end(), uint8_t(0)));
}

int Maze::step(int cell, int action) const {
    static const int dr[4] = {-1, 1, 0, 0};
    static const int dc[4] = {0, 0, -1, 1};
    const int r = cell / cols + dr[action & 3], c = cell % cols + dc[action & 3];
    return isFree(r, c) ? index(r, c) : cell;
}

std::vector<int> Maze::bfs(int source) const {
    std::vector<int> d(size_t(size()), -1);
    if (!isFree(source))
        return d;
    std::deque<int> q{source};
    d[size_t(source)] = 0;
    while (!q.empty()) {
        const int u = q.front();
        q.pop_front();
        for (int a = 0; a < 4; ++a) {
            const int v = step(u, a);
            if (d[size_t(v)] < 0) {
                d[size_t(v)] = d[size_t(u)] + 1;
                q.push_back(v);
            }
        }
    }
    return d;
}

namespace {

std::string describe(unsigned char ch) {
    if (ch >= 0x21 && ch < 0x7f)
        return std::string("'") + char(ch) + "'";
    char buf[16];
    std::snprintf(buf, sizeof buf, "byte 0x%02X", unsigned(ch));
    return buf;
}

} // namespace

Maze parseMaze(std::string_view text, const std::string& file) {
    // Split into lines (LF, optional CR before it).
    std::vector<std::string_view> lines;
    size_t pos = 0;
    while (pos <= text.size()) {
        size_t nl = text.find('\n', pos);
        if (nl == std::string_view::npos)
            nl = text.size();
        std::string_view line = text.substr(pos, nl - pos);
        if (!line.empty() && line.back() == '\r')
            line.remove_suffix(1);
        lines.push_back(line);
        pos = nl + 1;
    }
    while (!lines.empty() && lines.back().empty())
        lines.pop_back();
    if (lines.empty())
        throw InputError(file, "empty maze: no rows", 1, 0);
    if (lines.size() > size_t(kMaxMazeSide))
        throw InputError(file, "maze has more than " + std::to_string(kMaxMazeSide) + " rows",
                         int64_t(kMaxMazeSide) + 1, 0);
    Maze m;
    m.name = file;
    m.rows = int(lines.size());
    m.cols = int(lines[0].size());
    if (m.cols == 0)
        throw InputError(file, "empty first row", 1, 0);
    if (m.cols > kMaxMazeSide)
        throw InputError(file, "row longer than " + std::to_string(kMaxMazeSide) + " cells", 1,
                         kMaxMazeSide + 1);
    m.wall.assign(size_t(m.rows) * size_t(m.cols), 1);
    for (int r = 0; r < m.rows; ++r) {
        const std::string_view line = lines[size_t(r)];
        // Characters are checked before the length so that a stray byte is named where it is.
        for (size_t c = 0; c < line.size() && c < size_t(m.cols); ++c) {
            const char ch = line[c];
            const int idx = m.index(r, int(c));
            switch (ch) {
            case '#':
                break;
            case '.':
                m.wall[size_t(idx)] = 0;
                break;
            case 'S':
            case 'G': {
                int& slot = ch == 'S' ? m.start : m.goal;
                if (slot >= 0)
                    throw InputError(file,
                                     std::string("second '") + ch + "' (first at line " +
                                         std::to_string(slot / m.cols + 1) + ", column " +
                                         std::to_string(slot % m.cols + 1) + ")",
                                     r + 1, int64_t(c) + 1);
                slot = idx;
                m.wall[size_t(idx)] = 0;
                break;
            }
            default:
                throw InputError(file,
                                 "unknown character " + describe(static_cast<unsigned char>(ch)) +
                                     " (allowed: '#' wall, '.' free, 'S' start, 'G' goal)",
                                 r + 1, int64_t(c) + 1);
            }
        }
        if (int(line.size()) != m.cols)
            throw InputError(file,
                             "ragged rows: row " + std::to_string(r + 1) + " has " +
                                 std::to_string(line.size()) + " cells, row 1 has " + std::to_string(m.cols),
                             r + 1, int64_t(std::min(line.size(), size_t(m.cols))) + 1);
    }
    if (m.freeCount() == 0)
        throw InputError(file, "no free cell ('.', 'S' or 'G') in the maze", 1, 1);
    return m;
}

Maze readMazeFile(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw InputError(path, "cannot open the file");
    in.seekg(0, std::ios::end);
    const std::streamoff n = in.tellg();
    if (n < 0)
        throw InputError(path, "cannot read the file");
    // A maximal maze is 1000 x 1000 cells plus CRLF line ends.
    if (n > std::streamoff(kMaxMazeSide) * (kMaxMazeSide + 2) + 16)
        throw InputError(path, "file too large for a maze (" + std::to_string(n) + " bytes)");
    in.seekg(0);
    std::string text(size_t(n), '\0');
    in.read(text.data(), n);
    Maze m = parseMaze(text, path);
    return m;
}

namespace {

/// Rooms of the given interior sizes; `doorOpen(y, x, dir)` decides which walls get a door
/// (dir 0: between room (y,x) and (y,x+1); 1: between (y,x) and (y+1,x)); `doorPos` picks the
/// offset of the door along the wall.
template <class Open, class Pos>
Maze roomGrid(const std::string& name, const std::vector<int>& heights, const std::vector<int>& widths,
              Open doorOpen, Pos doorPos) {
    Maze m;
    m.name = name;
    m.rows = 1 + std::accumulate(heights.begin(), heights.end(), 0) + int(heights.size());
    m.cols = 1 + std::accumulate(widths.begin(), widths.end(), 0) + int(widths.size());
    m.wall.assign(size_t(m.size()), 1);
    m.room.assign(size_t(m.size()), -1);
    std::vector<int> y0(heights.size()), x0(widths.size());
    for (size_t i = 0, y = 1; i < heights.size(); y += size_t(heights[i]) + 1, ++i)
        y0[i] = int(y);
    for (size_t j = 0, x = 1; j < widths.size(); x += size_t(widths[j]) + 1, ++j)
        x0[j] = int(x);
    const int nx = int(widths.size());
    for (size_t i = 0; i < heights.size(); ++i)
        for (size_t j = 0; j < widths.size(); ++j)
            for (int r = 0; r < heights[i]; ++r)
                for (int c = 0; c < widths[j]; ++c) {
                    const int idx = m.index(y0[i] + r, x0[j] + c);
                    m.wall[size_t(idx)] = 0;
                    m.room[size_t(idx)] = int(i) * nx + int(j);
                }
    for (size_t i = 0; i < heights.size(); ++i)
        for (size_t j = 0; j < widths.size(); ++j) {
            if (j + 1 < widths.size() && doorOpen(int(i), int(j), 0)) {
                const int r = y0[i] + doorPos(int(i), int(j), 0, heights[i]);
                const int idx = m.index(r, x0[j] + widths[j]);
                m.wall[size_t(idx)] = 0;
                m.doors.push_back(idx);
            }
            if (i + 1 < heights.size() && doorOpen(int(i), int(j), 1)) {
                const int c = x0[j] + doorPos(int(i), int(j), 1, widths[j]);
                const int idx = m.index(y0[i] + heights[i], c);
                m.wall[size_t(idx)] = 0;
                m.doors.push_back(idx);
            }
        }
    std::sort(m.doors.begin(), m.doors.end());
    return m;
}

} // namespace

Maze fourRooms() {
    // 2 x 2 rooms of 9 x 9 cells (21 x 21 grid); doors off-centre as in Sutton's four rooms.
    Maze m = roomGrid(
        "four rooms", {9, 9}, {9, 9}, [](int, int, int) { return true; },
        [](int i, int j, int dir, int len) {
            const int offs[2][2][2] = {{{2, 5}, {6, 3}}, {{4, 0}, {0, 0}}};
            return std::min(len - 1, offs[i][j][dir]);
        });
    m.start = m.index(2, 2);
    m.goal = m.index(m.rows - 3, m.cols - 3);
    return m;
}

Maze nineRooms() {
    // 3 x 3 rooms of 7 x 7 cells (25 x 25 grid), a door in every wall between neighbours.
    Maze m = roomGrid(
        "nine rooms", {7, 7, 7}, {7, 7, 7}, [](int, int, int) { return true; },
        [](int i, int j, int dir, int len) { return (i * 3 + j * 5 + dir * 2 + 1) % len; });
    m.start = m.index(1, 1);
    m.goal = m.index(m.rows - 2, m.cols - 2);
    return m;
}

Maze uMaze() {
    // AntMaze U-maze scaled by 4: a 4-cell-thick wall from the left across the middle.
    const char* art[5] = {"#####", "#...#", "###.#", "#...#", "#####"};
    const int s = 4;
    Maze m;
    m.name = "U-maze";
    m.rows = 2 + 3 * s;
    m.cols = 2 + 3 * s;
    m.wall.assign(size_t(m.size()), 1);
    for (int r = 1; r < m.rows - 1; ++r)
        for (int c = 1; c < m.cols - 1; ++c) {
            const int br = 1 + (r - 1) / s, bc = 1 + (c - 1) / s;
            m.wall[size_t(m.index(r, c))] = art[br][bc] == '#' ? 1 : 0;
        }
    m.start = m.index(2, 2);
    m.goal = m.index(m.rows - 3, 2);
    return m;
}

Maze randomRooms(Rng& rng, int rows, int cols, int roomsY, int roomsX, double extraDoor) {
    auto split = [&rng](int total, int parts) {
        // total interior cells over `parts` rooms, each >= 2, sizes drawn around the mean.
        std::vector<int> s(size_t(parts), 2);
        int left = total - 2 * parts;
        if (left < 0)
            throw std::invalid_argument("random rooms: grid too small for the number of rooms");
        std::vector<double> w(static_cast<size_t>(parts), 0.0);
        double sum = 0;
        for (auto& x : w)
            sum += (x = 0.5 + rng.uniform());
        int given = 0;
        for (int k = 0; k < parts; ++k) {
            const int add = int(left * w[size_t(k)] / sum);
            s[size_t(k)] += add;
            given += add;
        }
        for (int k = 0; given < left; k = (k + 1) % parts, ++given)
            ++s[size_t(k)];
        return s;
    };
    const std::vector<int> h = split(rows - 1 - roomsY, roomsY), w = split(cols - 1 - roomsX, roomsX);
    // Random spanning tree of the room grid (randomised depth-first search), plus extra doors.
    const int n = roomsY * roomsX;
    std::vector<int> open(size_t(n) * 2, 0); // [room*2 + dir]
    std::vector<int> seen(size_t(n), 0), stack{int(rng.uniformInt(uint64_t(n)))};
    seen[size_t(stack[0])] = 1;
    while (!stack.empty()) {
        const int u = stack.back(), y = u / roomsX, x = u % roomsX;
        std::vector<std::pair<int, int>> nb; // (neighbour, wall slot)
        if (x + 1 < roomsX && !seen[size_t(u + 1)])
            nb.push_back({u + 1, u * 2});
        if (x > 0 && !seen[size_t(u - 1)])
            nb.push_back({u - 1, (u - 1) * 2});
        if (y + 1 < roomsY && !seen[size_t(u + roomsX)])
            nb.push_back({u + roomsX, u * 2 + 1});
        if (y > 0 && !seen[size_t(u - roomsX)])
            nb.push_back({u - roomsX, (u - roomsX) * 2 + 1});
        if (nb.empty()) {
            stack.pop_back();
            continue;
        }
        const auto [v, slot] = nb[size_t(rng.uniformInt(nb.size()))];
        open[size_t(slot)] = 1;
        seen[size_t(v)] = 1;
        stack.push_back(v);
    }
    for (auto& o : open)
        if (!o && rng.uniform() < extraDoor)
            o = 2;
    std::vector<int> pos(size_t(n) * 2);
    for (int u = 0; u < n; ++u)
        for (int d = 0; d < 2; ++d)
            pos[size_t(u * 2 + d)] =
                int(rng.uniformInt(uint64_t(d == 0 ? h[size_t(u / roomsX)] : w[size_t(u % roomsX)])));
    Maze m = roomGrid(
        "random rooms", h, w,
        [&](int i, int j, int dir) { return open[size_t((i * roomsX + j) * 2 + dir)] != 0; },
        [&](int i, int j, int dir, int) { return pos[size_t((i * roomsX + j) * 2 + dir)]; });
    return m;
}

std::string toText(const Maze& m) {
    std::string s;
    for (int r = 0; r < m.rows; ++r) {
        for (int c = 0; c < m.cols; ++c) {
            const int idx = m.index(r, c);
            s += idx == m.start ? 'S' : idx == m.goal ? 'G' : m.wall[size_t(idx)] ? '#' : '.';
        }
        s += '\n';
    }
    return s;
}

} // namespace pl::keypoints
