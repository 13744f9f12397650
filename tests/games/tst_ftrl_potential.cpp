// Exact-potential detection (two players: interaction contrasts of A - B; N players: the
// Monderer-Shapley 4-cycle test), on Gambit example files with known structure and on random
// games built to be (or not to be) potential games; the ftrl panel's CSV and .nfg loading.
#include "core/Errors.h"
#include "core/Rng.h"
#include "games/FtrlGameFile.h"
#include "games/NfgReader.h"
#include "games/PotentialCheck.h"
#include "games/PotentialGenerators.h"
#include "games/SnakeGame.h"

#include <QtTest>
#include <cmath>

using namespace pl::games;

class TstFtrlPotential : public QObject {
    Q_OBJECT
private slots:
    void knownFiles_data();
    void knownFiles();
    void potentialReproducesDeviations();
    void identicalInterestPotentialIsA();
    void randomPotentialGames();
    void perturbationBreaksPotential();
    void threePlayerGames();
    void nPlayerAgreesWithTwoPlayer();
    void csvOneAndTwoMatrices();
    void csvErrors_data();
    void csvErrors();
    void nfgLimits();
};

namespace {

QString gameFile(const char* name) {
    return QStringLiteral(PAPERLAB_SOURCE_DIR "/tests/data/games/") + name;
}

/// Random N-player exact potential game: u_p(a) = Phi(a) + h_p(a_{-p}).
NormalFormGame randomPotentialTensor(const std::vector<int>& ns, pl::Rng& rng) {
    NormalFormGame g;
    g.numStrategies = ns;
    int64_t P = 1;
    for (int k : ns)
        P *= k;
    std::vector<double> phi(static_cast<size_t>(P));
    for (auto& v : phi)
        v = rng.uniform(-1, 1);
    g.payoffs.assign(ns.size(), std::vector<double>(size_t(P)));
    for (size_t p = 0; p < ns.size(); ++p) {
        // h_p depends on a_{-p}: draw one value per profile with a_p = 0 and copy it along a_p.
        int64_t stride = 1;
        for (size_t q = 0; q < p; ++q)
            stride *= ns[q];
        std::vector<double> h(static_cast<size_t>(P));
        for (int64_t a = 0; a < P; ++a) {
            const int ap = int((a / stride) % ns[p]);
            h[size_t(a)] = ap == 0 ? rng.uniform(-1, 1) : h[size_t(a - ap * stride)];
        }
        for (int64_t a = 0; a < P; ++a)
            g.payoffs[p][size_t(a)] = phi[size_t(a)] + h[size_t(a)];
    }
    return g;
}

} // namespace

void TstFtrlPotential::knownFiles_data() {
    QTest::addColumn<QString>("file");
    QTest::addColumn<bool>("potential");
    // pd: A - B = [[0,-5],[5,0]] is additively separable (an exact potential game).
    QTest::newRow("prisoner's dilemma") << gameFile("prisoners-dilemma.nfg") << true;
    // coordination: diag(4,2,1) vs diag(1,2,4): a coordination game, but A - B = diag(3,0,-3) is
    // not separable, so it is NOT an exact potential game (only an ordinal one).
    QTest::newRow("3x3 coordination") << gameFile("coordination-3x3.nfg") << false;
    QTest::newRow("unique mixed 2x2") << gameFile("unique-mixed-2x2.nfg") << false;
    // Both matrices have the interaction contrast 2 + 1 = 3: an exact potential game that is
    // neither symmetric nor identical-interest.
    QTest::newRow("battle of the sexes") << gameFile("battle-of-the-sexes.nfg") << true;
    QTest::newRow("identical payoffs") << gameFile("identical-interest-2x2.nfg") << true;
    QTest::newRow("constant sum") << gameFile("constant-sum-2x2.nfg") << false;
    QTest::newRow("zero game") << gameFile("zero-2x2.nfg") << true;
    QTest::newRow("zero-sum 4x4") << gameFile("zero-sum-4x4.nfg") << false;
    QTest::newRow("O'Neill zero-sum") << gameFile("oneill.nfg") << false;
    QTest::newRow("rock-paper-scissors") << gameFile("rock-paper-scissors.nfg") << false;
}

