// Tests of the boba-screening side of the bandit engine: fingerprint decoding (hex, 0/1), the
// bit-packed Bayesian posterior against numpy, bit-packed prediction against dense algebra, the
// inferences_full formula, claims at three seeds (logged), determinism, direction = min, k-means
// partitions and bad library files.
#include "bandits/BitRegression.h"
#include "bandits/BobaScreeningEngine.h"
#include "bandits/BobaScreeningKeys.h"
#include "bandits/Fingerprints.h"
#include "bandits/ScreenLibrary.h"
#include "core/Errors.h"
#include "core/Rng.h"

#include <Eigen/Dense>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <fstream>

using namespace pl;
using namespace pl::bandits;
namespace K = pl::bandits::boba::keys;

namespace {

ParamSet smallParams() {
    BobaScreeningEngine e;
    ParamSet ps(e.params());
    ps.setText(K::param::kNA, "40");
    ps.setText(K::param::kNB, "100");
    ps.setText(K::param::kRounds, "6");
    ps.setText(K::param::kBatch, "50");
    ps.setText(K::param::kArmsPerRound, "5");
    return ps;
}

ResultDocument runBoba(const ParamSet& ps, uint64_t seed, const InputList& in = {}) {
    BobaScreeningEngine e;
    RunContext ctx(seed);
    return e.run(in, ps, ctx);
}

void writeText(const QString& path, const std::string& text) {
    std::ofstream(path.toStdString()) << text;
}

} // namespace

class TestBoba : public QObject {
    Q_OBJECT
private slots:
    void decodesHexAndBinary() {
        std::vector<bool> bits;
        QVERIFY(decodeFingerprint("a5", FingerprintText::Hex, bits));
        const std::vector<bool> want{1, 0, 1, 0, 0, 1, 0, 1};
        QVERIFY(bits == want);
        QVERIFY(decodeFingerprint("0xF", FingerprintText::Hex, bits));
        QCOMPARE(bits.size(), size_t(4));
        QVERIFY(decodeFingerprint("10100101", FingerprintText::Binary, bits));
        QVERIFY(bits == want);
        QVERIFY(!decodeFingerprint("10g", FingerprintText::Hex, bits));
        QVERIFY(looksLikeSmiles("CC(=O)Oc1ccccc1"));
        QVERIFY(looksLikeSmiles("CCO"));
        QVERIFY(!looksLikeSmiles("ff00a1"));
        QVERIFY(!looksLikeSmiles("0101"));
        // Same library in hex and 0/1 form: same bits.
        const ScreenLibrary h =
            parseLibraryCsv("id,partition_key,fingerprint,score\na,k,a5,1\nb,k,0f,2\n", "h.csv");
        const ScreenLibrary b =
            parseLibraryCsv("id,partition_key,fingerprint,score\na,k,10100101,1\nb,k,00001111,2\n", "b.csv");
        QCOMPARE(h.fp.bits(), 8);
        QCOMPARE(b.fp.bits(), 8);
        for (int r = 0; r < 2; ++r)
            for (int j = 0; j < 8; ++j)
                QCOMPARE(h.fp.test(r, j), b.fp.test(r, j));
        QCOMPARE(h.fp.popcount(0), 4);
        int idx[8];
        QCOMPARE(h.fp.setBits(1, idx), 4);
        QCOMPARE(idx[0], 4);
    }

