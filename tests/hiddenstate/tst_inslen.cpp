// inslen-hallucination engine: every per-object score, the skip rules, the AUROC / AUPR / FPR@95
// and the layer sweep against a numpy transcription of the detector (inslen_oracle.py, 1e-9) on
// stored and deflated .npz captions; the ranking metrics against scikit-learn with ties; the lens
// and top-k helpers by hand; bad captions; the toy stand-in's determinism, cancellation and report.
#include "OracleSupport.h"

#include "core/Detection.h"
#include "core/Errors.h"
#include "core/NpyReader.h"
#include "core/Rng.h"
#include "hiddenstate/InsLenEngine.h"
#include "hiddenstate/InsLenKeys.h"
#include "hiddenstate/LogitLens.h"

#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <fstream>

using namespace pl::hiddenstate;
namespace keys = pl::hiddenstate::inslen::keys;
using pl::test::havePython;
using pl::test::near;
using pl::test::runOracle;

namespace {

pl::ResultDocument runFiles(const std::vector<std::string>& files, pl::ParamSet p) {
    InsLenEngine e;
    pl::InputList in;
    for (const std::string& f : files)
        in.push_back(e.load(f));
    p.set(keys::param::kMode, std::string("file"));
    pl::RunContext ctx(1);
    return pl::runEngine(e, in, p, ctx);
}

std::vector<std::string> fixtureFiles(const QTemporaryDir& dir) {
    std::vector<std::string> f{dir.filePath("head.npy").toStdString()};
    for (int c = 0; c < 7; ++c)
        f.push_back(dir.filePath(QString::asprintf("cap_%03d.npz", c)).toStdString());
    return f;
}

/// Runs python to write a variant of a caption archive; returns its path.
QString writeBadCaption(const QTemporaryDir& dir, const char* name, const char* change) {
    const QString path = dir.filePath(name);
    const QString script =
        QStringLiteral(
            "import numpy as np, sys\nr = np.random.default_rng(1)\n"
            "c = dict(image_states=r.normal(size=(2, 4, 3)), instr_states=r.normal(size=(2, 3, 3)),\n"
            "  answer_states=r.normal(size=(2, 5, 3)), answer_ids=np.array([1, 2, 3, 4, 5]),\n"
            "  objects=np.array([2, 3]), labels=np.array([1, 0]))\n") +
        QString::fromLatin1(change) + QStringLiteral("\nnp.savez_compressed(sys.argv[1], **c)\n");
    QProcess py;
    py.start("/usr/bin/python3", {"-c", script, path});
    py.waitForFinished(60000);
    return path;
}

} // namespace

class TestInsLen : public QObject {
    Q_OBJECT
private slots:
    void lensAndTopK() {
        Eigen::MatrixXd H(2, 2), W(3, 2);
        H << 1, 0, 0, 2;
        W << 1, 0, 0, 1, 1, 1;
        const Eigen::VectorXd lse = lensLogNormaliser(H, W, 1.0);
        const Eigen::VectorXd p = lensProbOfToken(H, W, 1.0, 2, lse);
        QVERIFY(std::abs(p(0) - std::exp(1.0) / (2 * std::exp(1.0) + 1)) < 1e-15);
        QVERIFY(std::abs(p(1) - std::exp(2.0) / (2 * std::exp(2.0) + 1)) < 1e-15);
        // Huge logits stay finite (log-sum-exp).
        const Eigen::VectorXd q = lensProbOfToken(1e3 * H, W, 1.0, 0, lensLogNormaliser(1e3 * H, W, 1.0));
        QVERIFY(std::isfinite(q(0)) && std::abs(q(0) - 0.5) < 1e-12);
        Eigen::VectorXd v(5);
        v << 0.2, 0.5, 0.5, 0.1, 0.5;
        QCOMPARE(topKIndices(v, 2), (std::vector<int>{1, 2}));
        QCOMPARE(topKIndices(v, 9), (std::vector<int>{1, 2, 4, 0, 3}));
    }

