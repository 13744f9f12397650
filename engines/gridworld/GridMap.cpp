#include "gridworld/GridMap.h"

#include "core/Errors.h"

#include <deque>
#include <fstream>
#include <sstream>

namespace pl::gridworld {

std::string GridMap::toText() const {
    std::string out;
    for (int r = 0; r < rows; ++r) {
        for (int c = 0; c < cols; ++c)
            out += r * cols + c == start ? '@' : at(r, c);
        out += '\n';
    }
    return out;
}

bool isMapChar(char c) {
    return c == '.' || c == 'T' || c == 'S' || c == 'C' || c == 'I' || c == 'D' || c == '~' || c == '@';
}

GridMap parseMap(const std::string& text, const std::string& file) {
    std::vector<std::string> lines;
    std::istringstream in(text);
    std::string line;
    while (std::getline(in, line)) {
        if (!line.empty() && line.back() == '\r')
            line.pop_back();
        lines.push_back(line);
    }
    while (!lines.empty() && lines.back().empty())
        lines.pop_back();
    if (lines.empty())
        throw InputError(file, "empty map: expected rows of .TSCID~@", 1);
    GridMap m;
    m.name = file;
    m.rows = int(lines.size());
    m.cols = int(lines[0].size());
    if (m.rows > 256 || m.cols > 256)
        throw InputError(file, "map larger than 256 x 256", 1);
    int starts = 0;
    for (int r = 0; r < m.rows; ++r) {
        const std::string& l = lines[size_t(r)];
        if (int(l.size()) != m.cols)
            throw InputError(file,
                             "ragged map: line has " + std::to_string(l.size()) + " characters, line 1 has " +
                                 std::to_string(m.cols),
                             r + 1);
        for (int c = 0; c < m.cols; ++c) {
            const char ch = l[size_t(c)];
            if (!isMapChar(ch))
                throw InputError(file, std::string("unknown tile '") + ch + "' (expected one of .TSCID~@)",
                                 r + 1, c + 1);
            if (ch == '@') {
                if (++starts > 1)
                    throw InputError(file, "a second start '@' (exactly one is allowed)", r + 1, c + 1);
                m.start = r * m.cols + c;
                m.cells.push_back('.');
            } else {
                m.cells.push_back(ch);
            }
        }
    }
    if (starts == 0)
        throw InputError(file, "no start '@' (exactly one is required)", m.rows);
    return m;
}

GridMap readMapFile(const std::string& path) {
    std::ifstream f(path, std::ios::binary);
    if (!f)
        throw InputError(path, "cannot open the map file");
    std::ostringstream s;
    s << f.rdbuf();
    const std::string text = s.str();
    if (text.size() > 1000000)
        throw InputError(path, "map file larger than 1 MB");
    return parseMap(text, path);
}

std::vector<int> bfsDistances(const GridMap& m, int from) {
    std::vector<int> dist(m.cells.size(), -1);
    if (!m.walkable(from / m.cols, from % m.cols))
        return dist;
    std::deque<int> q{from};
    dist[size_t(from)] = 0;
    while (!q.empty()) {
        const int v = q.front();
        q.pop_front();
        const int r = v / m.cols, c = v % m.cols;
        for (int k = 0; k < 4; ++k) {
            const int rr = r + kDRow[size_t(k)], cc = c + kDCol[size_t(k)];
            if (!m.walkable(rr, cc) || dist[size_t(rr * m.cols + cc)] >= 0)
                continue;
            dist[size_t(rr * m.cols + cc)] = dist[size_t(v)] + 1;
            q.push_back(rr * m.cols + cc);
        }
    }
    return dist;
}

namespace {

bool touches(const GridMap& m, int v, char tile) {
    const int r = v / m.cols, c = v % m.cols;
    for (int k = 0; k < 4; ++k) {
        const int rr = r + kDRow[size_t(k)], cc = c + kDCol[size_t(k)];
        if (m.inside(rr, cc) && m.at(rr, cc) == tile)
            return true;
    }
    return false;
}

} // namespace

bool tileReachable(const GridMap& m, const std::vector<int>& distFromStart, char tile) {
    for (size_t v = 0; v < m.cells.size(); ++v)
        if (distFromStart[v] >= 0 && touches(m, int(v), tile))
            return true;
    return false;
}

int firstMoveToTile(const GridMap& m, int from, char tile, int* steps) {
    if (steps)
        *steps = -1;
    if (touches(m, from, tile)) {
        if (steps)
            *steps = 0;
        return 4;
    }
    std::vector<int> parentMove(m.cells.size(), -1), parent(m.cells.size(), -1);
    std::vector<char> seen(m.cells.size(), 0);
    std::deque<int> q{from};
    seen[size_t(from)] = 1;
    while (!q.empty()) {
        const int v = q.front();
        q.pop_front();
        const int r = v / m.cols, c = v % m.cols;
        for (int k = 0; k < 4; ++k) {
            const int rr = r + kDRow[size_t(k)], cc = c + kDCol[size_t(k)];
            const int w = rr * m.cols + cc;
            if (!m.walkable(rr, cc) || seen[size_t(w)])
                continue;
            seen[size_t(w)] = 1;
            parent[size_t(w)] = v;
            parentMove[size_t(w)] = k;
            if (touches(m, w, tile)) {
                int length = 1, u = w;
                while (parent[size_t(u)] != from) {
                    u = parent[size_t(u)];
                    ++length;
                }
                if (steps)
                    *steps = length;
                return parentMove[size_t(u)];
            }
            q.push_back(w);
        }
    }
    return -1;
}

namespace {

void placeBlob(GridMap& m, char tile, int cells, Rng& rng) {
    int r = int(rng.uniformInt(uint64_t(m.rows))), c = int(rng.uniformInt(uint64_t(m.cols)));
    for (int i = 0; i < cells; ++i) {
        if (m.inside(r, c))
            m.cells[size_t(r * m.cols + c)] = tile;
        const int k = int(rng.uniformInt(4));
        r += kDRow[size_t(k)];
        c += kDCol[size_t(k)];
    }
}

} // namespace

GridMap generateMap(int size, const std::string& tiles, Rng rng, const std::string& name) {
    for (int attempt = 0;; ++attempt) {
        GridMap m;
        m.rows = m.cols = size;
        m.name = name;
        m.cells.assign(size_t(size * size), '.');
        for (int w = 0; w < std::max(1, size * size / 40); ++w)
            placeBlob(m, '~', 3, rng);
        for (char t : tiles)
            for (int k = 0; k < 2 + size / 12; ++k)
                placeBlob(m, t, 1 + int(rng.uniformInt(3)), rng);
        std::vector<int> grass;
        for (int v = 0; v < size * size; ++v)
            if (m.cells[size_t(v)] == '.')
                grass.push_back(v);
        if (grass.empty())
            continue;
        m.start = grass[size_t(rng.uniformInt(grass.size()))];
        const std::vector<int> dist = bfsDistances(m, m.start);
        bool ok = true;
        for (char t : tiles)
            ok = ok && tileReachable(m, dist, t);
        if (ok || attempt >= 200)
            return m;
    }
}

} // namespace pl::gridworld
