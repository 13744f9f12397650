// The grid-world engine: the ASCII map reader and its errors, BFS distances against networkx's
// shortest_path_length, the first BFS move, the recipe-book reader and its errors (cycle naming its
// items, unknown item, two recipes, ragged map, not one '@'), prerequisite closures against a brute
// force fixed point over all items, and the expert solving every built-in task.
#include "common/PythonOracle.h"
#include "core/Errors.h"
#include "gridworld/CraftGrid.h"
#include "gridworld/GridMap.h"
#include "gridworld/RecipeBook.h"

#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <fstream>

using namespace pl::gridworld;

namespace {

/// Runs \a f, which must throw pl::InputError; returns it.
template <class F> pl::InputError inputError(F f) {
    try {
        f();
    } catch (const pl::InputError& e) {
        return e;
    }
    QTest::qFail("no InputError thrown", __FILE__, __LINE__);
    return pl::InputError("", "");
}

const char* kBfsOracle = R"(
import sys, networkx as nx
rows = open(sys.argv[1]).read().split()
g = nx.Graph()
start = None
for r, line in enumerate(rows):
    for c, ch in enumerate(line):
        if ch in '.@':
            g.add_node((r, c))
            if ch == '@': start = (r, c)
            for dr, dc in ((0, 1), (1, 0)):
                rr, cc = r + dr, c + dc
                if rr < len(rows) and cc < len(line) and rows[rr][cc] in '.@':
                    g.add_edge((r, c), (rr, cc))
d = nx.single_source_shortest_path_length(g, start)
for (r, c), v in sorted(d.items()):
    print(r * len(rows[0]) + c, v)
)";

/// Closure by brute force: grow the set until no item adds a missing prerequisite.
std::vector<char> bruteClosure(const RecipeBook& b, int item) {
    std::vector<char> in(b.items.size(), 0);
    in[size_t(item)] = 1;
    for (bool grew = true; grew;) {
        grew = false;
        for (size_t i = 0; i < b.items.size(); ++i) {
            if (!in[i])
                continue;
            const Item& it = b.items[i];
            std::vector<int> need{it.tool, it.station};
            for (const auto& [j, q] : it.inputs)
                need.push_back(j);
            for (int j : need)
                if (j >= 0 && !in[size_t(j)]) {
                    in[size_t(j)] = 1;
                    grew = true;
                }
        }
    }
    return in;
}

} // namespace

