// Tests of the game model and the game file readers (.nfg, .csv, .npy) of paperlab_games.
#include "core/Errors.h"
#include "core/NpyReader.h"
#include "core/Rng.h"
#include "games/Game.h"
#include "games/GameLoader.h"
#include "games/NashGap.h"
#include "games/NfgReader.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

#include <fstream>
#include <limits>
#include <sstream>

using namespace pl::games;

namespace {

QString gamesDir() {
    return QStringLiteral(PAPERLAB_SOURCE_DIR "/tests/data/games");
}

std::string readAll(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return f.readAll().toStdString();
}

/// Expects parse() to throw InputError; returns it (line 0 when nothing was thrown).
pl::InputError expectInputError(const std::string& text, const std::string& name = "bad.nfg") {
    try {
        NfgReader::parse(text, name);
    } catch (const pl::InputError& e) {
        return e;
    }
    return pl::InputError(name, "NO ERROR THROWN", -1);
}

std::vector<double> numbersIn(const QString& text) {
    static const QRegularExpression num(
        QStringLiteral(R"((?<![\w."])[-+]?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?(?:/\d+)?)"));
    std::vector<double> out;
    auto it = num.globalMatch(text);
    while (it.hasNext()) {
        const QString t = it.next().captured(0);
        const int slash = int(t.indexOf('/'));
        out.push_back(slash < 0 ? t.toDouble() : t.left(slash).toDouble() / t.mid(slash + 1).toDouble());
    }
    return out;
}

/// Pure-strategy Nash equilibria by enumeration: cells where neither player gains by deviating.
int pureEquilibriumCount(const Eigen::MatrixXd& A, const Eigen::MatrixXd& B) {
    int n = 0;
    for (Eigen::Index i = 0; i < A.rows(); ++i)
        for (Eigen::Index j = 0; j < A.cols(); ++j)
            if (A(i, j) >= A.col(j).maxCoeff() && B(i, j) >= B.row(i).maxCoeff())
                ++n;
    return n;
}

Eigen::VectorXd rationalVector(const QStringList& tok, int first, int count) {
    Eigen::VectorXd v(count);
    for (int k = 0; k < count; ++k) {
        const QString t = tok.at(first + k);
        const int slash = int(t.indexOf('/'));
        v[k] = slash < 0 ? t.toDouble() : t.left(slash).toDouble() / t.mid(slash + 1).toDouble();
    }
    return v;
}

const char* kPayoffStyle = "NFG 1 R \"t\" { \"A\" \"B\" } { 2 2 }\n1 1 0 2 1 1 1 1\n";

} // namespace

class TestGamesIo : public QObject {
    Q_OBJECT

private slots:
    void gameModel();
    void examples_data();
    void examples();
    void everyExampleIsCovered();
    void outcomePayoffsMatchFile();
    void payoffStyle();
    void statedEquilibria();
    void numberFormatsAndStrings();
    void threePlayers();
    void broken_data();
    void broken();
    void sizeLimits();
    void constantSum();
    void csvMatrix();
    void npyMatrix();
    void loaderDispatch();
    void fuzzMutations();
};

void TestGamesIo::gameModel() {
    Eigen::MatrixXd A(2, 3), B(2, 3);
    A << 1, 2, 3, 4, 5, 6;
    B = -2 * A;
    const NormalFormGame g = NormalFormGame::fromBimatrix(A, B, "t");
    QCOMPARE(g.numPlayers(), 2);
    QCOMPARE(g.numProfiles(), int64_t(6));
    QCOMPARE(g.profileIndex({1, 2}), int64_t(1 + 2 * 2));
    QCOMPARE(g.payoff(0, {1, 2}), 6.0);
    QCOMPARE(g.payoff(1, {0, 1}), -4.0);
    QVERIFY(g.matrix(0) == A);
    QVERIFY(g.matrix(1) == B);
    QVERIFY_THROWS_EXCEPTION(pl::EngineError, g.profileIndex({2, 0}));
    QVERIFY_THROWS_EXCEPTION(pl::EngineError, g.profileIndex({0}));
    NormalFormGame g3;
    g3.numStrategies = {2, 2, 2};
    g3.payoffs.assign(3, std::vector<double>(8, 0.0));
    QVERIFY_THROWS_EXCEPTION(pl::EngineError, g3.matrix(0));
}

