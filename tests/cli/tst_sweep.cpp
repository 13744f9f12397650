// `paperlab sweep` end to end on ssn-nash (seconds per run): one result per cell × seed equal to
// `run` with the same parameters and seed, the tidy table and the claim tallies (Wilson interval
// against its closed form), --jobs 2 equal to --jobs 1, resuming (only missing or foreign runs are
// computed again), usage errors before any work (exit 1) and a bad input file (exit 3). The plan
// parser and the interval are also tested directly.
#include "common/CliTestSupport.h"
#include "core/Errors.h"
#include "core/ParamSpec.h"
#include "sdk/ClaimRobustness.h"
#include "sdk/SweepPlan.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>

using pl::test::readResult;
using pl::test::runCli;

namespace {

const QStringList kFast{QStringLiteral("--set"), QStringLiteral("cols=10")};

QStringList sweepArgs(const QString& out, const QStringList& extra) {
    return QStringList{QStringLiteral("sweep"), QStringLiteral("ssn-nash")} + kFast + extra +
           QStringList{QStringLiteral("--out"), out};
}

QStringList csvWithoutTimes(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    QStringList rows;
    for (const QByteArray& line : f.readAll().split('\n'))
        if (!line.isEmpty())
            rows << QString::fromUtf8(line).section(QLatin1Char(','), 0, -2); // elapsed_ms is last
    return rows;
}

} // namespace

class TstSweep : public QObject {
    Q_OBJECT
private slots:
    void planParsesGridsAndSeeds() {
        const std::vector<pl::ParamSpec> specs{pl::ParamSpec::integer("n", "n", 1, 100, 5, ""),
                                               pl::ParamSpec::real("g", "g", 0.001, 10, 1, ""),
                                               pl::ParamSpec::choice("m", "m", {"a", "b"}, "a", "")};
        const pl::SweepPlan p = pl::SweepPlan::parse(specs, {"n=2:10:3", "g=0.01:1:3:log", "m=a,b"}, "3..4");
        QCOMPARE(p.axes()[0].values, (std::vector<std::string>{"2", "6", "10"}));
        QCOMPARE(p.axes()[1].values, (std::vector<std::string>{"0.01", "0.1", "1"}));
        QCOMPARE(p.cellCount(), int64_t(18));
        const auto runs = p.runs();
        QCOMPARE(int(runs.size()), 36);
        QCOMPARE(runs[1].fileStem, std::string("n-2_g-0.01_m-a_seed-4"));
        QCOMPARE(runs[2].values[2].second, std::string("b")); // last axis fastest, seeds innermost
        QCOMPARE(pl::SweepPlan::parse(specs, {"n=1:100:4"}, "2").axes()[0].values,
                 (std::vector<std::string>{"1", "34", "67", "100"}));
        QCOMPARE(int(pl::SweepPlan::parse(specs, {"n=3:4:5"}, "1").axes()[0].values.size()),
                 2); // rounded, deduplicated
        QCOMPARE(pl::SweepPlan::parse(specs, {}, "1..10").cellCount(), int64_t(1));
        for (const auto& [grids, seeds] : std::vector<std::pair<std::vector<std::string>, std::string>>{
                 {{"x=1,2"}, "1"},        // unknown key
                 {{"n="}, "1"},           // no values
                 {{"n=1,,2"}, "1"},       // empty value
                 {{"n=1,1"}, "1"},        // duplicate
                 {{"n=0:5:2"}, "1"},      // out of range
                 {{"m=a:b:2"}, "1"},      // range on a choice
                 {{"g=0:1:3:log"}, "1"},  // log range through 0
                 {{"n=1:5:0"}, "1"},      // n < 1
                 {{"n=1,2", "n=3"}, "1"}, // key twice
                 {{"n=1"}, "5..2"},       // empty seed range
                 {{"n=1"}, "0"},          // no seeds
                 {{"n=1"}, "x"}})         // not a number
            QVERIFY_THROWS_EXCEPTION(pl::UsageError, pl::SweepPlan::parse(specs, grids, seeds));
    }
    void wilsonMatchesClosedForm() {
        // 8 of 10 at 95%: the textbook interval (0.4902, 0.9433); 0 of 5 starts at 0; n = 0 is [0, 1].
        const pl::WilsonInterval w = pl::wilsonInterval(8, 10);
        QVERIFY(std::fabs(w.lo - 0.49016) < 1e-4 && std::fabs(w.hi - 0.94331) < 1e-4);
        QCOMPARE(pl::wilsonInterval(0, 5).lo, 0.0);
        QVERIFY(std::fabs(pl::wilsonInterval(0, 5).hi - 0.43449) < 1e-4);
        QCOMPARE(pl::wilsonInterval(0, 0).hi, 1.0);
    }
    void sweepEqualsRunAndTallies() {
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("s"));
        QString err;
        QCOMPARE(runCli(sweepArgs(out, {QStringLiteral("--grid"), QStringLiteral("rows=8,12"),
                                        QStringLiteral("--seeds"), QStringLiteral("1..3")}),
                        &err),
                 0);
        QVERIFY2(err.contains(QStringLiteral("6/6")), qPrintable(err));
        // One cell against `run` with the same parameters and seed: equal but for the wall time.
        QCOMPARE(runCli(QStringList{QStringLiteral("run"), QStringLiteral("ssn-nash")} + kFast +
                        QStringList{QStringLiteral("--set"), QStringLiteral("rows=12"),
                                    QStringLiteral("--seed"), QStringLiteral("2"), QStringLiteral("--out"),
                                    dir.filePath(QStringLiteral("r.json"))}),
                 0);
        QCOMPARE(readResult(QDir(out).filePath(QStringLiteral("rows-12_seed-2.json"))).toJson(),
                 readResult(dir.filePath(QStringLiteral("r.json"))).toJson());
        const QStringList rows = csvWithoutTimes(QDir(out).filePath(QStringLiteral("sweep.csv")));
        QCOMPARE(rows.size(), 7);
        QVERIFY(rows[0].startsWith(QStringLiteral("rows,seed,")));
        QVERIFY(rows[4].startsWith(QStringLiteral("12,1,")));
        // Tallies: per cell over its 3 seeds, and overall over 6 runs, with the Wilson interval.
        QFile f(QDir(out).filePath(QStringLiteral("sweep.json")));
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QJsonObject doc = QJsonDocument::fromJson(f.readAll()).object();
        QCOMPARE(doc.value("runs").toInt(), 6);
        QCOMPARE(doc.value("cells").toArray().size(), 2);
        const QJsonArray claims = doc.value("claims").toArray();
        QVERIFY(!claims.isEmpty());
        int held = 0;
        const QString id = claims[0].toObject().value("id").toString();
        const int idx = rows[0].split(QLatin1Char(',')).indexOf(id + QStringLiteral(".holds"));
        QVERIFY(idx > 0);
        for (int r = 1; r < rows.size(); ++r)
            held += rows[r].split(QLatin1Char(','))[idx].toInt();
        const QJsonObject c0 = claims[0].toObject();
        QCOMPARE(c0.value("holds").toInt(), held);
        QCOMPARE(c0.value("runs").toInt(), 6);
        QCOMPARE(c0.value("wilson_95").toArray()[0].toDouble(), pl::wilsonInterval(held, 6).lo);

