// visual-persuasion engine: claims over seeds 1..3 (computed right from the reported metrics, each
// asserted as observed and logged), determinism, cancellation, the renderer's identity and the
// normaliser, the search within its budget for every optimiser, and the choice-log route (BT on
// the panel's own log against scipy.optimize.minimize, degenerate-log warning).
#include "common/PythonOracle.h"
#include "convimg/PersuasionEngine.h"
#include "convimg/PersuasionKeys.h"
#include "convimg/PersuasionSearch.h"
#include "convimg/PersuasionWorld.h"

#include "core/Errors.h"

#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <fstream>

using namespace pl::convimg;
namespace keys = pl::convimg::persuasion::keys;
using pl::test::havePython;
using pl::test::pythonLines;

namespace {

const pl::Claim* claimById(const pl::ResultDocument& d, const std::string& id) {
    for (const auto& c : d.claims)
        if (c.id == id)
            return &c;
    return nullptr;
}

pl::ParamSet small(const PersuasionEngine& e) {
    pl::ParamSet p(e.params());
    p.set(keys::param::kQueries, int64_t(400));
    p.set(keys::param::kIterations, int64_t(10));
    p.set(keys::param::kBootstrap, int64_t(5));
    p.set(keys::param::kEvalDuels, int64_t(100));
    p.set(keys::param::kProducts, int64_t(2));
    p.set(keys::param::kImageSize, int64_t(32));
    return p;
}

} // namespace

class TestPersuasion : public QObject {
    Q_OBJECT
private slots:
    void claimsOverThreeSeeds();
    void deterministic();
    void cancels();
    void rendererAndNormaliser();
    void searchStaysWithinBudget();
    void choiceLogMatchesScipy();
    void degenerateLogWarns();
};

void TestPersuasion::claimsOverThreeSeeds() {
    PersuasionEngine e;
    int held[3] = {0, 0, 0};
    for (uint64_t seed : {1u, 2u, 3u}) {
        pl::RunContext ctx(seed);
        const auto d = pl::runEngine(e, {}, pl::ParamSet(e.params()), ctx);
        const pl::Claim* c1 = claimById(d, keys::claim::kWins);
        const pl::Claim* c2 = claimById(d, keys::claim::kSpearman);
        const pl::Claim* c3 = claimById(d, keys::claim::kNormalisation);
        QVERIFY(c1 && c2 && c3);
        const auto& m = d.metrics;
        const double wr = m.at(keys::metric::kWinRate), lcb = m.at(keys::metric::kWinRateLcb);
        const double wrn = m.at(keys::metric::kWinRateNormalised), rho = m.at(keys::metric::kSpearman);
        // The claims are computed from the reported metrics.
        QCOMPARE(m.at(keys::metric::kDuels), 400.0);
        QCOMPARE(wr, m.at(keys::metric::kDuelWins) / 400.0);
        QVERIFY(lcb < wr && lcb > wr - 0.1);
        QVERIFY(m.at(keys::metric::kQueriesUsed) <= 2000);
        QCOMPARE(c1->holds, wr >= 0.7 && lcb > 0.5);
        QCOMPARE(c2->holds, rho >= 0.8);
        const double removed = 1 - (wrn - 0.5) / (wr - 0.5);
        QCOMPARE(c3->holds, wr > 0.5 && removed >= 0.5);
        held[0] += c1->holds;
        held[1] += c2->holds;
        held[2] += c3->holds;
        QCOMPARE(d.vectors.at(keys::vector::kBtCoef).size(), size_t(editCount()));
        QCOMPARE(d.vectors.at(keys::vector::kTrueCoef).size(), size_t(editCount()));
        qInfo("seed %llu: win rate %.3f (Wilson lower %.3f), normalised %.3f (excess removed %.2f), "
              "Spearman %.3f, queries %g, agent fit R^2 %.3f, search position bias %.3f",
              (unsigned long long)seed, wr, lcb, wrn, removed, rho, m.at(keys::metric::kQueriesUsed),
              m.at(keys::metric::kAgentFitR2), m.at(keys::metric::kSearchPositionBias));
    }
    qInfo("claims held over 3 seeds: wins %d, Spearman %d, normalisation %d", held[0], held[1], held[2]);
    QVERIFY(held[0] >= 2); // the spec's claims, asserted on at least 2 of 3 seeds
    QVERIFY(held[2] >= 2);
    QEXPECT_FAIL("",
                 "on our workload the BT ranking of the weak edits is noisy (Spearman ~0.6-0.7); the claim "
                 "does not reproduce",
                 Continue);
    QVERIFY(held[1] >= 2);
}