void TestGamesIo::examples_data() {
    QTest::addColumn<QString>("file");
    QTest::addColumn<int>("rows");
    QTest::addColumn<int>("cols");
    QTest::addColumn<bool>("outcomeStyle");
    QTest::newRow("battle of the sexes") << "battle-of-the-sexes.nfg" << 2 << 2 << true;
    QTest::newRow("constant sum") << "constant-sum-2x2.nfg" << 2 << 2 << false;
    QTest::newRow("coordination") << "coordination-3x3.nfg" << 3 << 3 << true;
    QTest::newRow("dominated by mixture") << "dominated-by-mixture-3x2.nfg" << 3 << 2 << false;
    QTest::newRow("identical interest") << "identical-interest-2x2.nfg" << 2 << 2 << false;
    QTest::newRow("oneill") << "oneill.nfg" << 4 << 4 << true;
    QTest::newRow("prisoner's dilemma") << "prisoners-dilemma.nfg" << 2 << 2 << true;
    QTest::newRow("random 8x8") << "random-8x8.nfg" << 8 << 8 << true;
    QTest::newRow("rock-paper-scissors") << "rock-paper-scissors.nfg" << 3 << 3 << true;
    QTest::newRow("unique mixed") << "unique-mixed-2x2.nfg" << 2 << 2 << true;
    QTest::newRow("zero") << "zero-2x2.nfg" << 2 << 2 << false;
    QTest::newRow("zero-sum 4x4") << "zero-sum-4x4.nfg" << 4 << 4 << true;
}

void TestGamesIo::examples() {
    QFETCH(QString, file);
    QFETCH(int, rows);
    QFETCH(int, cols);
    QFETCH(bool, outcomeStyle);
    const std::string path = (gamesDir() + "/" + file).toStdString();
    // Outcome style lists the strategies by name ("{ { ..."); payoff style gives counts ("{ 2 2 }").
    static const QRegularExpression strategyNames(QStringLiteral(R"(\{\s*\{)"));
    QCOMPARE(QString::fromStdString(readAll(gamesDir() + "/" + file)).contains(strategyNames), outcomeStyle);
    const NormalFormGame g = NfgReader::readFile(path);
    QCOMPARE(g.numPlayers(), 2);
    QCOMPARE(g.numStrategies[0], rows);
    QCOMPARE(g.numStrategies[1], cols);
    QCOMPARE(int(g.strategyNames[0].size()), rows);
    QCOMPARE(int(g.strategyNames[1].size()), cols);
    QCOMPARE(int64_t(g.payoffs[0].size()), int64_t(rows) * cols);
    auto in = loadGameFile(path);
    QCOMPARE(in->kind, std::string("nfg"));
    QVERIFY(in->summary.find(std::to_string(rows) + "x" + std::to_string(cols)) != std::string::npos);
}

void TestGamesIo::everyExampleIsCovered() {
    const QStringList files = QDir(gamesDir()).entryList({"*.nfg"}, QDir::Files);
    QVERIFY(files.size() >= 12);
    for (const QString& f : files) {
        const NormalFormGame g = NfgReader::readFile((gamesDir() + "/" + f).toStdString());
        QVERIFY2(g.numPlayers() >= 1 && g.numProfiles() >= 1, qPrintable(f));
    }
}

