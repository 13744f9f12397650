// bimetric-ann (engines/search): exact k-NN against numpy and scikit-learn; Vamana invariants
// (degree bound, no self loops or duplicates, searchable); the quota accounting of every rule (never
// more than Q expensive calls, each charged call made exactly once); ours equals rerank for
// Q <= 100; the vector readers on good and bad bytes; the run's keys, determinism and cancellation.
#include "common/PythonOracle.h"
#include "core/Errors.h"
#include "core/NpyReader.h"
#include "core/RunContext.h"
#include "search/BimetricAnnEngine.h"
#include "search/BimetricAnnKeys.h"
#include "search/BimetricPair.h"
#include "search/BimetricRun.h"
#include "search/BimetricSearch.h"
#include "search/RankStats.h"
#include "search/VectorFiles.h"

#include <QTemporaryDir>
#include <QtTest>

#include <cstring>
#include <fstream>
#include <set>

using namespace pl;
using namespace pl::search;
namespace K = pl::search::bimetric::keys;

namespace {

ResultDocument runWith(uint64_t seed, const std::map<std::string, std::string>& set = {},
                       const InputList& inputs = {}) {
    bimetric::BimetricAnnEngine e;
    ParamSet p(e.params());
    for (const auto& [k, v] : set)
        p.setText(k, v);
    RunContext ctx(seed);
    return e.run(inputs, p, ctx);
}

PointView view(const VectorSet& v) {
    return PointView{v.data.data(), v.rows, v.dim};
}

BimetricPair smallPair(int64_t n, int64_t queries, uint64_t seed = 5) {
    BimetricPairConfig c;
    c.n = n;
    c.queries = queries;
    return makeBimetricPair(c, Rng(seed));
}

std::string npyOf(const VectorSet& v) {
    std::vector<double> d(v.data.begin(), v.data.end());
    return writeNpy({v.rows, v.dim}, d);
}

std::string fvecsOf(const std::vector<std::vector<float>>& rows) {
    std::string s;
    for (const auto& r : rows) {
        const int32_t d = int32_t(r.size());
        s.append(reinterpret_cast<const char*>(&d), 4);
        s.append(reinterpret_cast<const char*>(r.data()), 4 * r.size());
    }
    return s;
}

void writeFile(const QString& path, const std::string& bytes) {
    std::ofstream f(path.toStdString(), std::ios::binary);
    f << bytes;
}

} // namespace

class TestBimetric : public QObject {
    Q_OBJECT
private slots:
    void bruteForceAgainstNumpyAndSklearn() {
        if (!test::havePython("numpy, sklearn"))
            QSKIP("numpy/sklearn not available");
        const BimetricPair p = smallPair(800, 25);
        QTemporaryDir dir;
        writeFile(dir.filePath("b.npy"), npyOf(p.baseExpensive));
        writeFile(dir.filePath("q.npy"), npyOf(p.queryExpensive));
        const auto ours = bruteForceKnn(view(p.baseExpensive), view(p.queryExpensive), 10);
        // numpy: squared distances in float64 of the float32 values, stable argsort (ties by index);
        // sklearn: NearestNeighbors(brute, euclidean).
        const QStringList out = test::pythonLines(
            "import sys, numpy as np\n"
            "from sklearn.neighbors import NearestNeighbors\n"
            "b = np.load(sys.argv[1]); q = np.load(sys.argv[2])\n"
            "d = ((q[:, None, :] - b[None, :, :]) ** 2).sum(-1)\n"
            "o = np.argsort(d, axis=1, kind='stable')[:, :10]\n"
            "nn = NearestNeighbors(n_neighbors=10, algorithm='brute').fit(b).kneighbors(q)[1]\n"
            "for i in range(len(q)):\n"
            "    print(' '.join(map(str, o[i])) + '|' + ' '.join(map(str, nn[i])) + '|' + repr(float(d[i, "
            "o[i, 9]])))\n",
            {dir.filePath("b.npy"), dir.filePath("q.npy")});
        QCOMPARE(out.size(), 25);
        int exact = 0;
        for (int q = 0; q < 25; ++q) {
            const QStringList parts = out[q].split('|');
            std::vector<int64_t> mine, np, sk;
            for (const Scored& s : ours[size_t(q)])
                mine.push_back(s.id);
            for (const QString& t : parts[0].split(' '))
                np.push_back(t.toLongLong());
            for (const QString& t : parts[1].split(' '))
                sk.push_back(t.toLongLong());
            // float32 sums against float64: equal lists except for near ties at the k-th distance
            exact += mine == np;
            QVERIFY2(recallAtK(mine, np, 10) >= 0.9, qPrintable(out[q]));
            QVERIFY2(recallAtK(mine, sk, 10) >= 0.9, qPrintable(out[q]));
            QVERIFY(std::fabs(double(ours[size_t(q)][9].dist) - parts[2].toDouble()) <=
                    1e-4 * parts[2].toDouble());
        }
        QVERIFY(exact >= 24);
    }

