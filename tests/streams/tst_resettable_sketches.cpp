// resettable-sketches engine: the exact statistics against a Python dict replay of a written stream;
// the binary tree mechanism's prefix noise (variance 2b²·popcount(t)) and bookkeeping; Laplace
// moments; SipHash-2-4 reference vectors through libsodium; the baseline equals the exact answer when
// nothing overflows; the attack claims over three seeds for k = 4096 and 256; the op reader's errors;
// the robust sketch skipped for unbounded f; determinism and cancellation.
#include "common/PythonOracle.h"
#include "core/Errors.h"
#include "core/Rng.h"
#include "streams/KeyedHash.h"
#include "streams/Laplace.h"
#include "streams/ResettableSketchesEngine.h"
#include "streams/ResettableSketchesKeys.h"
#include "streams/SketchRuns.h"
#include "streams/StreamOps.h"
#include "streams/TreeMechanism.h"

#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <bit>
#include <cmath>
#include <fstream>
#include <sstream>

using namespace pl;
using namespace pl::streams;

namespace {

using pl::test::havePython;
using pl::test::runPython;

ParamSet defaults() {
    sketches::ResettableSketchesEngine e;
    return ParamSet(e.params());
}

ResultDocument runSketches(const ParamSet& ps, uint64_t seed, const InputList& in = {}) {
    sketches::ResettableSketchesEngine e;
    RunContext ctx(seed);
    return e.run(in, ps, ctx);
}

const char* kDictPy = R"PY(
import sys, csv, math, json
path, p, scale = sys.argv[1], float(sys.argv[2]), float(sys.argv[3])
f = {'cardinality': lambda v: 1.0 if v > 0 else 0.0, 'sum': lambda v: v,
     'lp': lambda v: v ** p if v > 0 else 0.0, 'softcap': lambda v: 1 - math.exp(-v / scale)}
vals, checkpoints = {}, []
with open(path) as fh:
    r = csv.reader(fh)
    next(r)
    for i, (t, op, key, delta) in enumerate(r):
        if op == 'reset':
            vals.pop(key, None)
        elif float(delta) > 0:
            vals[key] = vals.get(key, 0.0) + float(delta)
        if (i + 1) % 2500 == 0:
            checkpoints.append({k: sum(g(v) for v in vals.values()) for k, g in f.items()})
print(json.dumps({'final': {k: sum(g(v) for v in vals.values()) for k, g in f.items()}, 'keys': len(vals), 'checkpoints': checkpoints}))
)PY";

} // namespace

class TestResettableSketches : public QObject {
    Q_OBJECT
private slots:
    void statisticsMatchPythonDict() {
        if (!havePython("json"))
            QSKIP("/usr/bin/python3 not available");
        SketchSetup s;
        s.T = 20000;
        s.universe = 3000;
        const std::vector<StreamOp> ops = generatedOps("monitoring", s, Rng(5));
        QTemporaryDir dir;
        const std::string path = dir.filePath("ops.csv").toStdString();
        {
            std::ofstream f(path);
            f << "t,op,key,delta\n";
            for (const StreamOp& op : ops)
                f << op.t << ',' << (op.reset ? "reset" : "inc") << ',' << op.key << ','
                  << (op.reset ? std::string() : std::to_string(int(op.delta))) << '\n';
        }
        const QString out = runPython(kDictPy, {QString::fromStdString(path), "0.5", "4"});
        QVERIFY2(!out.startsWith("ERROR"), qPrintable(out));
        const QJsonObject o = QJsonDocument::fromJson(out.toUtf8()).object();
        const QJsonArray cps = o["checkpoints"].toArray();
        for (const char* name : {"cardinality", "sum", "lp", "softcap"}) {
            StatisticFn fn;
            fn.kind = statisticFromName(name);
            ExactSketch ex(fn);
            // the file is read back through the streamed reader
            std::ifstream in(path);
            OpStreamReader r(in, path);
            StreamOp op;
            int i = 0;
            while (r.next(op)) {
                ex.apply(op);
                if (++i % 2500 == 0) {
                    const double want = cps[i / 2500 - 1].toObject()[name].toDouble();
                    QVERIFY2(std::abs(ex.estimate() - want) <= 1e-9 * std::max(1.0, want), name);
                }
            }
            QCOMPARE(i, int(ops.size()));
            const double want = o["final"].toObject()[name].toDouble();
            QVERIFY2(std::abs(ex.estimate() - want) <= 1e-9 * std::max(1.0, want), name);
            QCOMPARE(int(ex.memory()), o["keys"].toInt());
        }
    }