void TstFtrlPotential::knownFiles() {
    QFETCH(QString, file);
    QFETCH(bool, potential);
    const NormalFormGame g = NfgReader::readFile(file.toStdString());
    const PotentialReport r = checkPotential(g.matrix(0), g.matrix(1));
    QCOMPARE(r.isPotential, potential);
    QVERIFY(!r.detail.empty());
    const PotentialReport rn = checkPotential(g.numStrategies, g.payoffs);
    QCOMPARE(rn.isPotential, potential);
    QCOMPARE(rn.maxContrast, r.maxContrast);
    if (potential)
        QVERIFY(r.maxDeviation <= 1e-12);
    // D = B - A = diag(-3, 0, 3): the 4-cycle through (1,1) and (2,3) gives D23 - D13 - D21 + D11
    // = 0 - 0 - 0 - 3; through (2,2) -3 + 0; through (3,3) 3 - 3 = 0. Largest |sum|: 3.
    if (file.endsWith("coordination-3x3.nfg"))
        QCOMPARE(r.maxContrast, 3.0);
}

void TstFtrlPotential::potentialReproducesDeviations() {
    const NormalFormGame g = NfgReader::readFile(gameFile("prisoners-dilemma.nfg").toStdString());
    const Eigen::MatrixXd A = g.matrix(0), B = g.matrix(1);
    const PotentialReport r = checkPotential(A, B);
    QVERIFY(r.isPotential);
    for (int i = 0; i < 2; ++i)
        for (int k = 0; k < 2; ++k)
            for (int j = 0; j < 2; ++j) {
                QCOMPARE(A(i, j) - A(k, j), r.phi(i, j) - r.phi(k, j));
                QCOMPARE(B(j, i) - B(j, k), r.phi(j, i) - r.phi(j, k));
            }
}

void TstFtrlPotential::identicalInterestPotentialIsA() {
    const FtrlGame g = makeLinearSnake(5);
    const PotentialReport r = checkPotential(g.A, g.B);
    QVERIFY(r.isPotential);
    QCOMPARE(r.maxContrast, 0.0);
    QVERIFY((r.phi - g.A).cwiseAbs().maxCoeff() == 0.0);
}

void TstFtrlPotential::randomPotentialGames() {
    pl::Rng rng(2024);
    for (int trial = 0; trial < 20; ++trial) {
        const int rows = 2 + int(rng.uniformInt(7)), cols = 2 + int(rng.uniformInt(7));
        const FtrlGame g = makeRandomPotentialGame(rows, cols, rng);
        const PotentialReport r = checkPotential(g.A, g.B);
        QVERIFY(r.isPotential);
        QVERIFY(r.maxDeviation < 1e-12);
        // The target is the potential maximiser (a pure Nash equilibrium).
        Eigen::Index bi = 0, bj = 0;
        r.phi.maxCoeff(&bi, &bj);
        QCOMPARE(r.phi(g.targetRow, g.targetCol), r.phi(bi, bj));
        QVERIFY(g.A(g.targetRow, g.targetCol) >= g.A.col(g.targetCol).maxCoeff());
        QVERIFY(g.B(g.targetRow, g.targetCol) >= g.B.row(g.targetRow).maxCoeff());
        QVERIFY(g.exact.has_value());
        const FtrlGame h = makeRandomIdenticalGame(rows, cols, rng);
        QVERIFY(checkPotential(h.A, h.B).isPotential);
    }
}

void TstFtrlPotential::perturbationBreaksPotential() {
    pl::Rng rng(5);
    const FtrlGame g = makeRandomPotentialGame(4, 5, rng);
    Eigen::MatrixXd A = g.A;
    A(2, 3) += 1e-3;
    const PotentialReport r = checkPotential(A, g.B);
    QVERIFY(!r.isPotential);
    QVERIFY(std::abs(r.maxContrast - 1e-3) < 1e-9);
    QVERIFY(r.phi.size() == 0);
    // A perturbation below the tolerance is accepted.
    A = g.A;
    A(2, 3) += 1e-13;
    QVERIFY(checkPotential(A, g.B).isPotential);
}

void TstFtrlPotential::threePlayerGames() {
    pl::Rng rng(99);
    for (const std::vector<int>& ns :
         {std::vector<int>{2, 2, 2}, std::vector<int>{3, 2, 4}, std::vector<int>{2, 3, 2, 2}}) {
        NormalFormGame g = randomPotentialTensor(ns, rng);
        const PotentialReport r = checkPotential(g.numStrategies, g.payoffs);
        QVERIFY(r.isPotential);
        QVERIFY(r.maxDeviation < 1e-12);
        g.payoffs[1][3] += 0.01; // one payoff of one player
        const PotentialReport bad = checkPotential(g.numStrategies, g.payoffs);
        QVERIFY(!bad.isPotential);
        QVERIFY(bad.maxContrast > 0.005);
    }
    // A 3-player .nfg in payoff style: identical interest (u1 = u2 = u3), hence potential.
    const std::string text = "NFG 1 R \"three\" { \"A\" \"B\" \"C\" } { 2 2 2 }\n"
                             "1 1 1 0 0 0 0 0 0 2 2 2 0 0 0 3 3 3 0 0 0 5 5 5\n";
    const NormalFormGame t = NfgReader::parse(text, "three.nfg");
    const PotentialReport rt = checkPotential(t.numStrategies, t.payoffs);
    QVERIFY(rt.isPotential);
    QCOMPARE(rt.phiFlat, t.payoffs[0]);
}