    void vamanaInvariants() {
        const BimetricPair p = smallPair(1500, 30);
        VamanaParams vp;
        vp.degree = 12;
        vp.lBuild = 40;
        const VamanaGraph g = VamanaGraph::build(view(p.baseProxy), vp, Rng(2));
        QCOMPARE(g.size(), int64_t(1500));
        for (int64_t i = 0; i < g.size(); ++i) {
            const auto& l = g.neighbors(i);
            QVERIFY(int(l.size()) <= int(vp.degree * vp.slack));
            QVERIFY(std::find(l.begin(), l.end(), int32_t(i)) == l.end());
            QCOMPARE(std::set<int32_t>(l.begin(), l.end()).size(), l.size());
        }
        // beam search with L = 60 finds the proxy's own nearest neighbours
        const auto truth = bruteForceKnn(view(p.baseProxy), view(p.queryProxy), 10);
        VisitMarks marks;
        BeamResult r;
        double rec = 0;
        for (int64_t q = 0; q < 30; ++q) {
            beamSearch(
                g, {g.medoid()}, 60,
                [&](int32_t id) {
                    return squaredL2(p.queryProxy.row(q), p.baseProxy.row(id), p.baseProxy.dim);
                },
                marks, r);
            QVERIFY(std::is_sorted(r.list.begin(), r.list.end(), closer));
            std::vector<int64_t> a, b;
            for (size_t j = 0; j < 10; ++j) {
                a.push_back(r.list[j].id);
                b.push_back(truth[size_t(q)][j].id);
            }
            rec += recallAtK(a, b, 10) / 30;
        }
        QVERIFY2(rec >= 0.95, qPrintable(QString::number(rec)));
        // same inputs, same graph
        const VamanaGraph h = VamanaGraph::build(view(p.baseProxy), vp, Rng(2));
        for (int64_t i = 0; i < g.size(); ++i)
            QCOMPARE(h.neighbors(i), g.neighbors(i));
    }

    void quotaAccounting() {
        const BimetricPair p = smallPair(1200, 12);
        VamanaParams vp;
        vp.degree = 16;
        vp.lBuild = 40;
        const VamanaGraph gp = VamanaGraph::build(view(p.baseProxy), vp, Rng(3));
        const VamanaGraph ge = VamanaGraph::build(view(p.baseExpensive), vp, Rng(4));
        const BimetricData data{view(p.baseExpensive), view(p.baseProxy), view(p.queryExpensive),
                                view(p.queryProxy)};
        BimetricSearcher s(data, gp, &ge, 10, 50);
        for (int64_t Q : {1, 7, 10, 37, 99, 100, 101, 150, 640, 1199, 1200, 5000})
            for (int64_t q = 0; q < 12; ++q) {
                const BeamResult st = s.proxyStage(q, Q);
                const int64_t L = std::min<int64_t>(std::max<int64_t>(50, Q), 1200);
                QVERIFY(int64_t(st.list.size()) <= L);
                if (Q <= 640) // far from the whole base: the list fills up
                    QCOMPARE(int64_t(st.list.size()), L);
                const MethodResult o = s.ours(q, st, Q), r = s.rerank(q, st, Q), g = s.single(q, Q);
                for (const MethodResult* m : {&o, &r, &g}) {
                    QVERIFY(m->expensiveCalls <= Q);
                    QCOMPARE(int64_t(m->top.size()), std::min<int64_t>(10, m->expensiveCalls));
                    QVERIFY(std::is_sorted(m->top.begin(), m->top.end(), closer));
                }
                QCOMPARE(r.expensiveCalls, std::min<int64_t>(Q, int64_t(st.list.size())));
                if (Q <= 640) { // the walks spend the whole quota
                    QCOMPARE(o.expensiveCalls, Q);
                    QCOMPARE(g.expensiveCalls, Q);
                }
            }
        // the counted calls are exactly the distance evaluations made, each node once
        CountedOracle oracle(333);
        VisitMarks marks;
        std::vector<Scored> evaluated;
        int64_t made = 0;
        std::set<int32_t> seen;
        bool twice = false;
        quotaSearch(
            gp, {gp.medoid(), 5, 5, 9},
            [&](int32_t id) {
                ++made;
                twice |= !seen.insert(id).second;
                return squaredL2(p.queryExpensive.row(0), p.baseExpensive.row(id), p.baseExpensive.dim);
            },
            oracle, marks, evaluated);
        QCOMPARE(made, int64_t(333));
        QCOMPARE(oracle.calls(), made);
        QCOMPARE(int64_t(evaluated.size()), made);
        QVERIFY(!twice);
    }

