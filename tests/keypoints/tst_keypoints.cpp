// The keypoints engine: maze reader errors, Laplacian and Spectra eigenpairs against a dense
// Eigen solver, k-means, hitting times against the path-graph formula, clustering of layouts with
// known rooms, determinism and the claims at fixed seeds.
#include "core/Errors.h"
#include "core/SymmetricEigen.h"
#include "keypoints/GoalReaching.h"
#include "keypoints/KeypointsEngine.h"
#include "keypoints/Maze.h"
#include "keypoints/OfflineDataset.h"
#include "keypoints/SpectralClustering.h"

#include <QtTest>

#include <cmath>

using namespace pl::keypoints;

namespace {

pl::ResultDocument runEngine(uint64_t seed, const std::map<std::string, std::string>& set) {
    KeypointsEngine e;
    pl::ParamSet p(e.params());
    for (const auto& [k, v] : set)
        p.setText(k, v);
    pl::RunContext ctx(seed);
    return e.run({}, p, ctx);
}

const pl::Claim* claim(const pl::ResultDocument& d, const std::string& id) {
    for (const auto& c : d.claims)
        if (c.id == id)
            return &c;
    return nullptr;
}

/// Expects parseMaze to throw InputError at the given line and column.
void expectError(const std::string& text, int64_t line, int64_t column, const char* what) {
    try {
        parseMaze(text, "t.maze");
        QFAIL(qPrintable(QStringLiteral("no error for: ") + QString::fromLatin1(what)));
    } catch (const pl::InputError& e) {
        QCOMPARE(e.file(), std::string("t.maze"));
        QVERIFY2(e.line() == line, qPrintable(QString::fromStdString(e.what())));
        if (column > 0)
            QVERIFY2(e.column() == column, qPrintable(QString::fromStdString(e.what())));
        QVERIFY(std::string(e.what()).find(what) != std::string::npos);
    }
}

} // namespace