void TstFtrlPotential::nPlayerAgreesWithTwoPlayer() {
    pl::Rng rng(3);
    for (int trial = 0; trial < 10; ++trial) {
        Eigen::MatrixXd A = Eigen::MatrixXd::Random(3, 4), B = Eigen::MatrixXd::Random(3, 4);
        if (trial % 2 == 0)
            B = A + Eigen::VectorXd::Random(3).replicate(1, 4); // B = A + d(i): potential
        const NormalFormGame g = NormalFormGame::fromBimatrix(A, B);
        const PotentialReport r2 = checkPotential(A, B);
        const PotentialReport rn = checkPotential(g.numStrategies, g.payoffs);
        QCOMPARE(r2.isPotential, trial % 2 == 0);
        QCOMPARE(rn.isPotential, r2.isPotential);
        QCOMPARE(rn.maxContrast, r2.maxContrast);
    }
}

void TstFtrlPotential::csvOneAndTwoMatrices() {
    const NormalFormGame one = parseFtrlCsvGame("# identical interest\n1,0\n0,2\n", "one.csv");
    QCOMPARE(one.numPlayers(), 2);
    QVERIFY(one.payoffs[0] == one.payoffs[1]);
    QCOMPARE(one.matrix(0)(1, 1), 2.0);
    const NormalFormGame two = parseFtrlCsvGame("9,0\n10,1\n\n9,10\n0,1\n", "pd.csv");
    QCOMPARE(two.matrix(0)(1, 0), 10.0);
    QCOMPARE(two.matrix(1)(0, 1), 10.0);
    QVERIFY(checkPotential(two.matrix(0), two.matrix(1)).isPotential);
    // Through the file loader, with extension dispatch and summary.
    QTemporaryDir dir;
    const QString path = dir.filePath("g.CSV");
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("1 2 3\n4 5 6\n");
    f.close();
    const auto in = loadFtrlGameFile(path.toStdString());
    QCOMPARE(in->game.numStrategies, (std::vector<int>{2, 3}));
    QVERIFY(QString::fromStdString(in->summary).contains("identical interest"));
}

void TstFtrlPotential::csvErrors_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<int>("line");
    QTest::newRow("shape mismatch") << "1,2\n3,4\n\n1,2,3\n4,5,6\n" << 4;
    QTest::newRow("three matrices") << "1\n\n2\n\n3\n" << 5;
    QTest::newRow("non-numeric") << "1,2\n3,x\n" << 2;
    QTest::newRow("ragged") << "1,2\n3\n" << 2;
    QTest::newRow("empty") << "# nothing\n\n" << 0;
}

void TstFtrlPotential::csvErrors() {
    QFETCH(QString, text);
    QFETCH(int, line);
    try {
        parseFtrlCsvGame(text.toStdString(), "bad.csv");
        QFAIL("expected an InputError");
    } catch (const pl::InputError& e) {
        QCOMPARE(e.file(), std::string("bad.csv"));
        QCOMPARE(int(e.line()), line);
    }
}

void TstFtrlPotential::nfgLimits() {
    QTemporaryDir dir;
    // Five players: refused (the panel takes at most four).
    const QString path = dir.filePath("five.nfg");
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("NFG 1 R \"five\" { \"1\" \"2\" \"3\" \"4\" \"5\" } { 1 1 1 1 1 }\n1 2 3 4 5\n");
    f.close();
    QVERIFY_THROWS_EXCEPTION(pl::InputError, loadFtrlGameFile(path.toStdString()));
    QVERIFY_THROWS_EXCEPTION(pl::InputError, loadFtrlGameFile(dir.filePath("missing.nfg").toStdString()));
    QVERIFY_THROWS_EXCEPTION(pl::InputError, loadFtrlGameFile(dir.filePath("game.txt").toStdString()));
    const auto pd = loadFtrlGameFile(gameFile("prisoners-dilemma.nfg").toStdString());
    QCOMPARE(pd->kind, std::string("nfg"));
    QCOMPARE(pd->game.numPlayers(), 2);
}

QTEST_APPLESS_MAIN(TstFtrlPotential)
#include "tst_ftrl_potential.moc"
