// The ftrl-potential-games engine: parameter list, the result keys of the CLI contract, claims at
// the default seed, determinism, seed dependence of random games, user files (2 and 3 players,
// potential and not), error behaviour and cancellation of a long run.
#include "core/Errors.h"
#include "core/RunContext.h"
#include "games/FtrlPotentialEngine.h"

#include <QtTest>
#include <cmath>
#include <numeric>
#include <thread>

using pl::games::FtrlPotentialEngine;

class TstFtrlEngine : public QObject {
    Q_OBJECT
private slots:
    void identityAndParams();
    void defaultRunHasContractKeys();
    void defaultClaims();
    void deterministic();
    void randomGamesDependOnSeed();
    void everyDynamicsRuns_data();
    void everyDynamicsRuns();
    void loadedTwoPlayerGames();
    void loadedThreePlayerGame();
    void badInputs();
    void cancellation();
};

namespace {

QString gameFile(const char* name) {
    return QStringLiteral(PAPERLAB_SOURCE_DIR "/tests/data/games/") + name;
}

pl::ResultDocument runWith(const std::vector<std::pair<std::string, std::string>>& sets,
                           const pl::InputList& in = {}, uint64_t seed = 42) {
    FtrlPotentialEngine e;
    pl::ParamSet ps(e.params());
    for (const auto& [k, v] : sets)
        ps.setText(k, v);
    pl::RunContext ctx(seed);
    return e.run(in, ps, ctx);
}

const pl::Claim* findClaim(const pl::ResultDocument& d, const std::string& id) {
    for (const auto& c : d.claims)
        if (c.id == id)
            return &c;
    return nullptr;
}

bool hasNote(const pl::ResultDocument& d, const char* text) {
    for (const auto& n : d.notes)
        if (n.find(text) != std::string::npos)
            return true;
    return false;
}

} // namespace

void TstFtrlEngine::identityAndParams() {
    FtrlPotentialEngine e;
    QCOMPARE(e.id(), std::string("ftrl-potential-games"));
    QCOMPARE(e.maxInputs(), 1);
    QCOMPARE(e.inputExtensions(), (std::vector<std::string>{"nfg", "csv"}));
    const pl::ParamSet ps(e.params());
    QCOMPARE(ps.getString("dynamics"), std::string("ftrl_entropic"));
    QCOMPARE(ps.getString("update"), std::string("simultaneous"));
    QCOMPARE(ps.getString("schedule"), std::string("constant"));
    QCOMPARE(ps.getDouble("eta"), 3.0);
    QCOMPARE(ps.getString("game"), std::string("snake_linear"));
    QCOMPARE(ps.getInt("n"), int64_t(4));
    QCOMPARE(ps.getInt("max_steps"), int64_t(1000000));
    for (const char* key :
         {"ratio", "epsilon", "n_max_sweep", "n_max_sweep_ftrl", "tie_break", "tau", "start"})
        QVERIFY2(ps.has(key), key);
    const pl::ParamSpec* eta = ps.spec("eta");
    QVERIFY(eta->logScale);
    QCOMPARE(eta->min, 1e-2);
    QCOMPARE(eta->max, 1e4);
    const pl::ParamSpec* steps = ps.spec("max_steps");
    QCOMPARE(steps->min, 1e3);
    QCOMPARE(steps->max, 1e9);
}

void TstFtrlEngine::defaultRunHasContractKeys() {
    const pl::ResultDocument d = runWith({});
    for (const char* k : {"x", "y"})
        QVERIFY2(d.vectors.count(k), k);
    QCOMPARE(d.vectors.at("x").size(), size_t(4));
    for (const char* k : {"nash_gap", "steps_to_equilibrium", "is_potential"})
        QVERIFY2(d.metrics.count(k), k);
    for (const char* k : {"potential_vs_iteration", "nash_gap_vs_iteration", "steps_vs_n_fp",
                          "steps_vs_n_ftrl", "trajectory_x", "trajectory_y"})
        QVERIFY2(d.series.count(k), k);
    QVERIFY(d.matrices.count("payoff"));
    QCOMPARE(d.matrices.at("payoff").rowLabels.size(), size_t(4));
    QVERIFY(d.labels.count("period"));
    QCOMPARE(d.labels.at("period").size(), d.series.at("nash_gap_vs_iteration").x.size());
    // Exact FP on the hard instance (linear snake n = 4), and its exact decimal in the notes.
    QCOMPARE(d.metrics.at("steps_to_equilibrium"), 169284.0);
    QVERIFY(hasNote(d, "169284 (exact"));
    QCOMPARE(d.metrics.at("is_potential"), 1.0);
    // The default run ends at the equilibrium (4,4): entropic FTRL, eta = 3, 10^6 steps.
    QVERIFY(d.metrics.at("nash_gap") <= 1e-6);
    QCOMPARE(d.vectors.at("x")[3], 1.0);
    QCOMPARE(d.metrics.at("first_target_step"), 389235.0);
    // steps_vs_n_fp: n = 2..7; series x = n.
    const pl::Series& fp = d.series.at("steps_vs_n_fp");
    QCOMPARE(fp.x, (std::vector<double>{2, 3, 4, 5, 6, 7}));
    QCOMPARE(fp.y[3], 104963444.0);
    QCOMPARE(d.labels.at("period").back(), int64_t(15));
    // Round trip of the JSON contract.
    const pl::ResultDocument back = pl::ResultDocument::fromJson(d.toJson());
    QCOMPARE(back.metrics.at("steps_to_equilibrium"), 169284.0);
}