class TestKeypoints : public QObject {
    Q_OBJECT
private slots:
    void parserAcceptsGoodFiles() {
        const Maze m = parseMaze("#####\r\n#S.G#\r\n#.#.#\r\n#####\r\n\n", "ok.maze");
        QCOMPARE(m.rows, 4);
        QCOMPARE(m.cols, 5);
        QCOMPARE(m.freeCount(), 5);
        QCOMPARE(m.start, m.index(1, 1));
        QCOMPARE(m.goal, m.index(1, 3));
        QCOMPARE(m.step(m.start, 0), m.start); // wall above
        QCOMPARE(m.step(m.start, 3), m.index(1, 2));
        const Maze b = parseMaze(toText(fourRooms()), "four.maze");
        QCOMPARE(b.wall, fourRooms().wall);
    }
    void parserErrors() {
        expectError("#####\n#...#\n#..#\n", 3, 5, "ragged");
        expectError("#####\n#...##\n", 2, 0, "ragged");
        expectError("#####\n#.x.#\n#####\n", 2, 3, "unknown character 'x'");
        expectError("#####\n#. .#\n", 2, 3, "unknown character");
        expectError("##\t#\n", 1, 3, "unknown character byte 0x09");
        expectError("#####\n#####\n", 1, 1, "no free cell");
        expectError("#S.S#\n", 1, 4, "second 'S'");
        expectError("#G.G#\n", 1, 4, "second 'G'");
        expectError("", 1, 0, "empty maze");
        expectError("\n\n", 1, 0, "empty maze");
        expectError("\n#.#\n", 1, 0, "empty first row");
        QVERIFY_THROWS_EXCEPTION(pl::InputError, readMazeFile("/nonexistent/x.maze"));
    }
    void builtInLayouts() {
        const Maze f = fourRooms();
        QCOMPARE(int(f.doors.size()), 4);
        const Maze n = nineRooms();
        QCOMPARE(int(n.doors.size()), 12);
        for (const Maze* m : {&f, &n}) {
            const auto d = m->bfs(m->start);
            for (int c = 0; c < m->size(); ++c)
                if (m->isFree(c))
                    QVERIFY(d[size_t(c)] >= 0); // connected
        }
        pl::Rng rng(3);
        const Maze r = randomRooms(rng, 40, 50, 4, 5);
        QCOMPARE(r.rows, 40);
        QCOMPARE(r.cols, 50);
        QVERIFY(int(r.doors.size()) >= 4 * 5 - 1); // at least a spanning tree
        const int first = int(std::find(r.wall.begin(), r.wall.end(), 0) - r.wall.begin());
        const auto d = r.bfs(first);
        for (int c = 0; c < r.size(); ++c)
            if (r.isFree(c))
                QVERIFY(d[size_t(c)] >= 0);
    }
    void laplacianAndEigenpairsMatchDense() {
        // A small two-room maze; the dataset graph has > 24 nodes so Spectra is used.
        const Maze m =
            parseMaze("##########\n#....#...#\n#....#...#\n#........#\n#....#...#\n##########\n", "s");
        for (uint64_t seed : {1u, 2u}) {
            pl::Rng rng(seed);
            DatasetOptions o;
            o.trajectories = 40;
            o.length = 80;
            const Dataset data = collectDataset(m, o, rng);
            const StateGraph g = buildStateGraph(m, data);
            const int n = int(g.cells.size());
            QVERIFY(n > 24);
            const Eigen::MatrixXd W = Eigen::MatrixXd(g.W);
            QVERIFY((W - W.transpose()).norm() < 1e-12);
            const Eigen::VectorXd deg = W.rowwise().sum();
            const Eigen::MatrixXd Ld =
                Eigen::MatrixXd::Identity(n, n) -
                deg.cwiseSqrt().cwiseInverse().asDiagonal() * W * deg.cwiseSqrt().cwiseInverse().asDiagonal();
            const SpMat L = normalisedLaplacian(g.W);
            QVERIFY((Eigen::MatrixXd(L) - Ld).norm() < 1e-12);
            const pl::SymmetricEigen es = pl::symmetricEigen(Ld);
            const int nev = 6;
            const EigenPairs ep = smallestEigenpairs(L, nev);
            QVERIFY(ep.iterations > 0); // the Krylov path, not the dense fallback
            for (int i = 0; i < nev; ++i) {
                QVERIFY2(std::abs(ep.values(i) - es.values(i)) < 1e-9,
                         qPrintable(QString::number(ep.values(i)) + " vs " + QString::number(es.values(i))));
                // Residual and agreement with the dense vector for simple eigenvalues.
                QVERIFY((Ld * ep.vectors.col(i) - ep.values(i) * ep.vectors.col(i)).norm() < 1e-7);
                const double gapPrev = i > 0 ? es.values(i) - es.values(i - 1) : 1;
                const double gapNext = es.values(i + 1) - es.values(i);
                if (std::min(gapPrev, gapNext) > 1e-6)
                    QVERIFY(std::abs(std::abs(ep.vectors.col(i).dot(es.vectors.col(i))) - 1) < 1e-6);
            }
            QVERIFY(std::abs(ep.values(0)) < 1e-10); // connected graph: one zero eigenvalue
        }
    }
    void kmeansSeparatesBlobs() {
        Eigen::MatrixXd X(60, 2);
        pl::Rng rng(5);
        for (int i = 0; i < 60; ++i) {
            const int c = i % 3;
            X(i, 0) = 10 * c + 0.1 * rng.normal();
            X(i, 1) = -5 * c + 0.1 * rng.normal();
        }
        pl::Rng r2(1);
        const KMeansResult km = kmeans(X, 3, r2);
        std::vector<int> truth;
        for (int i = 0; i < 60; ++i)
            truth.push_back(i % 3);
        QCOMPARE(adjustedRandIndex(km.labels, truth), 1.0);
        QVERIFY(adjustedRandIndex({0, 0, 1, 1}, {0, 1, 0, 1}) < 0.01);
    }
    void hittingTimesOnAPath() {
        // Random walk on a path 0..m: hitting time of m from 0 is m^2.
        const int m = 12;
        std::vector<Eigen::Triplet<double>> t;
        for (int i = 0; i < m; ++i) {
            t.emplace_back(i, i + 1, 1.0);
            t.emplace_back(i + 1, i, 1.0);
        }
        SpMat W(m + 1, m + 1);
        W.setFromTriplets(t.begin(), t.end());
        const auto h = hittingTimes(W, m);
        QVERIFY(std::abs(h[0] - m * m) < 1e-8);
        QVERIFY(std::abs(h[size_t(m)]) < 1e-12);
        QVERIFY(std::abs(h[size_t(m - 1)] - (m * m - (m - 1) * (m - 1))) < 1e-8);
    }
    void clusteringRecoversKnownRooms() {
        const std::map<std::string, std::string> fast{{"episodes", "10"}, {"hitting_queries", "0"}};
        auto with = [&](std::map<std::string, std::string> s) {
            s.insert(fast.begin(), fast.end());
            return s;
        };
        for (uint64_t seed : {1u, 2u, 3u}) {
            const auto a = runEngine(seed, with({{"layout", "four_rooms"}, {"clusters", "4"}}));
            QVERIFY2(a.metrics.at("room_ari") >= 0.9, qPrintable(QString::number(a.metrics.at("room_ari"))));
            const auto b = runEngine(seed, with({{"layout", "nine_rooms"}, {"clusters", "9"}}));
            QVERIFY2(b.metrics.at("room_ari") >= 0.9, qPrintable(QString::number(b.metrics.at("room_ari"))));
            QVERIFY(claim(b, "keypoints-at-doors") && claim(b, "keypoints-at-doors")->holds);
        }
    }
    void resultKeysAndDeterminism() {
        const std::map<std::string, std::string> s{{"episodes", "20"}, {"hitting_queries", "5"}};
        const auto a = runEngine(11, s), b = runEngine(11, s), c = runEngine(12, s);
        QCOMPARE(a.toJson(), b.toJson());
        QVERIFY(a.toJson() != c.toJson());
        const Maze m = fourRooms();
        QCOMPARE(int(a.labels.at("cluster").size()), m.freeCount());
        const auto& g = a.graphs.at("kp_graph");
        QVERIFY(g.directed && !g.nodes.empty() && !g.edges.empty());
        for (const auto& n : g.nodes)
            QVERIFY(m.isFree(int(n.attrs.at("row")), int(n.attrs.at("col"))));
        for (const auto& e : g.edges)
            QVERIFY(e.weight >= 1 && e.source != e.target);
        for (const char* k : {"success_rate_kp", "success_rate_flat", "success_rate_time_subgoals",
                              "success_rate_value_subgoals"}) {
            QVERIFY2(a.metrics.count(k), k);
            QVERIFY(a.metrics.at(k) >= 0 && a.metrics.at(k) <= 1);
        }
        QCOMPARE(int(a.series.at("spectrum").y.size()), 12);
        for (size_t i = 1; i < a.series.at("spectrum").y.size(); ++i)
            QVERIFY(a.series.at("spectrum").y[i] >= a.series.at("spectrum").y[i - 1] - 1e-12);
    }
    void claimsAtFixedSeeds() {
        // Four rooms with k = 4 at seeds 1..3: keypoints at every door; the keypoint planner beats
        // the flat controller by a wide margin and is at least the best baseline.
        for (uint64_t seed : {1u, 2u, 3u}) {
            const auto d = runEngine(seed, {{"layout", "four_rooms"}, {"clusters", "4"}});
            QVERIFY(claim(d, "keypoints-at-doors")->holds);
            QVERIFY(d.metrics.at("success_rate_kp") >= d.metrics.at("success_rate_flat") + 0.3);
            QVERIFY2(claim(d, "kp-at-least-best-baseline")->holds,
                     claim(d, "kp-at-least-best-baseline")->detail.c_str());
            QVERIFY(claim(d, "kp-advantage-grows-with-distance") != nullptr);
            QVERIFY(claim(d, "bottleneck-shorter-hitting-time") != nullptr);
        }
        // The flat controller degrades with distance (its learned horizon is short).
        const auto d = runEngine(1, {{"layout", "four_rooms"}, {"clusters", "4"}});
        const auto& flat = d.series.at("success_vs_distance_flat").y;
        QVERIFY(flat.back() < flat.front());
    }
    void badParameters() {
        QVERIFY_THROWS_EXCEPTION(
            pl::UsageError, runEngine(1, {{"clusters", "30"}, {"eigenpairs", "12"}, {"episodes", "10"}}));
        QVERIFY_THROWS_EXCEPTION(
            pl::UsageError,
            runEngine(
                1, {{"layout", "random_rooms"}, {"rooms", "10"}, {"maze_rows", "20"}, {"episodes", "10"}}));
    }
    void cancellation() {
        KeypointsEngine e;
        pl::ParamSet p(e.params());
        pl::RunContext ctx(1);
        ctx.requestStop();
        QVERIFY_THROWS_EXCEPTION(pl::Cancelled, e.run({}, p, ctx));
    }
};

QTEST_GUILESS_MAIN(TestKeypoints)
#include "tst_keypoints.moc"