    void rankingMetricsMatchSklearn() {
        if (!havePython())
            QSKIP("python3 with numpy/sklearn not available");
        pl::Rng rng(4);
        std::vector<double> s;
        std::vector<char> y;
        QString ss, ys;
        for (int i = 0; i < 300; ++i) {
            y.push_back(char(rng.uniform() < 0.4));
            s.push_back(std::round((rng.normal() + (y.back() ? 0.7 : 0.0)) * 4) / 4); // many ties
            ss += QString::number(s.back(), 'g', 17) + ' ';
            ys += QString::number(int(y.back())) + ' ';
        }
        QProcess py;
        py.start("/usr/bin/python3",
                 {"-c",
                  "import sys, numpy as np\nfrom sklearn.metrics import roc_auc_score, "
                  "average_precision_score, roc_curve\n"
                  "s = np.array(sys.argv[1].split(), float); y = np.array(sys.argv[2].split(), int)\n"
                  "f, t, _ = roc_curve(y, s)\n"
                  "print('%.17g %.17g %.17g' % (roc_auc_score(y, s), average_precision_score(y, s), "
                  "f[np.argmax(t >= 0.95)]))",
                  ss, ys});
        QVERIFY(py.waitForFinished(60000) && py.exitCode() == 0);
        const QStringList r = QString::fromUtf8(py.readAllStandardOutput()).split(' ', Qt::SkipEmptyParts);
        QCOMPARE(r.size(), 3);
        QVERIFY(std::abs(pl::rankAuroc(s, y) - r[0].toDouble()) < 1e-12);
        QVERIFY(std::abs(pl::averagePrecision(s, y) - r[1].toDouble()) < 1e-12);
        QVERIFY(std::abs(pl::fprAtTpr(s, y, 0.95) - r[2].toDouble()) < 1e-12);
    }

    void scoresMatchNumpyTranscription_data() {
        QTest::addColumn<int>("seed");
        QTest::newRow("seed 5") << 5;
        QTest::newRow("seed 6") << 6;
    }
    void scoresMatchNumpyTranscription() {
        QFETCH(int, seed);
        if (!havePython())
            QSKIP("python3 with numpy/sklearn not available");
        QTemporaryDir dir;
        const auto ref = runOracle("inslen_oracle.py", {dir.path(), QString::number(seed)});
        QVERIFY(!ref.empty());
        InsLenEngine e;
        pl::ParamSet p(e.params());
        p.set(keys::param::kImageLayer, int64_t(1));
        p.set(keys::param::kInstructionLayer, int64_t(2));
        const pl::ResultDocument d = runFiles(fixtureFiles(dir), p);
        QString why;
        for (const char* k :
             {"inslen", "calibrated_local", "context_consistency", "mean_prob", "glsim", "svar", "label"})
            QVERIFY2(near(d.vectors.at(k), ref.at(k), 1e-9, &why), qPrintable(QString(k) + ": " + why));
        QCOMPARE(d.metrics.at(keys::metric::kObjectsSkipped), ref.at("objects_skipped")[0]);
        QCOMPARE(d.metrics.at(keys::metric::kObjectsScored), double(ref.at("inslen").size()));
        QVERIFY(ref.at("objects_skipped")[0] > 0); // the fixture exercises the skip rules
        for (const char* k :
             {"auroc_inslen", "auroc_glsim", "auroc_mean_prob", "auroc_svar", "aupr_inslen", "fpr95_inslen"})
            QVERIFY2(near({d.metrics.at(k)}, ref.at(k), 1e-9, &why), qPrintable(QString(k) + ": " + why));
        QVERIFY2(near(d.matrices.at(keys::matrix::kAurocLayers).data, ref.at("auroc_layers"), 1e-9, &why),
                 qPrintable(why));
    }

    void folderInputMatchesFiles() {
        if (!havePython())
            QSKIP("python3 with numpy/sklearn not available");
        QTemporaryDir dir, caps;
        QVERIFY(!runOracle("inslen_oracle.py", {dir.path(), "7"}).empty());
        for (int c = 0; c < 7; ++c) {
            const QString f = QString::asprintf("cap_%03d.npz", c);
            QVERIFY(QFile::copy(dir.filePath(f), caps.filePath(f)));
        }
        InsLenEngine e;
        const pl::ParamSet p(e.params());
        const auto a = runFiles(fixtureFiles(dir), p);
        const auto b = runFiles({dir.filePath("head.npy").toStdString(), caps.path().toStdString()}, p);
        QCOMPARE(a.vectors.at(keys::vector::kInslen), b.vectors.at(keys::vector::kInslen));
        QCOMPARE(a.vectors.at(keys::vector::kCaption), b.vectors.at(keys::vector::kCaption));
    }