    void predictionMatchesDenseAlgebra() {
        Rng rng(21);
        PackedFingerprints fp(300, 130);
        for (int r = 0; r < 300; ++r)
            for (int j = 0; j < 130; ++j)
                if (rng.uniform() < 0.15)
                    fp.set(r, j);
        std::vector<int64_t> rows;
        std::vector<double> y;
        for (int r = 0; r < 120; ++r) {
            rows.push_back(r);
            y.push_back(rng.normal());
        }
        BitRegression m;
        m.fit(fp, rows, y, 0.3, 2.0);
        std::vector<int> scratch(131);
        for (int r = 0; r < 300; r += 7) {
            Eigen::VectorXd phi = Eigen::VectorXd::Zero(131);
            phi[0] = 1;
            for (int j = 0; j < 130; ++j)
                phi[j + 1] = fp.test(r, j) ? 1 : 0;
            double mean, var;
            m.predict(fp, r, scratch.data(), mean, var);
            QVERIFY(std::fabs(mean - phi.dot(m.mean())) < 1e-10);
            QVERIFY(std::fabs(m.predictMean(fp, r) - mean) < 1e-10);
            QVERIFY(std::fabs(var - phi.dot(m.covariance() * phi)) < 1e-10);
        }
    }

    void posteriorMatchesNumpy() {
        if (!QFile::exists(QStringLiteral("/usr/bin/python3")))
            QSKIP("/usr/bin/python3 not found");
        QProcess probe;
        probe.start(QStringLiteral("/usr/bin/python3"), {"-c", "import numpy"});
        if (!probe.waitForFinished(30000) || probe.exitCode() != 0)
            QSKIP("numpy not available to /usr/bin/python3");
        Rng rng(23);
        const int n = 80, B = 24;
        PackedFingerprints fp(n, B);
        std::vector<int64_t> rows;
        std::vector<double> y;
        QString text;
        for (int r = 0; r < n; ++r) {
            QString line;
            for (int j = 0; j < B; ++j) {
                const bool on = rng.uniform() < 0.3;
                if (on)
                    fp.set(r, j);
                line += on ? '1' : '0';
            }
            rows.push_back(r);
            y.push_back(rng.normal() + 0.5 * fp.popcount(r));
            text += line + "," + QString::number(y.back(), 'g', 17) + "\n";
        }
        QTemporaryDir dir;
        const QString f = dir.filePath("phi.csv");
        writeText(f, text.toStdString());
        BitRegression m;
        m.fit(fp, rows, y, 0.5, 1.5);
        const char* script = R"(
import sys, numpy as np
rows = [l.split(',') for l in open(sys.argv[1]).read().split()]
Phi = np.array([[1.0] + [float(c) for c in r[0]] for r in rows]); y = np.array([float(r[1]) for r in rows])
s2, s02 = 0.5 ** 2, 1.5 ** 2
S = np.linalg.inv(Phi.T @ Phi / s2 + np.eye(Phi.shape[1]) / s02)
mu = S @ Phi.T @ y / s2
print(' '.join(repr(float(v)) for v in mu))
print(' '.join(repr(float(v)) for v in np.diag(S)))
)";
        QProcess py;
        py.start(QStringLiteral("/usr/bin/python3"), {"-c", script, f});
        QVERIFY(py.waitForFinished(60000));
        QCOMPARE(py.exitCode(), 0);
        const QStringList lines =
            QString::fromUtf8(py.readAllStandardOutput()).split('\n', Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 2);
        const QStringList mu = lines[0].split(' '), var = lines[1].split(' ');
        QCOMPARE(mu.size(), B + 1);
        for (int j = 0; j <= B; ++j) {
            QVERIFY2(std::fabs(m.mean()[j] - mu[j].toDouble()) < 1e-9, qPrintable(QString::number(j)));
            QVERIFY(std::fabs(m.covariance()(j, j) - var[j].toDouble()) < 1e-9);
        }
    }

    void inferencesFullFormula() {
        const ParamSet ps = smallParams();
        const ResultDocument d = runBoba(ps, 3);
        const double N = 40 * 100, batch = 50;
        double want = 0;
        for (int r = 1; r < 6; ++r)
            want += N - r * batch;
        QCOMPARE(d.metrics.at(K::key(K::metric::kInferencesPrefix, "full")), want);
        QCOMPARE(d.metrics.at(K::key(K::metric::kInferencesPrefix, "random")), 0.0);
        QCOMPARE(d.vectors.at(K::vector::kEvalOrder).size(), size_t(6 * 50));
        QCOMPARE(d.vectors.at(K::vector::kPosteriorMean).size(), size_t(1 + 96));
        QCOMPARE(d.matrices.at(K::matrix::kArmPulls).rows, int64_t(40));
        QCOMPARE(d.matrices.at(K::matrix::kArmPulls).cols, int64_t(5));
        QCOMPARE(d.metrics.at(K::metric::kTopSize), 40.0);
        // BOBA scores at most the rows of its arms: 5 arms x 100 rows a round.
        QVERIFY(d.metrics.at(K::key(K::metric::kInferencesPrefix, "boba")) <= 5 * 5 * 100);
        for (const char* m : K::kMethods) {
            const Series& s = d.series.at(K::key(K::series::kRecallVsEvalsPrefix, m));
            QCOMPARE(s.x.size(), size_t(6));
            for (size_t i = 1; i < s.y.size(); ++i)
                QVERIFY(s.y[i] >= s.y[i - 1]);
        }
    }

    void claimsAtThreeSeeds() {
        BobaScreeningEngine e;
        for (uint64_t seed : {1, 2, 3}) {
            const ResultDocument d = runBoba(ParamSet(e.params()), seed);
            const auto recall = [&](const char* m) {
                return d.metrics.at(K::key(K::metric::kRecallPrefix, m));
            };
            qInfo("seed %llu recall boba %.3f full %.3f random %.3f random-partitions %.3f greedy %.3f",
                  (unsigned long long)seed, recall("boba"), recall("full"), recall("random"),
                  recall("boba_random_partitions"), recall("boba_greedy"));
            QVERIFY(recall("full") > recall("random"));
            QVERIFY(d.metrics.at(K::key(K::metric::kInferencesPrefix, "boba")) <
                    0.3 * d.metrics.at(K::key(K::metric::kInferencesPrefix, "full")));
            QCOMPARE(int(d.claims.size()), 3);
            for (const Claim& c : d.claims) {
                qInfo("seed %llu claim %s holds=%d observed=%.4g threshold=%.4g: %s",
                      (unsigned long long)seed, c.id.c_str(), int(c.holds), c.observed, c.threshold,
                      c.detail.c_str());
                if (c.id == K::claim::kOptimismAndPartitions)
                    QCOMPARE(c.holds, c.observed >= c.threshold);
                if (c.id == K::claim::kDoseResponse)
                    QCOMPARE(c.holds, c.observed < c.threshold);
            }
        }
    }

    void deterministicFromSeed() {
        const ParamSet ps = smallParams();
        QCOMPARE(runBoba(ps, 5).toJson(), runBoba(ps, 5).toJson());
        QVERIFY(runBoba(ps, 5).toJson() != runBoba(ps, 6).toJson());
    }

    void directionMinIsNegatedMax() {
        QTemporaryDir dir;
        Rng rng(31);
        std::string up = "id,partition_key,fingerprint,score\n", down = up;
        for (int i = 0; i < 600; ++i) {
            char fp[9];
            std::snprintf(fp, sizeof fp, "%08llx",
                          (unsigned long long)(rng.next() & rng.next() & 0xffffffffull));
            const double s = rng.normal();
            const std::string row = "c" + std::to_string(i) + ",k" + std::to_string(i % 12) + "," + fp + ",";
            up += row + std::to_string(s) + "\n";
            down += row + std::to_string(-s) + "\n";
        }
        writeText(dir.filePath("up.csv"), up);
        writeText(dir.filePath("down.csv"), down);
        BobaScreeningEngine e;
        ParamSet ps(e.params());
        ps.setText(K::param::kRounds, "5");
        ps.setText(K::param::kBatch, "20");
        ps.setText(K::param::kArmsPerRound, "4");
        const ResultDocument a = runBoba(ps, 2, {e.load(dir.filePath("up.csv").toStdString())});
        ps.setText(K::param::kDirection, "min");
        const ResultDocument b = runBoba(ps, 2, {e.load(dir.filePath("down.csv").toStdString())});
        QCOMPARE(a.vectors.at(K::vector::kEvalOrder), b.vectors.at(K::vector::kEvalOrder));
        for (const char* m : K::kMethods)
            QCOMPARE(a.metrics.at(K::key(K::metric::kRecallPrefix, m)),
                     b.metrics.at(K::key(K::metric::kRecallPrefix, m)));
        ps.setText(K::param::kPartition, "kmeans");
        const ResultDocument c = runBoba(ps, 2, {e.load(dir.filePath("down.csv").toStdString())});
        QVERIFY(c.metrics.at(K::metric::kArms) >= 2);
    }

    void badLibraries_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("message");
        QTest::newRow("smiles column") << "id,partition_key,smiles,score\na,k,CCO,1\n"
                                       << "provide precomputed fingerprints";
        QTest::newRow("smiles value")
            << "id,partition_key,fingerprint,score\na,k,ff,1\nb,k,c1ccccc1O,2\n"
            << ":3:3: 'c1ccccc1O' looks like SMILES: provide precomputed fingerprints";
        QTest::newRow("unequal bits") << "id,partition_key,fingerprint,score\na,k,ff,1\nb,k,fff,2\n"
                                      << ":3:3";
        QTest::newRow("duplicate id") << "id,partition_key,fingerprint,score\na,k,ff,1\na,k,0f,2\n"
                                      << "first on line 2";
        QTest::newRow("bad score") << "id,partition_key,fingerprint,score\na,k,ff,1\nb,k,0f,nan\n"
                                   << ":3:4";
        QTest::newRow("missing column") << "id,fingerprint,score\na,ff,1\n"
                                        << "header must name";
        QTest::newRow("ragged") << "id,partition_key,fingerprint,score\na,k,ff\n"
                                << ":2";
    }

    void badLibraries() {
        QFETCH(QString, text);
        QFETCH(QString, message);
        try {
            parseLibraryCsv(text.toStdString(), "lib.csv");
            QFAIL("no error");
        } catch (const InputError& err) {
            const QString what = QString::fromStdString(err.what());
            QVERIFY2(what.contains("lib.csv") && what.contains(message), qPrintable(what));
        }
    }

    void missingKeyNeedsKmeans() {
        QTemporaryDir dir;
        std::string t = "id,partition_key,fingerprint,score\n";
        for (int i = 0; i < 300; ++i)
            t += "c" + std::to_string(i) + "," + (i == 7 ? "" : "k" + std::to_string(i % 5)) + "," +
                 (i % 2 ? "f0" : "0f") + "," + std::to_string(i % 17) + "\n";
        writeText(dir.filePath("lib.csv"), t);
        BobaScreeningEngine e;
        ParamSet ps(e.params());
        ps.setText(K::param::kRounds, "3");
        ps.setText(K::param::kBatch, "20");
        const auto in = e.load(dir.filePath("lib.csv").toStdString());
        try {
            runBoba(ps, 1, {in});
            QFAIL("no error");
        } catch (const InputError& err) {
            QVERIFY2(QString(err.what()).contains("partition=kmeans"), err.what());
        }
        ps.setText(K::param::kPartition, "kmeans");
        QVERIFY(runBoba(ps, 1, {in}).metrics.count(K::metric::kArms));
        // No score column: nothing to replay.
        writeText(dir.filePath("noscore.csv"), "id,partition_key,fingerprint\na,k,ff\n");
        QVERIFY_THROWS_EXCEPTION(InputError,
                                 runBoba(ps, 1, {e.load(dir.filePath("noscore.csv").toStdString())}));
    }
};

QTEST_GUILESS_MAIN(TestBoba)
#include "tst_boba.moc"