// Independent check of the outcome-style files: the outcome lines `{ "" u1, u2 }` and the final
// index line are read with regular expressions and compared with the parsed payoffs.
void TestGamesIo::outcomePayoffsMatchFile() {
    int checked = 0;
    for (const QString& f : QDir(gamesDir()).entryList({"*.nfg"}, QDir::Files)) {
        const QString text = QString::fromStdString(readAll(gamesDir() + "/" + f));
        static const QRegularExpression outcome(QStringLiteral(R"(^\{\s*"[^"]*"\s*([^}]*)\}\s*$)"),
                                                QRegularExpression::MultilineOption);
        std::vector<std::vector<double>> outcomes;
        auto it = outcome.globalMatch(text);
        while (it.hasNext()) {
            std::vector<double> u = numbersIn(it.next().captured(1));
            if (!u.empty()) // skips strategy-name lines such as { "1" "2" }
                outcomes.push_back(std::move(u));
        }
        if (outcomes.empty())
            continue; // payoff style
        const QStringList lines = text.trimmed().split('\n');
        const std::vector<double> idx = numbersIn(lines.last());
        const NormalFormGame g = NfgReader::readFile((gamesDir() + "/" + f).toStdString());
        QCOMPARE(int64_t(idx.size()), g.numProfiles());
        for (size_t k = 0; k < idx.size(); ++k)
            for (int p = 0; p < 2; ++p) {
                QVERIFY(idx[k] >= 0 && idx[k] <= double(outcomes.size()));
                QCOMPARE(outcomes[size_t(std::max(idx[k], 1.0)) - 1].size(), size_t(2));
                const double expected = idx[k] == 0 ? 0.0 : outcomes[size_t(idx[k]) - 1][size_t(p)];
                QVERIFY2(g.payoffs[size_t(p)][k] == expected, qPrintable(f));
            }
        ++checked;
    }
    QVERIFY(checked >= 8);
    // O'Neill: player 1's matrix as printed in the file (player 1's strategy changes fastest).
    const Eigen::MatrixXd A = NfgReader::readFile((gamesDir() + "/oneill.nfg").toStdString()).matrix(0);
    Eigen::MatrixXd expected(4, 4);
    expected << 1, -1, -1, -1, -1, -1, 1, 1, -1, 1, -1, 1, -1, 1, 1, -1;
    QVERIFY(A == expected);
    // Prisoner's dilemma: outcome 2 = (5, 0) sits at profile (row 2, column 1).
    const NormalFormGame pd = NfgReader::readFile((gamesDir() + "/prisoners-dilemma.nfg").toStdString());
    QCOMPARE(pd.payoff(0, {1, 0}), 5.0);
    QCOMPARE(pd.payoff(1, {1, 0}), 0.0);
    QCOMPARE(pd.payoff(1, {0, 1}), 5.0);
    QCOMPARE(pd.strategyNames[0][1], std::string("Defect"));
    // Outcome 0 is the all-zero outcome: the 4x4 zero-sum game uses it for its zero entries.
    Eigen::MatrixXd z(4, 4);
    z << 4, 0, 2, 1, 0, 4, 2, 1, 1, 1, 1, 0, 2, 2, 0, 3;
    const NormalFormGame zs = NfgReader::readFile((gamesDir() + "/zero-sum-4x4.nfg").toStdString());
    QVERIFY(zs.matrix(0) == z);
    QVERIFY(zs.matrix(1) == -z);
}

void TestGamesIo::payoffStyle() {
    // constant-sum-2x2.nfg: "3 0 0 3 1 2 2 1", profiles (1,1) (2,1) (1,2) (2,2).
    NormalFormGame g = NfgReader::readFile((gamesDir() + "/constant-sum-2x2.nfg").toStdString());
    Eigen::MatrixXd A(2, 2), B(2, 2);
    A << 3, 1, 0, 2;
    B << 0, 2, 3, 1;
    QVERIFY(g.matrix(0) == A);
    QVERIFY(g.matrix(1) == B);
    // identical-interest-2x2.nfg: "3 3 1 1 0 0 2 2": both players' matrices are [[3, 0], [1, 2]].
    g = NfgReader::readFile((gamesDir() + "/identical-interest-2x2.nfg").toStdString());
    A << 3, 0, 1, 2;
    QVERIFY(g.matrix(0) == A);
    QVERIFY(g.matrix(1) == A);
    // dominated-by-mixture-3x2.nfg: { 3 2 }, "3 1 0 0 1 2 0 0 3 1 1 0".
    g = NfgReader::readFile((gamesDir() + "/dominated-by-mixture-3x2.nfg").toStdString());
    A.resize(3, 2);
    B.resize(3, 2);
    A << 3, 0, 0, 3, 1, 1;
    B << 1, 0, 0, 1, 2, 0;
    QVERIFY(g.matrix(0) == A);
    QVERIFY(g.matrix(1) == B);
    QCOMPARE(g.strategyNames[0][2], std::string("3"));
    // "NFG 1 D" with decimals.
    g = NfgReader::readFile((gamesDir() + "/zero-2x2.nfg").toStdString());
    QVERIFY(g.matrix(0).isZero(0));
    QVERIFY(g.matrix(1).isZero(0));
    // Strategy names with payoff style, commas between payoffs.
    g = NfgReader::parse("NFG 1 R \"\" { \"a\" \"b\" } { { \"L\" \"R\" } { \"x\" } } 1, 2, 3, 4", "t.nfg");
    QCOMPARE(g.strategyNames[0][1], std::string("R"));
    QCOMPARE(g.payoff(0, {1, 0}), 3.0);
    QCOMPARE(g.payoff(1, {1, 0}), 4.0);
}