    void oursEqualsRerankUpTo100() {
        const BimetricPair p = smallPair(2000, 20);
        VamanaParams vp;
        const VamanaGraph gp = VamanaGraph::build(view(p.baseProxy), vp, Rng(6));
        const BimetricData data{view(p.baseExpensive), view(p.baseProxy), view(p.queryExpensive),
                                view(p.queryProxy)};
        BimetricSearcher s(data, gp, nullptr, 10, 200);
        QCOMPARE(BimetricSearcher::startCount(100, 500), int64_t(100));
        QCOMPARE(BimetricSearcher::startCount(1500, 5000), int64_t(750));
        QCOMPARE(BimetricSearcher::startCount(1500, 300), int64_t(300));
        for (int64_t Q : {10, 50, 100})
            for (int64_t q = 0; q < 20; ++q) {
                const BeamResult st = s.proxyStage(q, Q);
                const MethodResult a = s.ours(q, st, Q), b = s.rerank(q, st, Q);
                QCOMPARE(a.top.size(), b.top.size());
                for (size_t j = 0; j < a.top.size(); ++j)
                    QCOMPARE(a.top[j].id, b.top[j].id);
            }
        QVERIFY_THROWS_EXCEPTION(std::logic_error, s.single(0, 10));
    }

    void readers() {
        const std::vector<std::vector<float>> rows = {{1, 2, 3}, {4, 5, 6}};
        const VectorSet f = parseFvecs(fvecsOf(rows), "a.fvecs");
        QCOMPARE(f.rows, int64_t(2));
        QCOMPARE(f.dim, int64_t(3));
        QCOMPARE(f.row(1)[2], 6.0f);
        const VectorSet n = parseNpyVectors(writeNpy({2, 3}, {1, 2, 3, 4, 5, 6}), "a.npy");
        QCOMPARE(n.data, f.data);
        auto fails = [](auto fn, const char* what, int64_t line = -1) {
            try {
                fn();
            } catch (const InputError& e) {
                QVERIFY2(std::string(e.what()).find(what) != std::string::npos, e.what());
                if (line >= 0)
                    QCOMPARE(e.line(), line);
                return;
            }
            QFAIL(what);
        };
        fails([&] { parseFvecs(fvecsOf({{1, 2}, {std::nanf(""), 1}}), "x.fvecs"); }, "row 2", 2);
        fails([&] { parseFvecs(fvecsOf({{1, 2}, {1, 2, 3}}), "x.fvecs"); }, "whole number of rows");
        fails([&] { parseFvecs(fvecsOf({{1, 2}, {3, 4}}).substr(0, 14), "x.fvecs"); }, "whole number");
        fails(
            [&] {
                parseFvecs(fvecsOf({{1, 2, 3}, {1, 2, 3}}).replace(16, 4, std::string("\x02\0\0\0", 4)), "x");
            },
            "row 2 declares dimension 2", 2);
        std::string huge(8, '\0');
        const int32_t big = 100000;
        std::memcpy(huge.data(), &big, 4);
        fails([&] { parseFvecs(huge, "x.fvecs"); }, "over the cap");
        fails([&] { parseFvecs("", "x.fvecs"); }, "empty");
        fails([&] { parseNpyVectors(writeNpy({1, 2, 2}, {1, 2, 3, 4}), "x.npy"); }, "2-D");
        fails([&] { parseNpyVectors(writeNpy({2, 2}, {1, 2, 3, 1e300}), "x.npy"); }, "row 2", 2);
        fails([&] { parseNpyVectors(writeNpy({0, 2}, {}), "x.npy"); }, "no vectors");
        QVERIFY_THROWS_EXCEPTION(InputError, readVectorFile("/nonexistent/file.txt"));
    }

