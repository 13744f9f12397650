// The deepha-agent engine: compressed contexts counted by hand, the behaviour-cloning loss falls,
// the plan stage, one seed gives one result, cancellation, and the claims over three seeds (logged;
// the compression ratio asserted, the success comparisons reported as they come out).
#include "core/Errors.h"
#include "gridworld/DeephaAgent.h"
#include "gridworld/DeephaAgentEngine.h"
#include "gridworld/DeephaAgentKeys.h"

#include <QtTest>

#include <cmath>

using namespace pl::gridworld;
namespace keys = pl::deepha::keys;

namespace {

pl::ResultDocument runDeepha(uint64_t seed, const std::map<std::string, std::string>& set) {
    pl::deepha::DeephaAgentEngine e;
    pl::ParamSet p(e.params());
    for (const auto& [k, v] : set)
        p.setText(k, v);
    pl::RunContext ctx(seed);
    return e.run({}, p, ctx);
}

const std::map<std::string, std::string> kSmall{{"demos_per_task", "8"}, {"iterations", "120"},
                                                {"hidden", "64"},        {"eval_maps", "2"},
                                                {"train_maps", "3"},     {"episode_cap", "150"}};

const pl::Claim* claim(const pl::ResultDocument& d, const std::string& id) {
    for (const auto& c : d.claims)
        if (c.id == id)
            return &c;
    return nullptr;
}

} // namespace

class TestDeephaAgent : public QObject {
    Q_OBJECT
private slots:
    void compressedContextByHand() {
        const RecipeBook b = builtinRecipes();
        const Vocabulary v(b);
        // 6 steps: skill 0 for 3 steps (done at step 2), skill 1 for 3 steps (done at step 5).
        std::vector<StepRecord> h;
        for (int t = 0; t < 6; ++t)
            h.push_back({ChainTokens{t < 3 ? 0 : 1, v.hereToken(), v.useToken()}, t == 2 || t == 5});
        QCOMPARE(contextTokens(h, 16, 2, ContextKind::Full, v).size(), size_t(18));
        // Older 4 steps: GET 0, DONE, GET 1 = 3 tokens; last 2 steps in full = 6 tokens.
        const std::vector<int> c = contextTokens(h, 16, 2, ContextKind::Compressed, v);
        QCOMPARE(c.size(), size_t(9));
        QCOMPARE(c[0], 0);
        QCOMPARE(c[1], v.done());
        QCOMPARE(c[2], 1);
        QCOMPARE(contextTokens(h, 4, 2, ContextKind::Full, v).size(), size_t(12)); // window H = 4
        QCOMPARE(contextTokens(h, 16, 2, ContextKind::L1Only, v).size(), size_t(6));
        QVERIFY(contextTokens(h, 16, 2, ContextKind::None, v).empty());
    }
    void behaviourCloningLossDecreases() {
        const RecipeBook b = builtinRecipes();
        const Vocabulary v(b);
        const GridMap m = generateMap(12, b.collectTiles(), pl::Rng(8), "g");
        std::vector<Eigen::VectorXd> rows;
        std::vector<int> y;
        for (int task : b.tasks) {
            const Demo d = expertEpisode(b, v, m, startState(b, m), task, 300);
            QVERIFY(d.success);
            for (size_t t = 0; t < d.steps.size(); ++t) {
                rows.push_back(d.obs.row(Eigen::Index(t)).transpose());
                y.push_back(d.steps[t].tokens.l1);
            }
        }
        Eigen::MatrixXd x(Eigen::Index(rows.size()), rows[0].size());
        for (size_t r = 0; r < rows.size(); ++r)
            x.row(Eigen::Index(r)) = rows[r].transpose();
        pl::Rng rng(1);
        MlpClassifier net(int(x.cols()), 64, v.size(), rng);
        const double before = net.loss(x, y);
        pl::RunContext ctx(1);
        FitOptions o;
        o.iterations = 200;
        o.batch = 64;
        const auto curve = net.fit(x, y, o, rng, ctx);
        const double after = net.loss(x, y);
        qInfo("BC loss %.4f -> %.4f over %zu expert steps", before, after, rows.size());
        QVERIFY(after < 0.25 * before);
        QVERIFY(curve.back().second < curve.front().second);
    }
    void planStage() {
        const auto d = runDeepha(1, {{"stage", "plan"}});
        const auto& sg = d.vectors.at(keys::vector::kSubgoals);
        QCOMPARE(sg.size(), size_t(13));
        QCOMPARE(sg.back(), 13.0); // diamond: every item of the book
        for (double e : d.vectors.at(keys::vector::kExpertSuccess))
            QCOMPARE(e, 1.0);
        const auto& g = d.graphs.at(keys::graph::kTechTree);
        QCOMPARE(g.nodes.size(), size_t(13));
        QCOMPARE(g.nodes[0].label, std::string("log"));
        QVERIFY(d.claims.empty());
        QVERIFY(!d.metrics.count(keys::metric::kSuccessCoaGreedy4));
    }
    void deterministic() {
        const auto a = runDeepha(4, kSmall), b = runDeepha(4, kSmall);
        QCOMPARE(a.toJson(), b.toJson());
        QVERIFY(runDeepha(5, kSmall).toJson() != a.toJson());
    }
    void cancellation() {
        pl::deepha::DeephaAgentEngine e;
        pl::ParamSet p(e.params());
        pl::RunContext ctx(1);
        ctx.requestStop();
        QVERIFY_THROWS_EXCEPTION(pl::Cancelled, e.run({}, p, ctx));
    }
    void claimsOverSeeds() {
        for (uint64_t seed : {1, 2, 3}) {
            auto set = kSmall;
            set["eval_maps"] = "3";
            set["iterations"] = "200";
            const auto d = runDeepha(seed, set);
            const auto& m = d.metrics;
            qInfo("seed %llu: success 4+ direct %.3f, ha %.3f, coa greedy %.3f, eager %.3f, compressed %.3f; "
                  "context reduction %.3f, drop %.3f",
                  static_cast<unsigned long long>(seed), m.at(keys::metric::kSuccessDirect4),
                  m.at(keys::metric::kSuccessHa4), m.at(keys::metric::kSuccessCoaGreedy4),
                  m.at(keys::metric::kSuccessCoaEager4), m.at(keys::metric::kSuccessCompressed4),
                  m.at(keys::metric::kContextReduction), m.at(keys::metric::kCompressionDrop));
            QCOMPARE(m.at(keys::metric::kExpertSuccess), 1.0);
            // The token saving of compression is a property of the history format: ≥ 60 % at H = 16, m = 4.
            QVERIFY(m.at(keys::metric::kContextReduction) >= 0.6);
            const auto* c = claim(d, keys::claim::kCoaBeatsDirect);
            QVERIFY(c);
            QCOMPARE(c->holds, c->observed >= 0.15);
            QVERIFY(std::isfinite(c->observed));
            const auto* k = claim(d, keys::claim::kCompression);
            QVERIFY(k);
            QCOMPARE(k->holds, m.at(keys::metric::kContextReduction) >= 0.6 &&
                                   m.at(keys::metric::kCompressionDrop) <= 0.03);
            QVERIFY(claim(d, keys::claim::kCoaVsHa));
        }
    }
};

QTEST_GUILESS_MAIN(TestDeephaAgent)
#include "tst_deepha_agent.moc"