// Files whose title states "N Nash equilibria, P pure": P against enumeration of the pure
// profiles; with lrsnash installed, N against its enumeration of the extreme equilibria, each of
// which must be an equilibrium of the matrices our reader built (gap 0, payoffs as printed).
void TestGamesIo::statedEquilibria() {
    static const QRegularExpression stated(QStringLiteral(R"((\d+) Nash equilibria, (\d+) pure)"));
    struct Stated {
        QString file;
        int total, pure;
        Eigen::MatrixXd A, B;
    };
    std::vector<Stated> games;
    for (const QString& f : QDir(gamesDir()).entryList({"*.nfg"}, QDir::Files)) {
        const NormalFormGame g = NfgReader::readFile((gamesDir() + "/" + f).toStdString());
        const auto m = stated.match(QString::fromStdString(g.title));
        if (!m.hasMatch())
            continue;
        games.push_back({f, m.captured(1).toInt(), m.captured(2).toInt(), g.matrix(0), g.matrix(1)});
        QVERIFY2(pureEquilibriumCount(games.back().A, games.back().B) == games.back().pure, qPrintable(f));
    }
    QVERIFY(games.size() >= 3); // random-8x8, coordination-3x3, battle-of-the-sexes
    const QString lrs = QStandardPaths::findExecutable(QStringLiteral("lrsnash"));
    if (lrs.isEmpty())
        QSKIP("lrsnash (Debian lrslib) not installed: only the pure equilibria were checked");
    QTemporaryDir dir;
    for (const Stated& s : games) {
        QString text = QString("%1 %2\n\n").arg(s.A.rows()).arg(s.A.cols());
        for (const Eigen::MatrixXd* M : {&s.A, &s.B}) {
            for (Eigen::Index i = 0; i < M->rows(); ++i) {
                for (Eigen::Index j = 0; j < M->cols(); ++j)
                    text += QString::number(std::llround((*M)(i, j))) + " ";
                text += "\n";
            }
            text += "\n";
        }
        const QString path = dir.filePath(s.file + ".lrs");
        QFile out(path);
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(text.toUtf8());
        out.close();
        QProcess p;
        p.start(lrs, {path});
        QVERIFY(p.waitForFinished(60000));
        // "2 y_1 .. y_n u1" (player 2's strategy, player 1's payoff) precedes the lines
        // "1 x_1 .. x_m u2" of the equilibria that share that y.
        Eigen::VectorXd y;
        double u1 = 0;
        int found = 0, pure = 0;
        for (const QString& line : QString::fromUtf8(p.readAllStandardOutput()).split('\n')) {
            const QStringList tok = line.simplified().split(' ', Qt::SkipEmptyParts);
            if (tok.size() == s.A.cols() + 2 && tok.first() == "2") {
                y = rationalVector(tok, 1, int(s.A.cols()));
                u1 = rationalVector(tok, int(s.A.cols()) + 1, 1)[0];
            } else if (tok.size() == s.A.rows() + 2 && tok.first() == "1" && y.size() == s.A.cols()) {
                const Eigen::VectorXd x = rationalVector(tok, 1, int(s.A.rows()));
                const double u2 = rationalVector(tok, int(s.A.rows()) + 1, 1)[0];
                QVERIFY2(bimatrixNashGap(s.A, s.B, x, y) < 1e-12, qPrintable(s.file + ": " + line));
                QVERIFY(std::abs(x.dot(s.A * y) - u1) < 1e-12 && std::abs(x.dot(s.B * y) - u2) < 1e-12);
                pure += (x.array() > 0).count() == 1 && (y.array() > 0).count() == 1;
                ++found;
            }
        }
        QVERIFY2(found == s.total, qPrintable(QString("%1: lrsnash found %2").arg(s.file).arg(found)));
        QCOMPARE(pure, s.pure);
    }
}