    void treeNoiseVariance() {
        // 20,000 independent trees of zero increments: the released prefix at t is pure noise with
        // variance 2b²·popcount(t); Laplace has kurtosis 6, so the relative s.e. of a variance estimate
        // is about √(5/(n·popcount)) < 1.6%; we allow 6%.
        const double b = 1.5;
        const int trees = 20000;
        const std::vector<int64_t> ts = {1, 2, 3, 7, 8, 21, 63, 64};
        std::vector<double> sum(ts.size(), 0), sum2(ts.size(), 0);
        Rng root(77);
        for (int k = 0; k < trees; ++k) {
            TreeMechanism tree(7, b, root.fork("tree " + std::to_string(k)));
            size_t next = 0;
            for (int64_t t = 1; t <= 64; ++t) {
                const double r = tree.add(0.0);
                if (next < ts.size() && t == ts[next]) {
                    sum[next] += r;
                    sum2[next] += r * r;
                    ++next;
                }
            }
        }
        for (size_t i = 0; i < ts.size(); ++i) {
            const double mean = sum[i] / trees, var = sum2[i] / trees - mean * mean;
            const double want = 2 * b * b * std::popcount(uint64_t(ts[i]));
            QVERIFY2(std::abs(var / want - 1) < 0.06,
                     qPrintable(QString("t=%1: %2 vs %3").arg(ts[i]).arg(var).arg(want)));
            QVERIFY(std::abs(mean) < 4 * std::sqrt(want / trees));
        }
    }

    void treeBookkeeping() {
        TreeMechanism tree(4, 0.0, Rng(1)); // b = 0: exact counter
        double exact = 0;
        Rng r(3);
        for (int t = 1; t <= 40; ++t) { // past 2^4 − 1: the tree grows a level
            const double x = r.uniform();
            exact += x;
            QVERIFY(std::abs(tree.add(x) - exact) < 1e-12);
        }
        TreeMechanism noisy(5, 2.0, Rng(9));
        for (int t = 1; t <= 13; ++t)
            noisy.add(1.0);
        double noise = 0, nodes = 0;
        for (int i = 0; i < noisy.levels(); ++i)
            if ((13u >> i) & 1u) {
                noise += noisy.nodeNoise(i);
                nodes += noisy.nodeSum(i);
            }
        QVERIFY(std::abs(noisy.released() - (13 + noise)) < 1e-9);
        QCOMPARE(nodes, 13.0); // nodes [1,8], [9,12], [13,13]
        QCOMPARE(ceilLog2(65536), 16);
        QCOMPARE(ceilLog2(65537), 17);
        QCOMPARE(ceilLog2(1), 0);
    }

    void laplaceMoments() {
        Rng r(12);
        const double b = 3;
        const int n = 200000;
        double s = 0, s2 = 0, tail = 0;
        for (int i = 0; i < n; ++i) {
            const double x = laplace(r, b);
            s += x;
            s2 += x * x;
            tail += std::abs(x) > b;
        }
        QVERIFY(std::abs(s / n) < 0.05);
        QVERIFY(std::abs(s2 / n / (2 * b * b) - 1) < 0.03);
        QVERIFY(std::abs(tail / n - std::exp(-1.0)) < 0.005);
    }

    void sipHashReferenceVectors() {
        std::array<unsigned char, 16> key;
        for (int i = 0; i < 16; ++i)
            key[size_t(i)] = static_cast<unsigned char>(i);
        const KeyedHash h(key);
        QCOMPARE(h.bytes(std::string_view()), uint64_t(0x726fdb47dd0e0e31ull));
        const char msg[8] = {0, 1, 2, 3, 4, 5, 6, 7};
        QCOMPARE(h.bytes(std::string_view(msg, 8)), uint64_t(0x93f5f5799a932462ull));
        QCOMPARE(h(uint64_t(0x0706050403020100ull)), uint64_t(0x93f5f5799a932462ull)); // little-endian bytes
        QCOMPARE(keyId("123"), uint64_t(123));
        QVERIFY(keyId("user-7") != keyId("user-8"));
    }

    void baselineExactWithoutOverflow() {
        SketchSetup s;
        s.T = 20000;
        s.universe = 500;
        s.k = 1000; // level 0 never overflows: the baseline answers exactly
        s.f.kind = StatisticKind::Sum;
        const auto ops = generatedOps("unlearning", s, Rng(8));
        Rng hashRng(4);
        BaselineSketch b(s.k, 20, s.f, KeyedHash(hashRng));
        ExactSketch ex(s.f);
        for (const StreamOp& op : ops) {
            b.apply(op);
            ex.apply(op);
            QVERIFY(std::abs(b.estimate() - ex.estimate()) < 1e-6);
        }
        QVERIFY(ex.estimate() > 0);
    }

