// The shared pieces of engines/search: CountedOracle never passes its cap; quantile, resampleStep
// and summarizeRepeats against numpy (percentile "linear", a step lookup); Kendall tau-b against
// scipy.stats.kendalltau (with ties); recall@k on hand-made lists.
#include "common/PythonOracle.h"
#include "core/Rng.h"
#include "search/AnytimeCurve.h"
#include "search/CountedOracle.h"
#include "search/RankStats.h"

#include <QtTest>

#include <cmath>

using namespace pl;
using namespace pl::search;

namespace {

QString join(const std::vector<double>& v) {
    QStringList s;
    for (double x : v)
        s << QString::number(x, 'g', 17);
    return s.join(',');
}

} // namespace

class TestSearchKit : public QObject {
    Q_OBJECT
private slots:
    void oracleCap() {
        CountedOracle o(5);
        QVERIFY(o.tryCharge(3));
        QCOMPARE(o.grant(10), int64_t(2));
        QVERIFY(!o.tryCharge(3)); // would pass the cap: refused, nothing charged
        QCOMPARE(o.calls(), int64_t(3));
        int made = 0;
        for (int i = 0; i < 10; ++i)
            if (o.call([&] { return ++made; }))
                continue;
        QCOMPARE(made, 2);
        QVERIFY(o.exhausted());
        QCOMPARE(o.remaining(), int64_t(0));
        CountedOracle unlimited;
        QVERIFY(unlimited.tryCharge(1000000));
        QVERIFY(!unlimited.exhausted());
        CountedOracle zero(0);
        QVERIFY(zero.exhausted());
        QVERIFY(!zero.call([] { return 1; }).has_value());
    }

    void quantilesAgainstNumpy() {
        if (!test::havePython("numpy"))
            QSKIP("numpy not available");
        Rng rng(3);
        std::vector<double> v;
        for (int i = 0; i < 37; ++i)
            v.push_back(rng.normal());
        v.push_back(std::nan(""));
        const QStringList out = test::pythonLines(
            "import sys, numpy as np\n"
            "v = np.array([float(x) for x in sys.argv[1].split(',')]); v = v[np.isfinite(v)]\n"
            "for q in (0, 0.1, 0.25, 0.5, 0.75, 0.99, 1): print(repr(float(np.percentile(v, 100 * q))))\n",
            {join(v)});
        QCOMPARE(out.size(), 7);
        const double qs[] = {0, 0.1, 0.25, 0.5, 0.75, 0.99, 1};
        for (int i = 0; i < 7; ++i)
            QVERIFY2(std::fabs(quantile(v, qs[i]) - out[i].toDouble()) < 1e-12, qPrintable(out[i]));
        QVERIFY(std::isnan(quantile({std::nan("")}, 0.5)));
    }

    void anytimeSummary() {
        const std::vector<double> grid = {1, 2, 4, 8};
        const auto a = resampleStep({1, 3, 8}, {5, 3, 1}, grid);
        QCOMPARE(a, (std::vector<double>{5, 5, 3, 1}));
        const auto b = resampleStep({2, 4}, {7, 2}, grid);
        QVERIFY(std::isnan(b[0]));
        QCOMPARE(b[3], 2.0);
        QCOMPARE(runningMin({3, 4, 1, 2}), (std::vector<double>{3, 3, 1, 1}));
        const auto s = summarizeRepeats(grid, {a, b, {4, 4, 4, 4}});
        QCOMPARE(s.count, (std::vector<int>{2, 3, 3, 3}));
        QCOMPARE(s.median[0], 4.5);
        QCOMPARE(s.median[1], 5.0);
        QCOMPARE(s.q25[3], 1.5);
        QCOMPARE(s.q75[3], 3.0);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, summarizeRepeats(grid, {{1, 2}}));
    }

    void kendallAgainstScipy() {
        if (!test::havePython("numpy, scipy"))
            QSKIP("scipy not available");
        Rng rng(11);
        std::vector<double> x, y;
        for (int i = 0; i < 60; ++i) {
            x.push_back(std::floor(rng.uniform(0, 8))); // ties in x
            y.push_back(x.back() + rng.normal() * 3 + (i % 5 == 0 ? 0 : std::floor(rng.uniform(0, 2))));
        }
        y[3] = y[4]; // a tie in y
        const QStringList out = test::pythonLines(
            "import sys, scipy.stats as st\n"
            "x = [float(v) for v in sys.argv[1].split(',')]; y = [float(v) for v in sys.argv[2].split(',')]\n"
            "print(repr(float(st.kendalltau(x, y).statistic if hasattr(st.kendalltau(x, y), 'statistic') "
            "else st.kendalltau(x, y)[0])))\n",
            {join(x), join(y)});
        QCOMPARE(out.size(), 1);
        QVERIFY2(std::fabs(kendallTau(x, y) - out[0].toDouble()) < 1e-12, qPrintable(out[0]));
        QCOMPARE(kendallTau({1, 2, 3}, {3, 2, 1}), -1.0);
        QVERIFY(std::isnan(kendallTau({1, 1, 1}, {1, 2, 3})));
    }

    void recall() {
        QCOMPARE(recallAtK({1, 2, 3}, {3, 2, 9}, 3), 2.0 / 3);
        QCOMPARE(recallAtK({1, 2, 3, 4}, {4, 3, 2, 1}, 2), 0.0); // first k of each only
        QCOMPARE(recallAtK({5}, {5, 6}, 2), 0.5);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, recallAtK({1}, {1}, 0));
    }
};

QTEST_GUILESS_MAIN(TestSearchKit)
#include "tst_search_kit.moc"
