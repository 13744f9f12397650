// gemq-moe-quant claims over seeds 1..3 at the paper defaults (avg_bits 2.5): the greedy equals the
// LP optimum (CLP), global loss <= layer-wise loss, router tuning lowers the routing shift; it lowers
// the loss in at least two of the three seeds (seed 2 does not reproduce: the panel says holds false
// there); on the heterogeneous preset (hetero 1) the global LP gains >= 5 % of the layer-wise excess
// loss. Progressive vs one-shot is logged, not asserted. Numbers are logged per seed.
#include "core/RunContext.h"
#include "gemq/GemqEngine.h"
#include "gemq/GemqKeys.h"

#include <QtTest>

using namespace pl;
using namespace pl::gemq;
namespace K = pl::gemq::keys;

namespace {

ResultDocument runWith(uint64_t seed, double hetero) {
    GemqEngine e;
    ParamSet p(e.params());
    p.setText(K::param::kHetero, std::to_string(hetero));
    RunContext ctx(seed);
    return e.run({}, p, ctx);
}

bool holds(const ResultDocument& d, const char* id) {
    for (const Claim& c : d.claims)
        if (c.id == id)
            return c.holds;
    return false;
}

void log(const char* what, uint64_t seed, const ResultDocument& d) {
    const auto& m = d.metrics;
    qInfo("%s seed %d: loss fp %.4f uniform(%g) %.4f layerwise %.4f global %.4f (before ft %.4f, one-shot "
          "%.4f) "
          "gain %.3f shift %.3f -> %.3f fisher spread %.1f",
          what, int(seed), m.at(K::metric::kLossFp), m.at(K::metric::kUniformBits),
          m.at(K::metric::kLossUniform), m.at(K::metric::kLossLayerwise), m.at(K::metric::kLossGlobal),
          m.at(K::metric::kLossGlobalBeforeFt), m.at(K::metric::kLossOneShot), m.at(K::metric::kGlobalGain),
          m.at(K::metric::kShiftBefore), m.at(K::metric::kShiftAfter), m.at(K::metric::kFisherSpread));
}

} // namespace

class TestGemqClaims : public QObject {
    Q_OBJECT
private slots:
    void defaults() {
        int lossLowered = 0;
        for (uint64_t seed = 1; seed <= 3; ++seed) {
            const ResultDocument d = runWith(seed, 0.3);
            log("defaults", seed, d);
            QVERIFY(holds(d, K::claim::kGreedyLp));
            QVERIFY(holds(d, K::claim::kGlobalBeats));
            QVERIFY(holds(d, K::claim::kRouterShift));
            const auto& m = d.metrics;
            QCOMPARE(holds(d, K::claim::kRouterLoss),
                     m.at(K::metric::kLossGlobal) < m.at(K::metric::kLossGlobalBeforeFt));
            lossLowered += holds(d, K::claim::kRouterLoss);
            QVERIFY(m.at(K::metric::kLossGlobal) <= m.at(K::metric::kLossLayerwise));
            QVERIFY(m.at(K::metric::kShiftAfter) < m.at(K::metric::kShiftBefore));
            QVERIFY(m.at(K::metric::kLossGlobal) < m.at(K::metric::kLossUniform));
        }
        QVERIFY(lossLowered >= 2);
    }

    void heterogeneous() {
        for (uint64_t seed = 1; seed <= 3; ++seed) {
            const ResultDocument d = runWith(seed, 1.0);
            log("heterogeneous", seed, d);
            QVERIFY(holds(d, K::claim::kGlobalGain));
            QVERIFY(d.metrics.at(K::metric::kGlobalGain) >= 0.05);
            QVERIFY(d.metrics.at(K::metric::kFisherSpread) > 7);
        }
    }
};

QTEST_GUILESS_MAIN(TestGemqClaims)
#include "tst_gemq_claims.moc"
