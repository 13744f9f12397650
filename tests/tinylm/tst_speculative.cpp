// engines/tinylm speculative sampling: the law of the first tokens of speculative decoding equals
// the target's exact law (enumerated) by a chi-square test over seeds, while sampling from the
// draft alone fails the same test (the test can fail); greedy speculative decoding equals greedy
// autoregressive decoding token for token; the chi-square tail against scipy; the reasoning traces
// of specexit-decoding (structure, sums, the geometric overthinking tail).
#include "tinylm/ReasoningTraces.h"
#include "tinylm/SpeculativeSampling.h"

#include <QFile>
#include <QProcess>
#include <QtTest>

#include <cmath>
#include <map>

using namespace pl;
using namespace pl::tinylm;

namespace {

/// A bigram table: row = last token, entries = next-token probabilities.
Eigen::MatrixXd table(int V, uint64_t seed, double sharp) {
    Rng rng(seed);
    Eigen::MatrixXd t(V, V);
    for (int i = 0; i < V; ++i) {
        for (int j = 0; j < V; ++j)
            t(i, j) = std::exp(sharp * rng.normal());
        t.row(i) /= t.row(i).sum();
    }
    return t;
}

NextDist bigram(const Eigen::MatrixXd& t) {
    return [t](const std::vector<int>& prefix) { return Eigen::VectorXd(t.row(prefix.back()).transpose()); };
}

/// Chi-square p-value of the first k tokens of \a runs samples against the exact bigram law.
double lawPValue(const Eigen::MatrixXd& P, const std::function<std::vector<int>(Rng&)>& sample, int k,
                 int runs, uint64_t seed) {
    const int V = int(P.rows());
    std::map<std::vector<int>, int> count;
    Rng rng(seed);
    for (int r = 0; r < runs; ++r) {
        std::vector<int> s = sample(rng);
        s.resize(size_t(k));
        ++count[s];
    }
    double chi2 = 0;
    int cells = 1;
    for (int i = 0; i < k; ++i)
        cells *= V;
    for (int c = 0; c < cells; ++c) {
        std::vector<int> seq(static_cast<size_t>(k));
        double e = runs;
        int last = 0, code = c;
        for (int i = 0; i < k; ++i) {
            seq[size_t(i)] = code % V;
            code /= V;
            e *= P(last, seq[size_t(i)]);
            last = seq[size_t(i)];
        }
        const double o = count.count(seq) ? count[seq] : 0;
        chi2 += (o - e) * (o - e) / e;
    }
    return chiSquareTail(chi2, cells - 1);
}

} // namespace

class TestSpeculative : public QObject {
    Q_OBJECT
private slots:
    void chiSquareTailMatchesScipy() {
        if (!QFile::exists("/usr/bin/python3"))
            QSKIP("/usr/bin/python3 not available");
        const std::vector<std::pair<double, double>> cases = {{0.5, 1}, {3.84, 1},  {3, 2},   {11.07, 5},
                                                              {50, 30}, {200, 150}, {70, 63}, {0.01, 10}};
        QString args;
        for (const auto& [x, k] : cases)
            args += QString("%1,%2;").arg(x, 0, 'g', 17).arg(k, 0, 'g', 17);
        QProcess py;
        py.start("/usr/bin/python3",
                 {"-c",
                  "import sys\nfrom scipy.stats import chi2\nfor c in sys.argv[1].strip(';').split(';'):\n"
                  "    x,k=map(float,c.split(','))\n    print(repr(chi2.sf(x,k)))",
                  args});
        QVERIFY(py.waitForFinished(60000));
        if (py.exitCode() != 0)
            QSKIP("scipy not available");
        const QStringList out = QString::fromUtf8(py.readAllStandardOutput()).split('\n', Qt::SkipEmptyParts);
        QCOMPARE(out.size(), int(cases.size()));
        for (size_t i = 0; i < cases.size(); ++i) {
            const double want = out[int(i)].toDouble(), got = chiSquareTail(cases[i].first, cases[i].second);
            QVERIFY2(std::abs(got - want) <= 1e-10 * std::max(1.0, want) + 1e-14,
                     qPrintable(QString("%1 vs %2").arg(got).arg(want)));
        }
    }