void TestPersuasion::deterministic() {
    PersuasionEngine e;
    const pl::ParamSet p = small(e);
    pl::RunContext c1(4), c2(4), c3(5);
    const auto a = pl::runEngine(e, {}, p, c1), b = pl::runEngine(e, {}, p, c2),
               c = pl::runEngine(e, {}, p, c3);
    QCOMPARE(a.vectors.at(keys::vector::kBtCoef), b.vectors.at(keys::vector::kBtCoef));
    QCOMPARE(a.metrics.at(keys::metric::kWinRate), b.metrics.at(keys::metric::kWinRate));
    QCOMPARE(a.series.at(keys::series::kWinRateVsIteration).y,
             b.series.at(keys::series::kWinRateVsIteration).y);
    QVERIFY(a.vectors.at(keys::vector::kBtCoef) != c.vectors.at(keys::vector::kBtCoef));
}

void TestPersuasion::cancels() {
    PersuasionEngine e;
    pl::RunContext ctx(1);
    ctx.requestStop();
    QVERIFY_THROWS_EXCEPTION(pl::Cancelled, e.run({}, pl::ParamSet(e.params()), ctx));
}

void TestPersuasion::rendererAndNormaliser() {
    QCOMPARE(editCount(), 27);
    const Variant o = originalVariant();
    const Image a = renderProduct(1, o, 48);
    Variant bg = o;
    bg[0] = 5; // wood background: the product's pixels (identity) are unchanged
    const Image b = renderProduct(1, bg, 48);
    QCOMPARE(a.mask, b.mask);
    double objDiff = 0, bgDiff = 0;
    for (Eigen::Index j = 0; j < a.mask.size(); ++j)
        (a.mask(j) > 0.5 ? objDiff : bgDiff) += (a.rgb.col(j) - b.rgb.col(j)).norm();
    QCOMPARE(objDiff, 0.0);
    QVERIFY(bgDiff > 10);
    // Normalised: a background-only edit leaves no trace; the object is centred.
    const Image na = normaliseImage(a), nb = normaliseImage(b);
    QVERIFY((na.rgb - nb.rgb).norm() < 1e-12);
    double mx = 0, n = 0;
    for (int j = 0; j < 48 * 48; ++j)
        if (na.mask(j) > 0.5) {
            mx += j % 48;
            ++n;
        }
    QVERIFY(std::abs(mx / n - 23.5) <= 1.0);
    const auto w = wilsonInterval(7, 10); // statsmodels proportion_confint(7, 10, method="wilson")
    QVERIFY(std::abs(w.first - 0.396774) < 1e-5 && std::abs(w.second - 0.892208) < 1e-5);
}

void TestPersuasion::searchStaysWithinBudget() {
    const PersuasionAgent agent(AgentTaste::Planted, 32, 2, 1.0, 0.3, pl::Rng(3));
    QVERIFY2(agent.fitR2() > 0.5, qPrintable(QString::number(agent.fitR2())));
    for (Optimiser opt : {Optimiser::Vfd, Optimiser::Cvpo, Optimiser::Vtg}) {
        DuelOracle oracle(agent, 2, 32);
        const SearchOutcome so = runSearch(opt, oracle, 300, 10, 0.01, pl::Rng(4), [](int) {});
        QVERIFY(oracle.queries() <= 300 && oracle.queries() >= 200);
        QCOMPARE(int(oracle.log().size()), oracle.queries());
        QCOMPARE(so.incumbents.size(), size_t(10));
        QCOMPARE(so.best, so.incumbents.back());
    }
}