void TstFtrlEngine::defaultClaims() {
    const pl::ResultDocument d = runWith({});
    for (const char* id : {"fp-superexponential", "ftrl-approx-ne", "any-learning-rate",
                           "alternating-br-2n-2", "ftrl-slow-large-eta", "geometric-exponential"})
        QVERIFY2(findClaim(d, id), id);
    QVERIFY(findClaim(d, "fp-superexponential")->holds);
    QVERIFY(findClaim(d, "fp-superexponential")->observed > 1.0);
    QVERIFY(findClaim(d, "ftrl-approx-ne")->holds);
    QVERIFY(findClaim(d, "alternating-br-2n-2")->holds);
    QCOMPARE(findClaim(d, "alternating-br-2n-2")->observed, 6.0);
    QVERIFY(findClaim(d, "ftrl-slow-large-eta")->holds);
    QVERIFY(findClaim(d, "geometric-exponential")->holds);
    // Honest negative: small learning rates escape our snake quickly (the spec's pilot saw the same).
    const pl::Claim* any = findClaim(d, "any-learning-rate");
    QVERIFY(!any->holds);
    QVERIFY(any->observed < 5);
    QVERIFY(!any->detail.empty());
}

void TstFtrlEngine::deterministic() {
    const std::vector<std::pair<std::string, std::string>> sets{{"game", "random_potential"},
                                                                {"n", "5"},
                                                                {"dynamics", "fictitious_play"},
                                                                {"tie_break", "random"},
                                                                {"max_steps", "20000"}};
    const std::string a = runWith(sets, {}, 7).toJson();
    const std::string b = runWith(sets, {}, 7).toJson();
    QCOMPARE(a, b);
    const std::string c = runWith({{"max_steps", "5000"}}, {}, 1).toJson();
    QCOMPARE(c, runWith({{"max_steps", "5000"}}, {}, 1).toJson());
}

void TstFtrlEngine::randomGamesDependOnSeed() {
    const std::vector<std::pair<std::string, std::string>> sets{{"game", "random_identical"},
                                                                {"max_steps", "1000"}};
    const auto a = runWith(sets, {}, 1), b = runWith(sets, {}, 2);
    QVERIFY(a.matrices.at("payoff").data != b.matrices.at("payoff").data);
    QCOMPARE(a.metrics.at("is_potential"), 1.0);
}

void TstFtrlEngine::everyDynamicsRuns_data() {
    QTest::addColumn<QString>("dynamics");
    QTest::addColumn<QString>("update");
    QTest::addColumn<QString>("schedule");
    QTest::addColumn<QString>("game");
    QTest::newRow("euclidean") << "ftrl_euclidean"
                               << "simultaneous"
                               << "constant"
                               << "random_potential";
    QTest::newRow("mwu vanishing") << "mwu"
                                   << "simultaneous"
                                   << "vanishing"
                                   << "random_identical";
    QTest::newRow("fp alternating") << "fictitious_play"
                                    << "alternating"
                                    << "constant"
                                    << "snake_linear";
    QTest::newRow("entropic alternating geometric") << "ftrl_entropic"
                                                    << "alternating"
                                                    << "constant"
                                                    << "snake_geometric";
}

void TstFtrlEngine::everyDynamicsRuns() {
    QFETCH(QString, dynamics);
    QFETCH(QString, update);
    QFETCH(QString, schedule);
    QFETCH(QString, game);
    const auto d = runWith({{"dynamics", dynamics.toStdString()},
                            {"update", update.toStdString()},
                            {"schedule", schedule.toStdString()},
                            {"game", game.toStdString()},
                            {"max_steps", "20000"}});
    QCOMPARE(d.metrics.at("steps_run"), 20000.0);
    QVERIFY(std::isfinite(d.metrics.at("nash_gap")));
    QVERIFY(std::abs(std::accumulate(d.vectors.at("x").begin(), d.vectors.at("x").end(), 0.0) - 1) < 1e-12);
}