    void speculativeLawEqualsTarget() {
        const int V = 4, k = 3, runs = 20000;
        const Eigen::MatrixXd P = table(V, 11, 1.0), Q = table(V, 12, 1.0);
        const NextDist target = bigram(P), draft = bigram(Q);
        for (uint64_t seed : {1u, 2u, 3u})
            for (int gamma : {1, 2, 4}) {
                const double pv = lawPValue(
                    P, [&](Rng& rng) { return decodeSpeculative(target, draft, {0}, k, gamma, rng).tokens; },
                    k, runs, seed);
                qInfo("seed %llu gamma %d: chi-square p = %.4f", (unsigned long long)seed, gamma, pv);
                QVERIFY(pv > 0.01);
            }
        // Control: the draft's own law is detected as different.
        const double bad = lawPValue(
            P, [&](Rng& rng) { return decodeAutoregressive(draft, {0}, k, rng); }, k, runs, 1);
        QVERIFY2(bad < 1e-6, qPrintable(QString::number(bad)));
        // And the target's own samples pass.
        QVERIFY(lawPValue(
                    P, [&](Rng& rng) { return decodeAutoregressive(target, {0}, k, rng); }, k, runs, 4) >
                0.01);
    }

    void greedySpeculativeEqualsGreedyAutoregressive() {
        const int V = 6;
        for (uint64_t seed : {1u, 2u, 3u}) {
            const Eigen::MatrixXd Lp = table(V, 20 + seed, 2.0), Lq = table(V, 30 + seed, 2.0);
            const NextDist target = [&](const std::vector<int>& s) {
                return tempered(Eigen::VectorXd(Lp.row(s.back()).transpose()).array().log().matrix(), 0.0);
            };
            const NextDist draft = [&](const std::vector<int>& s) {
                return tempered(Eigen::VectorXd(Lq.row(s.back()).transpose()).array().log().matrix(), 0.0);
            };
            Rng a(seed), b(seed);
            const SpecDecodeStats sd = decodeSpeculative(target, draft, {1}, 40, 3, a);
            QCOMPARE(sd.tokens, decodeAutoregressive(target, {1}, 40, b));
            QVERIFY(sd.targetCalls <= 40);
        }
    }

    void reasoningTraces() {
        namespace T = pl::tinylm::traces;
        const auto tr = T::makeTraces(4000, 5, 0.8, 0.0, Rng(3));
        double loops = 0;
        for (const auto& t : tr) {
            QCOMPARE(t.tokens.front(), T::kQ);
            QCOMPARE(t.promptLength, 7);
            int sum = 0;
            for (int i = 1; i <= 5; ++i)
                sum = (sum + t.tokens[size_t(i)]) % 100;
            QCOMPARE(t.answer, sum);
            QCOMPARE(t.tokens[size_t(t.determinedAt) - 1], sum); // `S s_n ;`
            QCOMPARE(T::answerOf(t.tokens), sum);
            QCOMPARE(t.tokens[size_t(t.answerMarker)], T::kA);
            QCOMPARE(t.tokens.back(), T::kEos);
            QCOMPARE(int(t.tokens.size()), 7 + 15 + 4 * t.loops + 3);
            QCOMPARE(int(t.boundaries.size()), 5 + t.loops);
            loops += t.loops;
        }
        // E[m] = p / (1 - p) = 4 for p_over = 0.8 (sd of the mean ~ 0.07).
        QVERIFY2(std::abs(loops / 4000 - 4.0) < 0.3, qPrintable(QString::number(loops / 4000)));
        const auto bad = T::makeTraces(200, 5, 0.5, 0.5, Rng(4));
        int wrong = 0;
        for (const auto& t : bad)
            wrong += t.corrupted && T::answerOf(t.tokens) != t.answer;
        QVERIFY(wrong > 50);
        QCOMPARE(T::tokenName(T::kEos), std::string("<eos>"));
    }

    void temperedIsSoftmax() {
        Eigen::VectorXd l(3);
        l << 1.0, 2.0, 0.5;
        const Eigen::VectorXd p = tempered(l, 0.5);
        QVERIFY(std::abs(p.sum() - 1) < 1e-15);
        QVERIFY(std::abs(p[1] / p[0] - std::exp(2.0)) < 1e-12);
        QCOMPARE(tempered(l, 0)[1], 1.0);
    }
};

QTEST_GUILESS_MAIN(TestSpeculative)
#include "tst_speculative.moc"
