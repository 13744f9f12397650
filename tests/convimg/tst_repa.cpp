// repa-physics engine: claims over three seeds (equal inference MACs always; lower generated
// residual in at least 2 of 3, logged), determinism, the MAC count against a hand count,
// cancellation, and bad inputs (shape mismatch, K <= 0, incompatible source) through the engine.
#include "convimg/RepaEngine.h"
#include "convimg/RepaKeys.h"
#include "convimg/RepaTraining.h"

#include "core/Errors.h"
#include "core/NpyReader.h"

#include <QTemporaryDir>
#include <QtTest>

#include <fstream>

using namespace pl::convimg;
namespace keys = pl::convimg::repa::keys;

namespace {

const pl::Claim* claimById(const pl::ResultDocument& d, const std::string& id) {
    for (const auto& c : d.claims)
        if (c.id == id)
            return &c;
    return nullptr;
}

void saveText(const QString& path, const std::string& text) {
    std::ofstream(path.toStdString()) << text;
}

std::string grid(int n, double v, int badRow = -1, int badCol = -1, double bad = 0) {
    std::string s;
    for (int y = 0; y < n; ++y) {
        for (int x = 0; x < n; ++x)
            s += (x ? "," : "") + std::to_string(y == badRow && x == badCol ? bad : v);
        s += "\n";
    }
    return s;
}

} // namespace

class TestRepa : public QObject {
    Q_OBJECT
private slots:
    void claimsOverThreeSeeds();
    void deterministic();
    void macsMatchHandCount();
    void cancels();
    void badInputs();
};

void TestRepa::claimsOverThreeSeeds() {
    RepaEngine e;
    int lower = 0;
    for (uint64_t seed : {1u, 2u, 3u}) {
        pl::RunContext ctx(seed);
        const auto d = pl::runEngine(e, {}, pl::ParamSet(e.params()), ctx);
        const pl::Claim* macs = claimById(d, keys::claim::kEqualMacs);
        const pl::Claim* res = claimById(d, keys::claim::kLowerResidual);
        QVERIFY(macs && res);
        QVERIFY(macs->holds);
        QCOMPARE(d.metrics.at(keys::metric::kMacsBaseline), d.metrics.at(keys::metric::kMacsRepa));
        QVERIFY(d.metrics.at(keys::metric::kHeadMacs) > 0);
        QVERIFY(d.metrics.at(keys::metric::kResidualTrue) < 1e-12);
        const double rb = d.metrics.at(keys::metric::kResidualGenBaseline),
                     rr = d.metrics.at(keys::metric::kResidualGenRepa);
        QCOMPARE(res->holds, rr < rb);
        lower += res->holds ? 1 : 0;
        qInfo("seed %llu: generated mean R^2 baseline %.4g, REPA-P %.4g; RMSE %.4g / %.4g; iterations to "
              "target %g / %g",
              (unsigned long long)seed, rb, rr, d.metrics.at(keys::metric::kErrorGenBaseline),
              d.metrics.at(keys::metric::kErrorGenRepa), d.metrics.at(keys::metric::kItersBaseline),
              d.metrics.at(keys::metric::kItersRepa));
    }
    qInfo("REPA-P below the baseline in %d of 3 seeds (spec: at least 2)", lower);
    QEXPECT_FAIL("",
                 "on our 300-iteration workload REPA-P's head residual dominates the loss; the claim does "
                 "not reproduce",
                 Continue);
    QVERIFY(lower >= 2);
}

void TestRepa::deterministic() {
    RepaEngine e;
    pl::ParamSet p(e.params());
    p.set(keys::param::kIterations, int64_t(100));
    p.set(keys::param::kFields, int64_t(32));
    p.set(keys::param::kSteps, int64_t(20));
    pl::RunContext c1(9), c2(9), c3(10);
    const auto a = pl::runEngine(e, {}, p, c1), b = pl::runEngine(e, {}, p, c2),
               c = pl::runEngine(e, {}, p, c3);
    QCOMPARE(a.matrices.at(keys::matrix::kPGenerated).data, b.matrices.at(keys::matrix::kPGenerated).data);
    QCOMPARE(a.series.at("loss_repa").y, b.series.at("loss_repa").y);
    QVERIFY(a.matrices.at(keys::matrix::kPGenerated).data != c.matrices.at(keys::matrix::kPGenerated).data);
}

void TestRepa::macsMatchHandCount() {
    RepaProblem pr;
    pr.n = 16;
    RepaNetConfig cfg{pr.inChannels(), pr.outChannels(), 8, 4, 16, {2, 3}};
    RepaNet net(cfg, pl::Rng(1));
    const int64_t P = 256, C = 8;
    const int64_t hand = C * 16 + 5 * 9 * C * P + 4 * (2 * C * C + C * 9 * C * P) + C * 1 * P;
    QCOMPARE(denoiserMacs(net, pr, false), hand);
    QCOMPARE(denoiserMacs(net, pr, true), hand + 2 * C * P);
}

void TestRepa::cancels() {
    RepaEngine e;
    pl::RunContext ctx(1);
    ctx.requestStop();
    QVERIFY_THROWS_EXCEPTION(pl::Cancelled, e.run({}, pl::ParamSet(e.params()), ctx));
}

void TestRepa::badInputs() {
    RepaEngine e;
    QTemporaryDir dir;
    pl::ParamSet p(e.params());
    p.set(keys::param::kIterations, int64_t(100));
    p.set(keys::param::kFields, int64_t(16));
    p.set(keys::param::kSteps, int64_t(20));
    auto in = [&](const char* name, const std::string& text) {
        saveText(dir.filePath(name), text);
        return e.load(dir.filePath(name).toStdString());
    };
    auto fails = [&](const pl::InputList& inputs, const char* needle, const pl::ParamSet& ps) {
        pl::RunContext ctx(1);
        try {
            pl::runEngine(e, inputs, ps, ctx);
            QFAIL("accepted");
        } catch (const pl::InputError& err) {
            QVERIFY2(std::string(err.what()).find(needle) != std::string::npos, err.what());
        }
    };
    fails({in("neg.csv", grid(8, 1.0, 2, 3, -1.0))}, "permeability must be positive", p);
    fails({in("k8.csv", grid(8, 1.0)), in("f6.csv", grid(6, 0.0))}, "6 x 6", p);
    pl::ParamSet joint = p;
    joint.set(keys::param::kTask, std::string("joint"));
    fails({in("k8b.csv", grid(8, 1.0)), in("f8.csv", grid(8, 1.0))}, "compatible source", joint);
    // A good K file sets the grid and is the shown field.
    pl::RunContext ctx(1);
    const auto d = pl::runEngine(e, {in("good.csv", grid(8, 2.0))}, p, ctx);
    QCOMPARE(d.metrics.at(keys::metric::kGrid), 8.0);
    QCOMPARE(d.matrices.at(keys::matrix::kKField).data.front(), 2.0);
}

QTEST_GUILESS_MAIN(TestRepa)
#include "tst_repa.moc"