    void badCaptions_data() {
        QTest::addColumn<QString>("change");
        QTest::addColumn<QString>("expect");
        QTest::newRow("missing array") << "del c['labels']"
                                       << "labels";
        QTest::newRow("L mismatch") << "c['instr_states'] = c['instr_states'][:1]"
                                    << "instr_states";
        QTest::newRow("d mismatch") << "c['answer_states'] = c['answer_states'][:, :, :2]"
                                    << "answer_states";
        QTest::newRow("label 2") << "c['labels'] = np.array([1, 2])"
                                 << "labels";
        QTest::newRow("NaN") << "c['image_states'][0, 0, 0] = np.nan"
                             << "image_states";
        QTest::newRow("answer ids length") << "c['answer_ids'] = np.array([1, 2])"
                                           << "answer_ids";
        QTest::newRow("negative id") << "c['objects'] = np.array([-1, 3])"
                                     << "objects";
        QTest::newRow("svar shape") << "c['svar'] = np.ones(3)"
                                    << "svar";
    }
    void badCaptions() {
        QFETCH(QString, change);
        QFETCH(QString, expect);
        if (!havePython())
            QSKIP("python3 with numpy not available");
        QTemporaryDir dir;
        const QString f = writeBadCaption(dir, "bad.npz", qPrintable(change));
        QVERIFY(QFile::exists(f));
        InsLenEngine e;
        try {
            e.load(f.toStdString());
            QFAIL("accepted a bad caption");
        } catch (const pl::InputError& err) {
            QVERIFY2(QString(err.what()).contains("bad.npz") && QString(err.what()).contains(expect),
                     err.what());
        }
    }

    void idBeyondVocabularyAndMissingHead() {
        if (!havePython())
            QSKIP("python3 with numpy not available");
        QTemporaryDir dir;
        const QString f = writeBadCaption(dir, "big.npz", "c['objects'] = np.array([2, 40])");
        std::ofstream(dir.filePath("head.npy").toStdString(), std::ios::binary)
            << pl::writeNpy({10, 3}, std::vector<double>(30, 0.5));
        InsLenEngine e;
        const pl::ParamSet p(e.params());
        try {
            runFiles({dir.filePath("head.npy").toStdString(), f.toStdString()}, p);
            QFAIL("accepted id >= V");
        } catch (const pl::InputError& err) {
            QVERIFY2(QString(err.what()).contains("big.npz") && QString(err.what()).contains("objects"),
                     err.what());
        }
        QVERIFY_THROWS_EXCEPTION(pl::InputError, runFiles({f.toStdString()}, p)); // no head
        pl::ParamSet far = p;
        far.set(keys::param::kImageLayer, int64_t(5));
        std::ofstream(dir.filePath("head2.npy").toStdString(), std::ios::binary)
            << pl::writeNpy({60, 3}, std::vector<double>(180, 0.5));
        QVERIFY_THROWS_EXCEPTION(pl::UsageError,
                                 runFiles({dir.filePath("head2.npy").toStdString(), f.toStdString()}, far));
    }

    void toyIsDeterministicAndReports() {
        InsLenEngine e;
        pl::ParamSet p(e.params());
        p.set(keys::param::kSteps, int64_t(60));
        p.set(keys::param::kCaptions, int64_t(40));
        auto run = [&](uint64_t seed) {
            pl::RunContext ctx(seed);
            pl::ResultDocument d = pl::runEngine(e, {}, p, ctx);
            d.elapsedMs = 0;
            return d;
        };
        const auto a = run(3), b = run(3), c = run(4);
        QCOMPARE(a.toJson(), b.toJson());
        QVERIFY(a.toJson() != c.toJson());
        const size_t n = a.vectors.at(keys::vector::kInslen).size();
        QVERIFY(n > 20);
        for (const char* k :
             {"calibrated_local", "context_consistency", "mean_prob", "glsim", "label", "svar"})
            QCOMPARE(a.vectors.at(k).size(), n);
        QCOMPARE(a.matrices.at(keys::matrix::kAurocLayers).rows, int64_t(3)); // embeddings + 2 blocks
        QCOMPARE(a.claims.size(), size_t(1));
        const double auc = a.metrics.at(keys::metric::kAurocInslen);
        QCOMPARE(a.claims[0].holds, std::isfinite(auc) &&
                                        std::isfinite(a.metrics.at(keys::metric::kAurocGlsim)) &&
                                        std::isfinite(a.metrics.at(keys::metric::kAurocMeanProb)));
        qInfo("toy (seed 3): %s", a.claims[0].detail.c_str());
    }

    void cancels() {
        InsLenEngine e;
        pl::RunContext ctx(1);
        ctx.requestStop();
        QVERIFY_THROWS_EXCEPTION(pl::Cancelled, e.run({}, pl::ParamSet(e.params()), ctx));
    }
};

QTEST_GUILESS_MAIN(TestInsLen)
#include "tst_inslen.moc"