    void attackClaimsOverSeeds() {
        for (int64_t k : {4096, 256})
            for (uint64_t seed : {1, 2, 3}) {
                ParamSet ps = defaults();
                ps.setText(sketches::keys::param::kK, std::to_string(k));
                const ResultDocument d = runSketches(ps, seed);
                const QString tag = QString("k=%1 seed=%2").arg(k).arg(seed);
                QVERIFY2(d.metrics.at("final_error_baseline") >= 0.9, qPrintable(tag));
                QVERIFY2(d.metrics.at("true_final_baseline") >= 5000, qPrintable(tag));
                QVERIFY2(d.metrics.at("attacker_accuracy_baseline") >= 0.9, qPrintable(tag));
                if (k == 4096) {
                    QVERIFY2(d.metrics.at("final_error_robust") <= 0.2, qPrintable(tag));
                    QVERIFY2(d.metrics.at("prefix_max_error_robust") <= 0.6, qPrintable(tag));
                    QVERIFY2(d.metrics.at("attacker_accuracy_robust") <= 0.6, qPrintable(tag));
                    for (const Claim& c : d.claims)
                        QVERIFY2(c.holds, qPrintable(tag + " " + QString::fromStdString(c.id)));
                }
                // memory O(k log T): at most k per live level plus epochs and tree nodes
                QVERIFY(d.metrics.at("memory_robust") <= double(k) * 17);
                QVERIFY(d.metrics.at("memory_switching") > d.metrics.at("memory_robust"));
                for (const char* s : sketches::keys::kSketches) {
                    const std::string e = sketches::keys::key("estimate_", s);
                    QVERIFY2(d.series.count(e) && d.series.count(sketches::keys::key("true_", s)), s);
                    const Series& est = d.series.at(e);
                    QCOMPARE(est.x.back(), 65536.0);
                    QCOMPARE(est.x.front(), 64.0); // every max(1, ⌊T/1024⌋) operations
                }
            }
    }

    void readerErrors_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<int>("line");
        QTest::addColumn<QString>("reason");
        QTest::newRow("negative") << "t,op,key,delta\n1,inc,a,2\n2,inc,a,-1\n"
                                  << 3 << "only increments and resets";
        QTest::newRow("op") << "1,inc,a,2\n2,dec,a,1\n" << 2 << "unknown op";
        QTest::newRow("time") << "5,inc,a,2\n# c\n\n4,inc,b,1\n" << 4 << "t decreases";
        QTest::newRow("fields") << "1,inc,a\n" << 1 << "expected 4 fields";
        QTest::newRow("resetdelta") << "1,reset,a,3\n" << 1 << "no delta";
        QTest::newRow("nan") << "1,inc,a,nan\n" << 1 << "not a finite";
    }

    void readerErrors() {
        QFETCH(QString, text);
        QFETCH(int, line);
        QFETCH(QString, reason);
        std::istringstream in(text.toStdString());
        OpStreamReader r(in, "bad.csv");
        StreamOp op;
        try {
            while (r.next(op)) {
            }
            QFAIL("no error");
        } catch (const InputError& e) {
            QCOMPARE(int(e.line()), line);
            QVERIFY2(QString::fromStdString(e.reason()).contains(reason), e.what());
        }
    }

    void fileWorkloadAndUnboundedF() {
        QTemporaryDir dir;
        const QString path = dir.filePath("ops.csv");
        {
            std::ofstream f(path.toStdString());
            for (int t = 0; t < 3000; ++t)
                f << t << ',' << (t % 7 == 6 ? "reset," : "inc,") << "k" << (t * 31 % 400) << ','
                  << (t % 7 == 6 ? "" : "2") << '\n';
        }
        sketches::ResettableSketchesEngine e;
        const auto in = e.load(path.toStdString());
        ParamSet ps = defaults();
        ps.setText(sketches::keys::param::kStatistic, "sum");
        ResultDocument d = runSketches(ps, 1, {in});
        QVERIFY(!d.metrics.count("final_error_robust")); // f unbounded: robust skipped
        QCOMPARE(d.metrics.at("operations"), 3000.0);
        QCOMPARE(d.metrics.at("final_error_baseline"), 0.0); // 400 keys < k: exact
        ps.setText(sketches::keys::param::kFCap, "10");
        d = runSketches(ps, 1, {in});
        QVERIFY(d.metrics.count("final_error_robust"));
        QVERIFY(d.graphs.count("tree"));
    }

    void deterministicAndCancellable() {
        ParamSet ps = defaults();
        ps.setText(sketches::keys::param::kT, "8000");
        ps.setText(sketches::keys::param::kK, "512");
        QCOMPARE(runSketches(ps, 3).toJson(), runSketches(ps, 3).toJson());
        QVERIFY(runSketches(ps, 3).toJson() != runSketches(ps, 4).toJson());
        ps.setText(sketches::keys::param::kWorkload, "monitoring");
        QCOMPARE(runSketches(ps, 3).toJson(), runSketches(ps, 3).toJson());
        sketches::ResettableSketchesEngine e;
        RunContext ctx(1);
        ctx.requestStop();
        QVERIFY_THROWS_EXCEPTION(Cancelled, e.run({}, defaults(), ctx));
    }
};

QTEST_GUILESS_MAIN(TestResettableSketches)
#include "tst_resettable_sketches.moc"
