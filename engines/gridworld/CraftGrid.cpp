#include "gridworld/CraftGrid.h"

#include <algorithm>

namespace pl::gridworld {

namespace {

std::string tileWord(char t) {
    switch (t) {
    case 'T':
        return "tree";
    case 'S':
        return "stone";
    case 'C':
        return "coal";
    case 'I':
        return "iron";
    default:
        return "diamond";
    }
}

} // namespace

Vocabulary::Vocabulary(const RecipeBook& book) : m_tiles(book.collectTiles()) {
    for (const Item& it : book.items)
        m_names.push_back("GET " + it.name);
    m_l2 = int(m_names.size());
    for (char t : m_tiles)
        m_names.push_back("GOTO " + tileWord(t));
    m_names.push_back("HERE");
    m_l1 = int(m_names.size());
    for (const char* n : {"N", "E", "S", "W", "USE"})
        m_names.push_back(n);
    for (const Item& it : book.items) {
        m_craft.push_back(it.skill == Skill::Collect ? -1 : int(m_names.size()));
        if (it.skill != Skill::Collect)
            m_names.push_back(std::string(it.skill == Skill::Craft ? "CRAFT " : "SMELT ") + it.name);
    }
    m_names.push_back("NOOP");
    m_names.push_back("DONE");
}

int Vocabulary::count(Level l) const {
    switch (l) {
    case Level::L3:
        return m_l2;
    case Level::L2:
        return m_l1 - m_l2;
    case Level::L1:
        return size() - 1 - m_l1;
    default:
        return 1;
    }
}

int Vocabulary::begin(Level l) const {
    return l == Level::L3 ? 0 : l == Level::L2 ? m_l2 : l == Level::L1 ? m_l1 : done();
}

Level Vocabulary::level(int token) const {
    return token < m_l2 ? Level::L3 : token < m_l1 ? Level::L2 : token < done() ? Level::L1 : Level::Marker;
}

int Vocabulary::gotoToken(char tile) const {
    return m_l2 + int(m_tiles.find(tile));
}

AgentState startState(const RecipeBook& book, const GridMap& map) {
    AgentState s;
    s.cell = map.start;
    s.inventory.assign(book.items.size(), 0);
    return s;
}

namespace {

bool holds(const std::vector<int>& inv, int item) {
    return item < 0 || inv[size_t(item)] > 0;
}

bool canMake(const Item& it, const std::vector<int>& inv) {
    if (!holds(inv, it.tool) || !holds(inv, it.station))
        return false;
    for (const auto& [j, q] : it.inputs)
        if (inv[size_t(j)] < q)
            return false;
    return true;
}

void make(const Item& it, int self, std::vector<int>& inv) {
    for (const auto& [j, q] : it.inputs)
        inv[size_t(j)] -= q;
    inv[size_t(self)] += it.yield;
}

} // namespace

bool applyAction(const RecipeBook& book, const Vocabulary& v, const GridMap& map, AgentState& s, int l1) {
    const int r = s.cell / map.cols, c = s.cell % map.cols;
    if (l1 >= v.moveToken(0) && l1 <= v.moveToken(3)) {
        s.facing = l1 - v.moveToken(0);
        const int rr = r + kDRow[size_t(s.facing)], cc = c + kDCol[size_t(s.facing)];
        if (map.walkable(rr, cc))
            s.cell = rr * map.cols + cc;
        return false;
    }
    if (l1 == v.useToken()) {
        const int rr = r + kDRow[size_t(s.facing)], cc = c + kDCol[size_t(s.facing)];
        if (!map.inside(rr, cc))
            return false;
        for (size_t i = 0; i < book.items.size(); ++i) {
            const Item& it = book.items[i];
            if (it.skill == Skill::Collect && it.tile == map.at(rr, cc) && holds(s.inventory, it.tool)) {
                s.inventory[i] += it.yield;
                return true;
            }
        }
        return false;
    }
    for (size_t i = 0; i < book.items.size(); ++i)
        if (v.craftToken(int(i)) == l1) {
            if (!canMake(book.items[i], s.inventory))
                return false;
            make(book.items[i], int(i), s.inventory);
            return true;
        }
    return false;
}

namespace {

/// Appends the skills that raise inv[item] to qty (simulating their effects on inv).
void obtain(const RecipeBook& b, int item, int qty, std::vector<int>& inv, std::vector<int>& out, int depth) {
    const Item& it = b.items[size_t(item)];
    while (inv[size_t(item)] < qty && out.size() < 2000 && depth < 64) {
        bool ready = false;
        while (!ready && out.size() < 2000) {
            ready = true;
            const size_t before = out.size();
            for (int need : {it.tool, it.station})
                if (need >= 0 && inv[size_t(need)] < 1) {
                    obtain(b, need, 1, inv, out, depth + 1);
                    ready = false;
                }
            for (const auto& [j, q] : it.inputs)
                if (inv[size_t(j)] < q) {
                    obtain(b, j, q, inv, out, depth + 1);
                    ready = false;
                }
            if (!ready && out.size() == before)
                return; // no progress (depth limit): give up
        }
        out.push_back(item);
        if (it.skill == Skill::Collect)
            inv[size_t(item)] += it.yield;
        else
            make(it, item, inv);
    }
}

} // namespace

std::vector<int> planSkills(const RecipeBook& book, std::vector<int> inv, int goal) {
    std::vector<int> out;
    obtain(book, goal, 1, inv, out, 0);
    return out;
}

int groundedAction(const RecipeBook& book, const Vocabulary& v, const GridMap& map, const AgentState& s,
                   int item) {
    const Item& it = book.items[size_t(item)];
    if (it.skill != Skill::Collect)
        return v.craftToken(item);
    const int move = firstMoveToTile(map, s.cell, it.tile);
    if (move < 0)
        return v.noopToken();
    if (move < 4)
        return v.moveToken(move);
    const int r = s.cell / map.cols, c = s.cell % map.cols;
    const int fr = r + kDRow[size_t(s.facing)], fc = c + kDCol[size_t(s.facing)];
    if (map.inside(fr, fc) && map.at(fr, fc) == it.tile)
        return v.useToken();
    for (int k = 0; k < 4; ++k) {
        const int rr = r + kDRow[size_t(k)], cc = c + kDCol[size_t(k)];
        if (map.inside(rr, cc) && map.at(rr, cc) == it.tile)
            return v.moveToken(k); // turns only: the tile is not walkable
    }
    return v.noopToken();
}

ChainTokens expertTokens(const RecipeBook& book, const Vocabulary& v, const GridMap& map, const AgentState& s,
                         int goal) {
    const std::vector<int> plan = planSkills(book, s.inventory, goal);
    ChainTokens t;
    if (plan.empty())
        return t;
    const int item = plan.front();
    t.l3 = v.skillToken(item);
    const Item& it = book.items[size_t(item)];
    t.l2 = it.skill == Skill::Collect ? v.gotoToken(it.tile) : v.hereToken();
    t.l1 = groundedAction(book, v, map, s, item);
    return t;
}

int observationSize(const RecipeBook& book, const Vocabulary& v) {
    return 25 * 8 + 4 + int(v.tiles().size()) * 7 + int(book.items.size()) * 3;
}

Eigen::VectorXd observe(const RecipeBook& book, const Vocabulary& v, const GridMap& map, const AgentState& s,
                        int goal) {
    static const std::string kChannels = ".TSCID~";
    Eigen::VectorXd x = Eigen::VectorXd::Zero(observationSize(book, v));
    const int r = s.cell / map.cols, c = s.cell % map.cols;
    int k = 0;
    for (int dr = -2; dr <= 2; ++dr)
        for (int dc = -2; dc <= 2; ++dc, ++k) {
            const size_t ch = map.inside(r + dr, c + dc) ? kChannels.find(map.at(r + dr, c + dc)) : 7;
            x(k * 8 + int(ch)) = 1;
        }
    int o = 200;
    x(o + s.facing) = 1;
    o += 4;
    const int fr = r + kDRow[size_t(s.facing)], fc = c + kDCol[size_t(s.facing)];
    for (char t : v.tiles()) {
        const int move = firstMoveToTile(map, s.cell, t);
        x(o + (move < 0 ? 5 : move)) = 1;
        x(o + 6) = map.inside(fr, fc) && map.at(fr, fc) == t ? 1 : 0;
        o += 7;
    }
    for (size_t i = 0; i < book.items.size(); ++i) {
        x(o) = s.inventory[i] > 0 ? 1 : 0;
        x(o + 1) = std::min(s.inventory[i], 4) / 4.0;
        o += 2;
    }
    x(o + goal) = 1;
    return x;
}

} // namespace pl::gridworld
