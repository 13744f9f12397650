// The behavioral-abstraction and pac-bayes-sac panels through the command line: one seed gives the
// same result with the keys of the issue, the example MDP files run, every bad JSON MDP of
// tests/data/bad exits 3 quickly with file:line and no output left, and `paperlab figure <panel> all`
// writes every figure.
#include "common/CliTestSupport.h"
#include "core/ResultDocument.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

namespace {

using pl::test::readResult;
using pl::test::runCli;

const QString kBa = QStringLiteral("behavioral-abstraction");
const QString kPb = QStringLiteral("pac-bayes-sac");
const QStringList kFastBa{QStringLiteral("--set"), QStringLiteral("formula_samples=200")};
const QStringList kFastPb{QStringLiteral("--set"), QStringLiteral("repetitions=20"), QStringLiteral("--set"),
                          QStringLiteral("n=1000")};

} // namespace

class TestMdpCli : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        if (!QFile::exists(pl::test::paperlabBinary()))
            QSKIP("paperlab binary not built");
    }
    void behavioralAbstractionDeterministic() {
        QTemporaryDir dir;
        const QStringList common =
            QStringList{QStringLiteral("run"), kBa, QStringLiteral("--seed"), QStringLiteral("3")} + kFastBa +
            QStringList{QStringLiteral("--out")};
        QCOMPARE(runCli(common + QStringList{dir.filePath("a.json")}), 0);
        QCOMPARE(runCli(common + QStringList{dir.filePath("b.json")}), 0);
        const auto a = readResult(dir.filePath("a.json")), b = readResult(dir.filePath("b.json"));
        QCOMPARE(a.toJson(), b.toJson());
        QVERIFY(a.vectors.count("value") && a.vectors.count("invariant") &&
                a.vectors.count("reach_probability"));
        QVERIFY(a.matrices.count("bisim_metric") && a.labels.count("block") &&
                a.series.count("abstraction_error"));
        for (const char* k : {"blocks", "homomorphism_violation", "bound_violation"})
            QVERIFY2(a.metrics.count(k), k);
        for (const auto& c : a.claims)
            QVERIFY2(c.holds, c.id.c_str());
    }
    void behavioralAbstractionExamples() {
        const QDir ex(QStringLiteral(PAPERLAB_SOURCE_DIR "/resources/examples/behavioral-abstraction"));
        QTemporaryDir dir;
        QCOMPARE(runCli(QStringList{QStringLiteral("run"), kBa, QStringLiteral("--input"),
                                    ex.filePath(QStringLiteral("aliased-chain.json"))} +
                        kFastBa + QStringList{QStringLiteral("--out"), dir.filePath("r.json")}),
                 0);
        const auto d = readResult(dir.filePath("r.json"));
        QCOMPARE(d.metrics.at("states"), 10.0);
        QCOMPARE(d.metrics.at("blocks"), 6.0); // each of states 1..4 merges with its alias
        const auto& b = d.labels.at("block");
        for (int s = 1; s <= 4; ++s)
            QCOMPARE(b[size_t(s)], b[size_t(s + 5)]);
    }
    void badFilesExit3() {
        const QDir bad(QStringLiteral(PAPERLAB_SOURCE_DIR "/tests/data/bad"));
        struct Case {
            QString panel;
            QString pattern;
        };
        int checked = 0;
        for (const Case& c : {Case{kBa, QStringLiteral("behavioral-abstraction-*.json")},
                              Case{kPb, QStringLiteral("pac-bayes-sac-*.json")}}) {
            for (const QString& name : bad.entryList({c.pattern}, QDir::Files)) {
                QTemporaryDir dir;
                QString err;
                QElapsedTimer t;
                t.start();
                const QString out = dir.filePath(QStringLiteral("r.json"));
                QCOMPARE(runCli({QStringLiteral("run"), c.panel, QStringLiteral("--input"),
                                 bad.filePath(name), QStringLiteral("--out"), out},
                                &err),
                         3);
                QVERIFY2(t.elapsed() < 5000, qPrintable(name));
                QVERIFY2(err.contains(
                             QRegularExpression(QRegularExpression::escape(name) + QStringLiteral(":\\d+"))),
                         qPrintable(err));
                QVERIFY(!QFile::exists(out));
                ++checked;
            }
        }
        QVERIFY(checked >= 5);
    }
    void behavioralAbstractionFiguresAll() {
        QTemporaryDir dir;
        QCOMPARE(runCli(QStringList{QStringLiteral("figure"), kBa, QStringLiteral("all"),
                                    QStringLiteral("--dpi"), QStringLiteral("60")} +
                        kFastBa + QStringList{QStringLiteral("--out"), dir.path()}),
                 0);
        for (const char* f : {"mdp_graph", "quotient_graph", "metric_heatmap", "value_gap", "formula_gap",
                              "invariant_sets", "abstraction_error"})
            QVERIFY2(QFile::exists(dir.filePath(QString::fromLatin1(f) + QStringLiteral(".png"))), f);
    }
    void pacBayesDeterministicWithKeys() {
        QTemporaryDir dir;
        const QStringList common =
            QStringList{QStringLiteral("run"), kPb, QStringLiteral("--seed"), QStringLiteral("2")} + kFastPb +
            QStringList{QStringLiteral("--out")};
        QCOMPARE(runCli(common + QStringList{dir.filePath("a.json")}), 0);
        QCOMPARE(runCli(common + QStringList{dir.filePath("b.json")}), 0);
        const auto a = readResult(dir.filePath("a.json")), b = readResult(dir.filePath("b.json"));
        QCOMPARE(a.toJson(), b.toJson());
        for (const char* k : {"t_mix", "markov_coverage", "iid_coverage"})
            QVERIFY2(a.metrics.count(k), k);
        for (const char* k : {"stationary", "empirical_risk", "true_risk", "kl", "markov_bound", "iid_bound"})
            QVERIFY2(a.vectors.count(k), k);
        QCOMPARE(int(a.vectors.at("markov_bound").size()), 20);
        QVERIFY(a.series.count("tv_decay"));
        // The control lab through the CLI (a short run), and its refusal of an MDP file.
        QCOMPARE(runCli({QStringLiteral("run"), kPb, QStringLiteral("--set"), QStringLiteral("lab=control"),
                         QStringLiteral("--set"), QStringLiteral("steps=400"), QStringLiteral("--set"),
                         QStringLiteral("hidden=8"), QStringLiteral("--out"), dir.filePath("c.json")}),
                 0);
        const auto c = readResult(dir.filePath("c.json"));
        for (const char* k : {"return_sac", "return_pbsac", "certificate_pbsac"})
            QVERIFY2(c.series.count(k), k);
        QCOMPARE(int(c.matrices.at("policy_sac").data.size()), 41 * 41);
        QString err;
        QCOMPARE(runCli({QStringLiteral("run"), kPb, QStringLiteral("--set"), QStringLiteral("lab=control"),
                         QStringLiteral("--input"),
                         QStringLiteral(PAPERLAB_SOURCE_DIR "/resources/examples/pac-bayes-sac/sticky-ring.json"),
                         QStringLiteral("--out"), dir.filePath("d.json")},
                        &err),
                 1);
        QVERIFY2(err.contains(QStringLiteral("reads no MDP file")), qPrintable(err));
    }
    void pacBayesExampleAndFigures() {
        QTemporaryDir dir;
        QCOMPARE(runCli(QStringList{QStringLiteral("run"), kPb, QStringLiteral("--input"),
                                    QStringLiteral(PAPERLAB_SOURCE_DIR
                                                   "/resources/examples/pac-bayes-sac/sticky-ring.json")} +
                        kFastPb + QStringList{QStringLiteral("--out"), dir.filePath("r.json")}),
                 0);
        QCOMPARE(readResult(dir.filePath("r.json")).metrics.at("t_mix"), 6.0);
        QCOMPARE(runCli(QStringList{QStringLiteral("figure"), kPb, QStringLiteral("all"),
                                    QStringLiteral("--dpi"), QStringLiteral("60")} +
                        kFastPb + QStringList{QStringLiteral("--out"), dir.path()}),
                 0);
        for (const char* f :
             {"bound_vs_n", "bound_vs_tmix", "coverage", "repetitions", "tv_decay", "transition_heatmap"})
            QVERIFY2(QFile::exists(dir.filePath(QString::fromLatin1(f) + QStringLiteral(".png"))), f);
    }
};

QTEST_GUILESS_MAIN(TestMdpCli)
#include "tst_mdp_cli.moc"