void TestGamesIo::numberFormatsAndStrings() {
    const std::string text = "NFG 1 R \"a \\\"quoted\\\" title\" { \"P\\\\1\" \"P2\" } { 2 1 }\n"
                             "\"a comment\nover lines\"\n"
                             "{ { \"o1\" 3/2, -1/4 } { \"\" 1e-3 -.5 } { \"\" +2.5E+1, -7 } }\n"
                             "1 0\n";
    const NormalFormGame g = NfgReader::parse(text, "t.nfg");
    QCOMPARE(g.title, std::string("a \"quoted\" title"));
    QCOMPARE(g.playerNames[0], std::string("P\\1"));
    QCOMPARE(g.payoff(0, {0, 0}), 1.5);
    QCOMPARE(g.payoff(1, {0, 0}), -0.25);
    QCOMPARE(g.payoff(0, {1, 0}), 0.0); // outcome 0 = all zero
    const NormalFormGame h = NfgReader::parse(
        "NFG 1 R \"\" { \"1\" \"2\" } { 2 1 } { { \"\" 1e-3 -.5 } { \"\" +2.5E+1, -7 } } 2 1", "t");
    QCOMPARE(h.payoff(0, {0, 0}), 25.0);
    QCOMPARE(h.payoff(1, {1, 0}), -0.5);
    QCOMPARE(h.payoff(0, {1, 0}), 1e-3);
}

void TestGamesIo::threePlayers() {
    // 2x2x2, payoff style: profile k has (u1, u2, u3) = (k, 10k, 100k).
    std::string text = "NFG 1 R \"three\" { \"a\" \"b\" \"c\" } { 2 2 2 }\n";
    for (int k = 0; k < 8; ++k)
        text += std::to_string(k) + " " + std::to_string(10 * k) + " " + std::to_string(100 * k) + "\n";
    const NormalFormGame g = NfgReader::parse(text, "three.nfg");
    QCOMPARE(g.numPlayers(), 3);
    QCOMPARE(g.payoff(2, {1, 0, 1}), 100.0 * (1 + 4));
    QCOMPARE(g.payoff(1, {1, 1, 1}), 70.0);
}