        // The robustness report of this sweep: HTML, PDF and every figure as PNG, SVG and CSV.
        const QString rep = dir.filePath(QStringLiteral("rep"));
        QCOMPARE(runCli({QStringLiteral("report"), QStringLiteral("ssn-nash"), QStringLiteral("--sweep"), out,
                         QStringLiteral("--out"), rep},
                        &err),
                 0);
        for (const char* f :
             {"ssn-nash-robustness.html", "ssn-nash-robustness.pdf", "figures/claims_by_cell.png",
              "figures/claims_by_cell.svg", "figures/claims_by_cell.csv"})
            QVERIFY2(QFileInfo(QDir(rep).filePath(QLatin1String(f))).size() > 100, f);
        QVERIFY(QFile::exists(
            QDir(rep).filePath(QStringLiteral("figures/claim_") + id + QStringLiteral(".png"))));
        QFile html(QDir(rep).filePath(QStringLiteral("ssn-nash-robustness.html")));
        QVERIFY(html.open(QIODevice::ReadOnly));
        QVERIFY(QString::fromUtf8(html.readAll()).contains(QStringLiteral("%1 of 6").arg(held)));
        // Errors: another panel (1), no sweep there (3), a run missing (3).
        QCOMPARE(runCli({QStringLiteral("report"), QStringLiteral("ftrl-potential-games"),
                         QStringLiteral("--sweep"), out, QStringLiteral("--out"), rep},
                        &err),
                 1);
        QCOMPARE(runCli({QStringLiteral("report"), QStringLiteral("ssn-nash"), QStringLiteral("--sweep"),
                         dir.filePath(QStringLiteral("none")), QStringLiteral("--out"), rep},
                        &err),
                 3);
        QVERIFY(QFile::remove(QDir(out).filePath(QStringLiteral("rows-8_seed-3.json"))));
        QCOMPARE(runCli({QStringLiteral("report"), QStringLiteral("ssn-nash"), QStringLiteral("--sweep"), out,
                         QStringLiteral("--out"), dir.filePath(QStringLiteral("r.html"))},
                        &err),
                 3);
        QVERIFY2(err.contains(QStringLiteral("rows-8_seed-3.json: missing")), qPrintable(err));
    }
    void jobsAndResume() {
        QTemporaryDir dir;
        const QStringList grid{QStringLiteral("--grid"), QStringLiteral("rows=6:14:3"),
                               QStringLiteral("--seeds"), QStringLiteral("2")};
        const QString one = dir.filePath(QStringLiteral("one")), two = dir.filePath(QStringLiteral("two"));
        QCOMPARE(runCli(sweepArgs(one, grid)), 0);
        QCOMPARE(runCli(sweepArgs(two, grid + QStringList{QStringLiteral("--jobs"), QStringLiteral("2")})),
                 0);
        QCOMPARE(csvWithoutTimes(QDir(two).filePath(QStringLiteral("sweep.csv"))),
                 csvWithoutTimes(QDir(one).filePath(QStringLiteral("sweep.csv"))));
        // Resume: delete one run and corrupt another; only those two are computed again.
        const QString gone = QDir(one).filePath(QStringLiteral("rows-10_seed-1.json"));
        const QString bad = QDir(one).filePath(QStringLiteral("rows-6_seed-2.json"));
        const QString kept = QDir(one).filePath(QStringLiteral("rows-14_seed-2.json"));
        const QDateTime keptTime = QFileInfo(kept).lastModified();
        QVERIFY(QFile::remove(gone));
        {
            QFile f(bad);
            QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
            f.write("{ truncated");
        }
        QTest::qWait(1100); // file times have one-second resolution on some file systems
        QString err;
        QCOMPARE(runCli(sweepArgs(one, grid), &err), 0);
        QVERIFY2(err.contains(QStringLiteral("4 of 6 runs already done")), qPrintable(err));
        QVERIFY(QFile::exists(gone));
        QCOMPARE(QFileInfo(kept).lastModified(), keptTime);
        QCOMPARE(csvWithoutTimes(QDir(one).filePath(QStringLiteral("sweep.csv"))),
                 csvWithoutTimes(QDir(two).filePath(QStringLiteral("sweep.csv"))));
        // Other parameters: the same file names hold other runs, so everything is computed again.
        QCOMPARE(runCli(QStringList{QStringLiteral("sweep"), QStringLiteral("ssn-nash"),
                                    QStringLiteral("--set"), QStringLiteral("cols=11")} +
                            grid + QStringList{QStringLiteral("--out"), one},
                        &err),
                 0);
        QVERIFY2(!err.contains(QStringLiteral("already done")), qPrintable(err));
    }
    void usageAndInputErrors() {
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("u"));
        QString err;
        QCOMPARE(runCli(sweepArgs(out, {QStringLiteral("--grid"), QStringLiteral("nonsense=1,2")}), &err), 1);
        QVERIFY2(err.contains(QStringLiteral("unknown parameter 'nonsense'")), qPrintable(err));
        QCOMPARE(runCli(sweepArgs(out, {QStringLiteral("--grid"), QStringLiteral("rows=")}), &err), 1);
        QCOMPARE(runCli(sweepArgs(out, {QStringLiteral("--grid"), QStringLiteral("rows=1:100000:3")}), &err),
                 1);
        QVERIFY2(err.contains(QStringLiteral("--grid rows=1:100000:3")), qPrintable(err));
        QCOMPARE(runCli(sweepArgs(out, {QStringLiteral("--seeds"), QStringLiteral("9..1")}), &err), 1);
        QCOMPARE(runCli(sweepArgs(out, {QStringLiteral("--jobs"), QStringLiteral("0")}), &err), 1);
        QVERIFY(!QFileInfo::exists(out)); // nothing was created before the plan was valid
        const QString badGame = dir.filePath(QStringLiteral("bad.nfg"));
        QFile g(badGame);
        QVERIFY(g.open(QIODevice::WriteOnly));
        g.write("NFG 1 R \"x\" { \"a\" } { 2 }\n1 2 3\n");
        g.close();
        QCOMPARE(runCli(sweepArgs(out, {QStringLiteral("--input"), badGame}), &err), 3);
        QVERIFY2(err.contains(QStringLiteral("bad.nfg")), qPrintable(err));
    }
};

QTEST_GUILESS_MAIN(TstSweep)
#include "tst_sweep.moc"