class TestGridworld : public QObject {
    Q_OBJECT
private slots:
    void mapReader() {
        const GridMap m = parseMap("..T\r\n@S~\n.CI\n\n", "m.txt");
        QCOMPARE(m.rows, 3);
        QCOMPARE(m.cols, 3);
        QCOMPARE(m.start, 3);
        QCOMPARE(m.at(1, 0), '.');
        QCOMPARE(m.toText(), std::string("..T\n@S~\n.CI\n"));
        const auto ragged = inputError([] { parseMap("...\n..\n", "r.txt"); });
        QCOMPARE(ragged.line(), int64_t(2));
        QVERIFY(std::string(ragged.what()).find("ragged") != std::string::npos);
        const auto two = inputError([] { parseMap("@..\n..@\n", "two.txt"); });
        QCOMPARE(two.line(), int64_t(2));
        QCOMPARE(two.column(), int64_t(3));
        QVERIFY(std::string(inputError([] { parseMap("...\n", "none.txt"); }).what()).find("no start") !=
                std::string::npos);
        const auto bad = inputError([] { parseMap("@.\n.x\n", "x.txt"); });
        QCOMPARE(bad.line(), int64_t(2));
        QCOMPARE(bad.column(), int64_t(2));
    }
    void bfsMatchesNetworkx() {
        QTemporaryDir dir;
        for (int k = 0; k < 4; ++k) {
            const GridMap m = generateMap(8 + 5 * k, "TSCID", pl::Rng(11 + k), "g");
            const QString path = dir.filePath(QStringLiteral("m%1.txt").arg(k));
            std::ofstream(path.toStdString()) << m.toText();
            const QStringList lines = pl::test::pythonLines(kBfsOracle, {path});
            QVERIFY2(!lines.isEmpty(), "networkx oracle failed (python3-networkx installed?)");
            const std::vector<int> ours = bfsDistances(m, m.start);
            int reachable = 0;
            for (int d : ours)
                reachable += d >= 0;
            QCOMPARE(lines.size(), reachable);
            for (const QString& l : lines) {
                const QStringList f = l.split(' ');
                QCOMPARE(ours[size_t(f[0].toInt())], f[1].toInt());
            }
        }
    }
    void firstMoveFollowsAShortestPath() {
        const GridMap m = generateMap(14, "TSCID", pl::Rng(5), "g");
        for (char tile : std::string("TSCID")) {
            int steps = -1;
            const int move = firstMoveToTile(m, m.start, tile, &steps);
            QVERIFY(move >= 0);
            // Walking the first moves reaches a cell next to the tile in exactly `steps` moves.
            int cell = m.start, walked = 0;
            for (int mv = move; mv < 4; mv = firstMoveToTile(m, cell, tile)) {
                cell += kDRow[size_t(mv)] * m.cols + kDCol[size_t(mv)];
                QVERIFY(m.walkable(cell / m.cols, cell % m.cols));
                QVERIFY(++walked <= steps);
            }
            QCOMPARE(walked, steps);
        }
    }
    void recipeErrors() {
        auto err = [](const std::string& text) { return inputError([&] { parseRecipes(text, "r.json"); }); };
        const auto cycle = err(R"({"items": [
{"name": "a", "skill": "craft", "inputs": {"b": 1}},
{"name": "b", "skill": "craft", "inputs": {"a": 1}}], "tasks": ["a"]})");
        QVERIFY2(std::string(cycle.what()).find("cycle: a -> b -> a") != std::string::npos, cycle.what());
        QCOMPARE(cycle.line(), int64_t(2));
        const auto unknown = err(R"({"items": [
{"name": "a", "skill": "collect", "tile": "T"},
{"name": "b", "skill": "craft", "inputs": {"zz": 1}}], "tasks": ["b"]})");
        QVERIFY(std::string(unknown.what()).find("unknown item 'zz'") != std::string::npos);
        QCOMPARE(unknown.line(), int64_t(3));
        const auto twice = err(R"({"items": [
{"name": "a", "skill": "collect", "tile": "T"},
{"name": "a", "skill": "collect", "tile": "S"}], "tasks": ["a"]})");
        QVERIFY(std::string(twice.what()).find("two recipes for item 'a'") != std::string::npos);
        QCOMPARE(twice.line(), int64_t(3));
        const auto task = err(R"({"items": [{"name": "a", "skill": "collect", "tile": "T"}],
"tasks": ["a",
  "q"]})");
        QCOMPARE(task.line(), int64_t(3));
        QVERIFY(err("{\"items\": [1, 2").line() >= 1);
    }
    void closuresMatchBruteForce() {
        const RecipeBook b = builtinRecipes();
        for (size_t i = 0; i < b.items.size(); ++i)
            QCOMPARE(b.closure(int(i)), bruteClosure(b, int(i)));
        QCOMPARE(b.subgoals(b.index("log")), 1);
        QCOMPARE(b.subgoals(b.index("table")), 3);
        QCOMPARE(b.subgoals(b.index("wood_pickaxe")), 5);
        QCOMPARE(b.subgoals(b.index("diamond")), 13);
        // A random DAG: item i may use any item j < i.
        pl::Rng rng(3);
        RecipeBook r;
        for (int i = 0; i < 40; ++i) {
            Item it;
            it.name = "x" + std::to_string(i);
            it.skill = i < 4 ? Skill::Collect : Skill::Craft;
            it.tile = 'T';
            for (int j = 0; i >= 4 && j < i; ++j)
                if (rng.uniform() < 0.08)
                    it.inputs.emplace_back(j, 1);
            if (i >= 4 && rng.uniform() < 0.3)
                it.tool = int(rng.uniformInt(uint64_t(i)));
            r.items.push_back(it);
        }
        for (int i = 0; i < 40; ++i)
            QCOMPARE(r.closure(i), bruteClosure(r, i));
    }
    void expertSolvesEveryBuiltinTask() {
        const RecipeBook b = builtinRecipes();
        const Vocabulary v(b);
        for (int k = 0; k < 3; ++k) {
            const GridMap m = generateMap(12, b.collectTiles(), pl::Rng(100 + k), "g");
            for (int task : b.tasks) {
                AgentState s = startState(b, m);
                const std::vector<int> plan = planSkills(b, s.inventory, task);
                QVERIFY(!plan.empty());
                QCOMPARE(plan.back(), task);
                int t = 0;
                for (; t < 1000 && s.inventory[size_t(task)] == 0; ++t)
                    applyAction(b, v, m, s, expertTokens(b, v, m, s, task).l1);
                QVERIFY2(s.inventory[size_t(task)] > 0, b.items[size_t(task)].name.c_str());
            }
        }
    }
};

QTEST_GUILESS_MAIN(TestGridworld)
#include "tst_gridworld.moc"