void TstFtrlEngine::loadedTwoPlayerGames() {
    FtrlPotentialEngine e;
    // Prisoner's dilemma: exact potential; FTRL reaches (2,2).
    const auto pd =
        runWith({{"max_steps", "20000"}}, {e.load(gameFile("prisoners-dilemma.nfg").toStdString())});
    QCOMPARE(pd.metrics.at("is_potential"), 1.0);
    QVERIFY(pd.matrices.count("potential"));
    QVERIFY(pd.metrics.at("nash_gap") < 1e-6);
    QVERIFY(pd.vectors.at("x")[1] > 0.999);
    QVERIFY(hasNote(pd, "loaded"));
    // 2x2 game with only a mixed equilibrium: loads, reported as not potential, potential series
    // is missing.
    const auto mp =
        runWith({{"max_steps", "20000"}}, {e.load(gameFile("unique-mixed-2x2.nfg").toStdString())});
    QCOMPARE(mp.metrics.at("is_potential"), 0.0);
    QVERIFY(hasNote(mp, "Not an exact potential game") || hasNote(mp, "not an exact potential game"));
    QVERIFY(std::isnan(mp.series.at("potential_vs_iteration").y.back()));
    QVERIFY(!mp.matrices.count("potential"));
    // CSV with two matrices.
    QTemporaryDir dir;
    const QString path = dir.filePath("coord.csv");
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("2,0\n0,1\n\n2,0\n0,1\n");
    f.close();
    const auto csv = runWith({{"max_steps", "5000"}}, {e.load(path.toStdString())});
    QCOMPARE(csv.metrics.at("is_potential"), 1.0);
    QCOMPARE(csv.matrices.at("payoff").rows, int64_t(2));
}

void TstFtrlEngine::loadedThreePlayerGame() {
    QTemporaryDir dir;
    const QString path = dir.filePath("three.nfg");
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    // Identical interest 2x2x2: 1 at (1,1,1), 3 at (2,2,2).
    f.write("NFG 1 R \"three\" { \"A\" \"B\" \"C\" } { 2 2 2 }\n1 1 1 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 3 "
            "3 3\n");
    f.close();
    FtrlPotentialEngine e;
    const auto d = runWith({{"max_steps", "5000"}, {"start", "uniform"}}, {e.load(path.toStdString())});
    QCOMPARE(d.metrics.at("is_potential"), 1.0);
    QVERIFY(d.vectors.count("strategy_3"));
    QVERIFY(d.series.count("trajectory_z"));
    QVERIFY(d.metrics.at("nash_gap") < 1e-6);
    QCOMPARE(d.labels.at("period").back(), int64_t(7));
    QVERIFY(findClaim(d, "ftrl-approx-ne")->holds);
}

void TstFtrlEngine::badInputs() {
    FtrlPotentialEngine e;
    QTemporaryDir dir;
    const QString path = dir.filePath("bad.csv");
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("1,2\n3,oops\n");
    f.close();
    try {
        e.load(path.toStdString());
        QFAIL("expected InputError");
    } catch (const pl::InputError& err) {
        QCOMPARE(int(err.line()), 2);
    }
    const auto pd = e.load(gameFile("prisoners-dilemma.nfg").toStdString());
    QVERIFY_THROWS_EXCEPTION(pl::UsageError, runWith({}, {pd, pd}));
    pl::ParamSet ps(e.params());
    QVERIFY_THROWS_EXCEPTION(pl::UsageError, ps.setText("eta", "0"));
    QVERIFY_THROWS_EXCEPTION(pl::UsageError, ps.setText("game", "snake_cubic"));
}

void TstFtrlEngine::cancellation() {
    FtrlPotentialEngine e;
    pl::ParamSet ps(e.params());
    ps.setText("max_steps", "1000000000");
    pl::RunContext ctx(1);
    std::thread stopper([&ctx] {
        std::this_thread::sleep_for(std::chrono::milliseconds(150));
        ctx.requestStop();
    });
    QElapsedTimer timer;
    timer.start();
    bool cancelled = false;
    try {
        e.run({}, ps, ctx);
    } catch (const pl::Cancelled&) {
        cancelled = true;
    }
    stopper.join();
    QVERIFY(cancelled);
    QVERIFY2(timer.elapsed() < 2000, qPrintable(QString::number(timer.elapsed())));
}

QTEST_APPLESS_MAIN(TstFtrlEngine)
#include "tst_ftrl_engine.moc"