void TestGamesIo::broken_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<int>("line");
    QTest::addColumn<QString>("reason");
    QTest::newRow("empty") << "" << 1 << "empty";
    QTest::newRow("blank") << "  \n\n" << 3 << "expected 'NFG'";
    QTest::newRow("not nfg") << "EFG 2 R \"x\" { }" << 1 << "expected 'NFG'";
    QTest::newRow("version") << "NFG 2 R \"\" { \"a\" } { 1 } 0" << 1 << "version";
    QTest::newRow("type") << "NFG 1 X \"\" { \"a\" } { 1 } 0" << 1 << "'R' or 'D'";
    QTest::newRow("no players") << "NFG 1 R \"\" { } { } " << 1 << "no players";
    QTest::newRow("count mismatch") << "NFG 1 R \"\"\n{ \"a\" \"b\" }\n{ 2 }\n1 2 3 4" << 3
                                    << "found strategies for 1";
    QTest::newRow("too many counts") << "NFG 1 R \"\" { \"a\" \"b\" }\n{ 2 2 2 }" << 2
                                     << "more strategy counts";
    QTest::newRow("zero count") << "NFG 1 R \"\" { \"a\" \"b\" } { 2 0 } 1" << 1 << "positive integer";
    QTest::newRow("fractional count")
        << "NFG 1 R \"\" { \"a\" \"b\" } { 2 1.5 } 1" << 1 << "positive integer";
    QTest::newRow("missing payoffs") << "NFG 1 R \"\" { \"a\" \"b\" } { 2 2 }\n1 1 0 2\n1 1 1\n"
                                     << 4 << "missing payoffs";
    QTest::newRow("too many payoffs") << "NFG 1 R \"\" { \"a\" \"b\" } { 2 2 }\n1 1 0 2 1 1 1 1\n9\n"
                                      << 3 << "after the last payoff";
    QTest::newRow("non-numeric") << "NFG 1 R \"\" { \"a\" \"b\" } { 2 2 }\n1 1 0 2\n1 abc 1 1\n"
                                 << 3 << "expected a number";
    QTest::newRow("bad number") << "NFG 1 R \"\" { \"a\" \"b\" } { 2 2 }\n1 1 0 2\n1 1.2.3 1 1\n"
                                << 3 << "not a number";
    QTest::newRow("zero denominator")
        << "NFG 1 R \"\" { \"a\" \"b\" } { 1 1 }\n\n1/0 1" << 3 << "zero denominator";
    QTest::newRow("huge number") << "NFG 1 R \"\" { \"a\" \"b\" } { 1 1 }\n1e999 1" << 2 << "range";
    QTest::newRow("outcome index") << "NFG 1 R \"\" { \"a\" \"b\" } { 2 1 }\n{ { \"\" 1, 2 } }\n1 2\n"
                                   << 3 << "not in 0..1";
    QTest::newRow("negative index") << "NFG 1 R \"\" { \"a\" \"b\" } { 2 1 }\n{ { \"\" 1, 2 } }\n1 -1\n"
                                    << 3 << "not in 0..1";
    QTest::newRow("missing index") << "NFG 1 R \"\" { \"a\" \"b\" } { 2 1 }\n{ { \"\" 1, 2 } }\n1\n"
                                   << 4 << "missing outcome indices";
    QTest::newRow("outcome payoffs") << "NFG 1 R \"\" { \"a\" \"b\" } { 2 1 }\n{\n{ \"\" 1, 2, 3 }\n}\n1 1\n"
                                     << 3 << "more than 2 payoffs";
    QTest::newRow("short outcome") << "NFG 1 R \"\" { \"a\" \"b\" } { 2 1 }\n{\n{ \"\" 1 }\n}\n1 1\n"
                                   << 3 << "has 1 payoffs";
    QTest::newRow("unterminated string")
        << "NFG 1 R \"\" { \"a\" \"b } { 2 1 }\n1 2 3 4" << 1 << "unterminated";
    QTest::newRow("unclosed outcomes") << "NFG 1 R \"\" { \"a\" \"b\" } { 1 1 }\n{ { \"\" 1, 2 }\n"
                                       << 3 << "closing the outcome list";
    QTest::newRow("binary") << QString::fromLatin1("NFG 1 R \"\" { \"a\" } { 2 }\n1 \x01\x02") << 2
                            << "unexpected character (byte 0x01)";
    QTest::newRow("truncated header")
        << "NFG 1 R \"title\" { \"a\" \"b\"" << 1 << "closing the list of players";
}

void TestGamesIo::broken() {
    QFETCH(QString, text);
    QFETCH(int, line);
    QFETCH(QString, reason);
    const pl::InputError e = expectInputError(text.toStdString());
    QVERIFY2(e.reason() != "NO ERROR THROWN", qPrintable(text));
    QVERIFY2(e.reason().find(reason.toStdString()) != std::string::npos, e.what());
    QCOMPARE(int(e.line()), line);
    QVERIFY(e.column() >= 1);
    QCOMPARE(e.file(), std::string("bad.nfg"));
}

void TestGamesIo::sizeLimits() {
    pl::InputError e = expectInputError("NFG 1 R \"\" { \"a\" \"b\" } { 10000 10000 }\n1 2");
    QVERIFY2(e.reason().find("strategy profiles") != std::string::npos, e.what());
    QVERIFY2(e.reason().find("GiB") != std::string::npos, e.what());
    std::string many = "NFG 1 R \"\" {";
    for (int p = 0; p < 65; ++p)
        many += " \"p\"";
    many += " } { }";
    e = expectInputError(many);
    QVERIFY2(e.reason().find("64 players") != std::string::npos, e.what());
    // 23 players with 2 strategies: 2^23 profiles is within the profile limit, but 23 payoff
    // tables of 2^23 doubles (1.44 GiB) are not.
    std::string wide = "NFG 1 R \"\" {";
    for (int p = 0; p < 23; ++p)
        wide += " \"p\"";
    wide += " } {";
    for (int p = 0; p < 23; ++p)
        wide += " 2";
    e = expectInputError(wide + " } 1 2 3");
    QVERIFY2(e.reason().find("payoff tables would need about 1.44 GiB") != std::string::npos, e.what());
    // Profiles overflowing int64 are refused before any multiplication overflows.
    e = expectInputError("NFG 1 R \"\" { \"a\" \"b\" \"c\" } { 1000000000 1000000000 1000000000 } 1");
    QVERIFY2(e.reason().find("strategy profiles") != std::string::npos, e.what());
}