    void fourFileChecks() {
        auto in = [](int64_t rows, int64_t dim, const char* name) {
            auto v = std::make_shared<VectorInput>();
            v->vectors.rows = rows;
            v->vectors.dim = dim;
            v->vectors.data.assign(size_t(rows * dim), 0.5f);
            v->path = name;
            return v;
        };
        const auto be = in(50, 8, "be"), bp = in(50, 3, "bp"), qe = in(5, 8, "qe"), qp = in(5, 3, "qp");
        checkBimetricFiles({be.get(), bp.get(), qe.get(), qp.get()});
        const auto bpShort = in(49, 3, "bpShort"), qeWide = in(5, 9, "qeWide"), qpShort = in(4, 3, "qpShort");
        auto named = [](auto fn, const char* file) {
            try {
                fn();
            } catch (const InputError& e) {
                QCOMPARE(e.file(), std::string(file));
                return;
            }
            QFAIL(file);
        };
        named([&] { checkBimetricFiles({be.get(), bpShort.get(), qe.get(), qp.get()}); }, "bpShort");
        named([&] { checkBimetricFiles({be.get(), bp.get(), qeWide.get(), qp.get()}); }, "qeWide");
        named([&] { checkBimetricFiles({be.get(), bp.get(), qe.get(), qpShort.get()}); }, "qpShort");
        named([&] { checkBimetricFiles({be.get(), bp.get(), qe.get(), qp.get()}, 100); }, "be");
        QVERIFY_THROWS_EXCEPTION(UsageError, checkBimetricFiles({be.get(), bp.get()}));
        // through the engine: three files are a usage error, a mismatch an input error
        QVERIFY_THROWS_EXCEPTION(UsageError, runWith(1, {}, {be, bp, qe}));
        QVERIFY_THROWS_EXCEPTION(InputError, runWith(1, {}, {be, bpShort, qe, qp}));
    }

    void runKeysAndDeterminism() {
        const std::map<std::string, std::string> small = {{"n", "600"}, {"queries", "12"}, {"quota", "200"}};
        const ResultDocument a = runWith(3, small), b = runWith(3, small), c = runWith(4, small);
        QCOMPARE(a.toJson(), b.toJson());
        QVERIFY(a.toJson() != c.toJson());
        for (const char* m : K::kMethods) {
            const Matrix& nb = a.matrices.at(std::string("neighbors_") + m);
            QCOMPARE(nb.rows, int64_t(12));
            QCOMPARE(nb.cols, int64_t(10));
            for (double v : nb.data)
                QVERIFY(v >= 0 && v < 600);
            const auto& calls = a.vectors.at(std::string("expensive_calls_") + m);
            QCOMPARE(calls.size(), size_t(12));
            for (double v : calls)
                QVERIFY(v <= 200);
            QVERIFY(a.metrics.count(std::string("recall_") + m));
            const Series& s = a.series.at(std::string("recall_vs_quota_") + m);
            QCOMPARE(s.x.size(), bimetric::quotaGrid(200, 600).size());
        }
        QVERIFY(a.metrics.at("distortion") > 1);
        QVERIFY(a.graphs.at("explorer").nodes.size() > 20);
        QCOMPARE(a.claims.size(), size_t(3));
        QCOMPARE(bimetric::quotaGrid(250, 600), (std::vector<int64_t>{10, 20, 50, 100, 200, 250, 300, 500}));
        // ours and rerank coincide up to Q = 100 on the sweep
        const Series& o = a.series.at("recall_vs_quota_ours");
        const Series& r = a.series.at("recall_vs_quota_rerank");
        for (size_t i = 0; i < 4; ++i)
            QCOMPARE(o.y[i], r.y[i]);
    }

    void userFilesRun() {
        const BimetricPair p = smallPair(500, 8);
        QTemporaryDir dir;
        writeFile(dir.filePath("1.npy"), npyOf(p.baseExpensive));
        writeFile(dir.filePath("2.npy"), npyOf(p.baseProxy));
        writeFile(dir.filePath("3.npy"), npyOf(p.queryExpensive));
        writeFile(dir.filePath("4.npy"), npyOf(p.queryProxy));
        bimetric::BimetricAnnEngine e;
        InputList in;
        for (const char* f : {"1.npy", "2.npy", "3.npy", "4.npy"})
            in.push_back(e.load(dir.filePath(f).toStdString()));
        const ResultDocument d = runWith(1, {{"quota", "300"}}, in);
        QCOMPARE(d.matrices.at("neighbors_ours").rows, int64_t(8));
        QCOMPARE(d.metrics.at("base_rows"), 500.0);
        QVERIFY(d.metrics.at("recall_ours") > 0.8);
    }

    void cancellation() {
        bimetric::BimetricAnnEngine e;
        ParamSet p(e.params());
        RunContext ctx(1);
        ctx.requestStop();
        QVERIFY_THROWS_EXCEPTION(Cancelled, e.run({}, p, ctx));
    }
};

QTEST_GUILESS_MAIN(TestBimetric)
#include "tst_bimetric.moc"