void TestPersuasion::choiceLogMatchesScipy() {
    if (!havePython("numpy, scipy"))
        QSKIP("python3 absent");
    QTemporaryDir dir;
    const QString path =
        QStringLiteral(PAPERLAB_SOURCE_DIR "/resources/examples/visual-persuasion/agent-choices.csv");
    PersuasionEngine e;
    pl::RunContext ctx(1);
    const auto d = pl::runEngine(e, {e.load(path.toStdString())}, small(e), ctx);
    const auto& u = d.vectors.at(keys::vector::kBtUtility);
    const char* script = R"(
import sys, csv, numpy as np
from scipy.optimize import minimize
rows = list(csv.DictReader(open(sys.argv[1])))
names = sorted(set(r['image_a'] for r in rows) | set(r['image_b'] for r in rows))
ix = {n: i for i, n in enumerate(names)}; n = len(names); l2 = 0.01
X = np.zeros((len(rows), n))
for k, r in enumerate(rows): X[k, ix[r['image_a']]] += 1; X[k, ix[r['image_b']]] -= 1
s = np.array([1 if r['chosen'] == 'a' else -1 for r in rows]); o = np.array([1 if r['order'] == 'ab' else -1 for r in rows])
def f(t):
    z = s * (X @ t[:n] + t[n] * o); return -(np.sum(-np.logaddexp(0, -z)) - 0.5 * l2 * t[:n] @ t[:n])
def g(t):
    z = s * (X @ t[:n] + t[n] * o); q = 1 / (1 + np.exp(z))
    return -np.concatenate([X.T @ (s * q) - l2 * t[:n], [np.sum(s * o * q)]])
r = minimize(f, np.zeros(n + 1), jac=g, method='BFGS', options={'gtol': 1e-11, 'maxiter': 10000})
z = s * (X @ r.x[:n] + r.x[n] * o)
print(' '.join(repr(v) for v in r.x)); print(repr(np.sum(-np.logaddexp(0, -z))))
)";
    const QStringList out = pythonLines(script, {path});
    QCOMPARE(out.size(), 2);
    const QStringList x = out[0].split(' ');
    QCOMPARE(x.size(), int(u.size()) + 1);
    for (size_t i = 0; i < u.size(); ++i)
        QVERIFY2(std::abs(u[i] - x[int(i)].toDouble()) < 1e-5, qPrintable(x[int(i)]));
    QVERIFY(std::abs(d.metrics.at(keys::metric::kPositionBias) - x.back().toDouble()) < 1e-5);
    QVERIFY(std::abs(d.metrics.at(keys::metric::kLogLikelihood) - out[1].toDouble()) < 1e-6);
    QVERIFY(d.metrics.at(keys::metric::kPositionBias) > 0); // the example's agent favours the first shown
}

void TestPersuasion::degenerateLogWarns() {
    QTemporaryDir dir;
    const QString path = dir.filePath("same.csv");
    std::ofstream(path.toStdString()) << "image_a,image_b,chosen,order\nx,y,a,ab\ny,z,a,ab\nx,z,a,ab\n";
    PersuasionEngine e;
    pl::RunContext ctx(1);
    const auto d = pl::runEngine(e, {e.load(path.toStdString())}, small(e), ctx);
    bool warned = false;
    for (const auto& n : d.notes)
        warned = warned || n.find("not identifiable") != std::string::npos;
    QVERIFY(warned);
    QCOMPARE(d.vectors.at(keys::vector::kBtUtility).size(), size_t(3));
}

QTEST_GUILESS_MAIN(TestPersuasion)
#include "tst_persuasion.moc"