void TestGamesIo::constantSum() {
    const auto load = [](const char* f) { return NfgReader::readFile((gamesDir() + "/" + f).toStdString()); };
    QVERIFY(isConstantSum(load("oneill.nfg")));
    QVERIFY(isConstantSum(load("zero-sum-4x4.nfg")));
    QVERIFY(isConstantSum(load("rock-paper-scissors.nfg")));
    QVERIFY(isConstantSum(load("constant-sum-2x2.nfg")));
    QVERIFY(isConstantSum(load("zero-2x2.nfg")));
    QVERIFY(!isConstantSum(load("identical-interest-2x2.nfg")));
    QVERIFY(!isConstantSum(load("prisoners-dilemma.nfg")));
    QVERIFY(!isConstantSum(load("unique-mixed-2x2.nfg")));
    try {
        zeroSumMatrix(load("prisoners-dilemma.nfg"), "prisoners-dilemma.nfg", false);
        QFAIL("prisoners-dilemma.nfg accepted as zero-sum");
    } catch (const pl::InputError& e) {
        QVERIFY2(e.reason().find("not zero-sum") != std::string::npos, e.what());
    }
    const Eigen::MatrixXd A = zeroSumMatrix(load("prisoners-dilemma.nfg"), "prisoners-dilemma.nfg", true);
    QCOMPARE(A(1, 0), 5.0);
    QCOMPARE(zeroSumMatrix(load("constant-sum-2x2.nfg"), "c", false)(1, 0), 0.0);
    QCOMPARE(zeroSumMatrix(load("constant-sum-2x2.nfg"), "c", false)(0, 0), 3.0);
}

void TestGamesIo::csvMatrix() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const auto write = [&](const char* name, const std::string& text) {
        const std::string p = dir.filePath(name).toStdString();
        std::ofstream(p, std::ios::binary) << text;
        return p;
    };
    const std::string good = write("g.csv", "rock,paper,scissors\n0,-1,1\n1,0,-1\n-1,1,0\n");
    const NormalFormGame g = readZeroSumCsv(good);
    QCOMPARE(g.numStrategies[0], 3);
    QCOMPARE(g.matrix(0)(0, 1), -1.0);
    QCOMPARE(g.matrix(1)(0, 1), 1.0);
    QCOMPARE(g.strategyNames[1][1], std::string("paper"));
    QVERIFY(isConstantSum(g));
    const auto expectError = [](const std::string& p, int64_t line, const char* what) {
        try {
            readZeroSumCsv(p);
            QFAIL("no error");
        } catch (const pl::InputError& e) {
            QVERIFY2(std::string(e.what()).find(what) != std::string::npos, e.what());
            if (line > 0)
                QCOMPARE(e.line(), line);
        }
    };
    expectError(write("ragged.csv", "1,2,3\n4,5\n"), 2, "ragged");
    expectError(write("text.csv", "1,2\n3,x\n"), 2, "not a number");
    expectError(write("empty.csv", ""), 0, "no numeric data");
    expectError(write("nan.csv", "1,nan\n2,3\n"), 1, "non-finite");
    expectError(dir.filePath("missing.csv").toStdString(), 0, "cannot open");
    std::string wide;
    for (int j = 0; j < 5001; ++j)
        wide += (j ? ",1" : "1");
    expectError(write("wide.csv", wide + "\n"), 0, "more than 5000 strategies");
}

void TestGamesIo::npyMatrix() {
    QTemporaryDir dir;
    const auto write = [&](const char* name, const std::vector<int64_t>& shape,
                           const std::vector<double>& data) {
        const std::string p = dir.filePath(name).toStdString();
        std::ofstream(p, std::ios::binary) << pl::writeNpy(shape, data);
        return p;
    };
    const NormalFormGame g = readZeroSumNpy(write("a.npy", {2, 3}, {1, 2, 3, 4, 5, 6}));
    QCOMPARE(g.numStrategies[0], 2);
    QCOMPARE(g.numStrategies[1], 3);
    QCOMPARE(g.matrix(0)(1, 0), 4.0);
    QCOMPARE(g.matrix(1)(0, 2), -3.0);
    for (auto bad : {std::make_pair(std::vector<int64_t>{4}, "2-d"),
                     std::make_pair(std::vector<int64_t>{1, 2, 2}, "2-d"),
                     std::make_pair(std::vector<int64_t>{0, 3}, "empty")}) {
        int64_t n = 1;
        for (auto d : bad.first)
            n *= d;
        try {
            readZeroSumNpy(write("bad.npy", bad.first, std::vector<double>(size_t(n), 1.0)));
            QFAIL("no error");
        } catch (const pl::InputError& e) {
            QVERIFY2(std::string(e.what()).find(bad.second) != std::string::npos, e.what());
        }
    }
    QVERIFY_THROWS_EXCEPTION(
        pl::InputError,
        readZeroSumNpy(write("inf.npy", {1, 2}, {1, std::numeric_limits<double>::infinity()})));
    // Truncated file.
    std::string bytes = pl::writeNpy({2, 2}, {1, 2, 3, 4});
    const std::string p = dir.filePath("trunc.npy").toStdString();
    std::ofstream(p, std::ios::binary) << bytes.substr(0, bytes.size() - 5);
    QVERIFY_THROWS_EXCEPTION(pl::InputError, readZeroSumNpy(p));
}

void TestGamesIo::loaderDispatch() {
    QTemporaryDir dir;
    const std::string upper = dir.filePath("GAME.NFG").toStdString();
    std::ofstream(upper) << kPayoffStyle;
    auto in = loadGameFile(upper);
    QCOMPARE(in->kind, std::string("nfg"));
    QCOMPARE(in->path, upper);
    QVERIFY2(in->summary.find("2x2 constant-sum game 't'") != std::string::npos, in->summary.c_str());
    const std::string csv = dir.filePath("m.csv").toStdString();
    std::ofstream(csv) << "1 2\n3 4\n";
    in = loadGameFile(csv);
    QVERIFY2(in->summary.find("2x2 zero-sum game") != std::string::npos, in->summary.c_str());
    const std::string txt = dir.filePath("m.txt").toStdString();
    std::ofstream(txt) << "1 2\n";
    QVERIFY_THROWS_EXCEPTION(pl::InputError, loadGameFile(txt));
    QVERIFY_THROWS_EXCEPTION(pl::InputError, loadGameFile(dir.filePath("none.nfg").toStdString()));
    QVERIFY_THROWS_EXCEPTION(pl::InputError, loadGameFile(dir.path().toStdString() + "/"));
}

// Random byte mutations of every example: the reader either parses or throws InputError.
void TestGamesIo::fuzzMutations() {
    pl::Rng rng(2024);
    int parsed = 0, refused = 0;
    for (const QString& f : QDir(gamesDir()).entryList({"*.nfg"}, QDir::Files)) {
        const std::string original = readAll(gamesDir() + "/" + f);
        for (int trial = 0; trial < 400; ++trial) {
            std::string s = original;
            const int edits = 1 + int(rng.uniformInt(4));
            for (int e = 0; e < edits && !s.empty(); ++e) {
                const size_t pos = size_t(rng.uniformInt(s.size()));
                switch (rng.uniformInt(5)) {
                case 0:
                    s[pos] = char(rng.uniformInt(256));
                    break;
                case 1:
                    s.erase(pos, 1 + size_t(rng.uniformInt(8)));
                    break;
                case 2:
                    s.insert(pos, 1, "{}\",-/.e0123456789 \n\\"[rng.uniformInt(21)]);
                    break;
                case 3:
                    s.resize(pos);
                    break;
                default:
                    s.insert(pos, s.substr(pos / 2, size_t(rng.uniformInt(16))));
                }
            }
            try {
                const NormalFormGame g = NfgReader::parse(s, "fuzz.nfg");
                QVERIFY(int64_t(g.payoffs.size()) == g.numPlayers());
                for (const auto& pay : g.payoffs)
                    QCOMPARE(int64_t(pay.size()), g.numProfiles());
                ++parsed;
            } catch (const pl::InputError& e) {
                QVERIFY(e.line() >= 1);
                ++refused;
            }
        }
    }
    QVERIFY(parsed > 0);
    QVERIFY(refused > 0);
}

QTEST_APPLESS_MAIN(TestGamesIo)
#include "tst_games_io.moc"
