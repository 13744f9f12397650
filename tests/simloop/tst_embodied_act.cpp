// The embodied-act engine: step metrics on hand-made responses, Ziegler–Nichols on (s+1)³ against
// its closed form, Routh–Hurwitz, the rule table, the runtime monitors (overshoot, step-size
// collapse and the switch to BDF, energy drift, residual bound), the pattern search, the task JSON
// reader's errors with lines, determinism and the claims at fixed seeds.
#include "core/Errors.h"
#include "simloop/Agent.h"
#include "simloop/EmbodiedActEngine.h"
#include "simloop/EmbodiedActKeys.h"
#include "simloop/PidTask.h"
#include "simloop/TaskFile.h"
#include "simloop/Tasks.h"

#include <QtTest>

#include <cmath>
#include <numbers>

using namespace pl::simloop;
namespace keys = pl::embodied::keys;

namespace {

pl::ResultDocument runEngine(uint64_t seed, const std::map<std::string, std::string>& set) {
    pl::embodied::EmbodiedActEngine e;
    pl::ParamSet p(e.params());
    for (const auto& [k, v] : set)
        p.setText(k, v);
    pl::RunContext ctx(seed);
    return e.run({}, p, ctx);
}

const pl::Claim* claim(const pl::ResultDocument& d, const std::string& id) {
    for (const auto& c : d.claims)
        if (c.id == id)
            return &c;
    return nullptr;
}

int64_t errorLine(const std::string& text) {
    try {
        parseTaskText(text, "t.json");
    } catch (const pl::InputError& e) {
        return e.line();
    }
    return -1;
}

} // namespace

class TestEmbodiedAct : public QObject {
    Q_OBJECT
private slots:
    void stepMetricsByHand() {
        // y: 0, 0.5, 1.2, 0.9, 1.01, 1.0 on a grid of 1: overshoot 0.2, settled from t = 4, IAE by trapezoid.
        const std::vector<double> t{0, 1, 2, 3, 4, 5}, y{0, 0.5, 1.2, 0.9, 1.01, 1.0};
        const StepMetrics m = stepMetrics(t, y);
        QCOMPARE(m.overshoot, 0.2);
        QCOMPARE(m.settlingTime, 4.0);
        const double iae =
            0.5 * (1 + 0.5) + 0.5 * (0.5 + 0.2) + 0.5 * (0.2 + 0.1) + 0.5 * (0.1 + 0.01) + 0.5 * 0.01;
        QVERIFY(std::abs(m.iae - iae) < 1e-12);
        QVERIFY(std::isnan(stepMetrics({0, 1}, {0, 0.5}).settlingTime));
        QCOMPARE(stepMetrics({0, 1}, {0, 0.9}).overshoot, 0.0);
    }
    void zieglerNicholsClosedForm() {
        // (s+1)³: phase −180° at ω = √3, |G| = 1/8, so Ku = 8, Tu = 2π/√3.
        const auto g = zieglerNichols({1}, {1, 3, 3, 1});
        const double ku = 8, tu = 2 * std::numbers::pi / std::sqrt(3.0);
        QVERIFY(std::abs(g[0] - 0.6 * ku) < 1e-3);
        QVERIFY(std::abs(g[1] - 0.6 * ku / (tu / 2)) < 1e-3);
        QVERIFY(std::abs(g[2] - 0.6 * ku * tu / 8) < 1e-3);
        // A first-order plant never reaches −180°: the fallback.
        QCOMPARE(zieglerNichols({1}, {1, 1}), (std::vector<double>{1.0, 0.5, 0.25}));
    }
    void routhHurwitz() {
        QVERIFY(!openLoopUnstable({1, 3, 3, 1}));
        QVERIFY(openLoopUnstable({1, -1}));       // s − 1
        QVERIFY(openLoopUnstable({1, 0, 1}));     // s² + 1 (marginal)
        QVERIFY(openLoopUnstable({1, 1, 1, 10})); // positive coefficients, RHP pair
        QVERIFY(!openLoopUnstable({1, 4, 6, 4}));
    }
    void ruleTableCoversEveryAnomaly() {
        QCOMPARE(actionFor(Anomaly::StepCollapse), Action::SwitchImplicit);
        QCOMPARE(actionFor(Anomaly::Divergence), Action::AbortDampGains);
        QCOMPARE(actionFor(Anomaly::Overshoot), Action::AbortCutIntegral);
        QCOMPARE(actionFor(Anomaly::EnergyDrift), Action::RestartSymplectic);
        QCOMPARE(actionFor(Anomaly::None), Action::None);
        QCOMPARE(int(ruleTable().size()), 10);
    }
    void overshootAbortsEarly() {
        const PidTask task(PidSpec{});
        Plan p;
        p.theta = zieglerNichols({1}, {1, 3, 3, 1}); // ~13 % overshoot with the default actuator limit
        pl::RunContext ctx(1);
        AttemptOptions live;
        live.record = true;
        const AttemptResult a = runAttempt(task, p, live, ctx);
        QVERIFY(!a.completed && a.detection && a.detection->anomaly == Anomaly::Overshoot);
        AttemptOptions post = live;
        post.live = false;
        const AttemptResult b = runAttempt(task, p, post, ctx);
        QVERIFY(b.completed && b.detection && b.detection->anomaly == Anomaly::Overshoot);
        QVERIFY2(a.steps < b.steps / 2, qPrintable(QStringLiteral("%1 %2").arg(a.steps).arg(b.steps)));
        QCOMPARE(a.firstDetectionStep, b.firstDetectionStep); // same monitors, same moment
    }
    void robertsonCollapseSwitchesToBdf() {
        const RobertsonTask task;
        Plan p; // rk45
        pl::RunContext ctx(1);
        AttemptOptions o;
        o.stepCap = 100000;
        o.record = true;
        const AttemptResult a = runAttempt(task, p, o, ctx);
        QVERIFY(a.completed);
        QCOMPARE(a.finalPlan.integrator, Integrator::Bdf);
        QVERIFY(a.firstDetectionStep > 0 && a.firstDetectionStep <= 1000); // within 1 % of the budget
        QVERIFY(a.steps < 5000);
        QVERIFY(*std::max_element(a.stepH.begin(), a.stepH.end()) > 1e3); // BDF's step grows past 10³
        o.live = false; // the baseline burns the budget with rk45
        const AttemptResult b = runAttempt(task, p, o, ctx);
        QVERIFY(!b.completed && b.steps == 100000);
        QVERIFY(b.detection && b.detection->anomaly == Anomaly::StepCollapse);
    }
    void energyDriftRestartsWithVerlet() {
        const EnergyTask task;
        pl::RunContext ctx(1);
        AgentOptions o;
        o.budget = 40000;
        o.noise = 0;
        const EpisodeResult e = runEpisode(task, AgentKind::Runtime, Plan{}, o, pl::Rng(1), ctx);
        QVERIFY(e.success);
        QCOMPARE(e.attempts.front().anomaly, Anomaly::EnergyDrift);
        QCOMPARE(e.last.finalPlan.integrator, Integrator::Verlet);
    }
    void patternSearchShrinks() {
        PatternSearch ps({1.0, 1.0}, {0.0, 0.0}, 0.4);
        for (int i = 0; i < 6; ++i) {
            const auto p = ps.next();
            ps.report(p, 10.0 + i); // never better than the first report below
            if (i == 0)
                ps.report({1.0, 1.0}, 1.0);
        }
        ps.next();
        QVERIFY(ps.step() < 0.4);
    }
    void taskFileErrorsHaveLines() {
        QCOMPARE(errorLine("{\n \"task\": \"pid\",\n \"plant\": {\"num\": [1, 0, 0],\n \"den\": [1, 1]}\n}"),
                 3);
        QCOMPARE(errorLine("{\"task\": \"pid\",\n\"specs\": {\"overshoot\": 0.1,\n \"rise_time\": 2}}"), 3);
        QCOMPARE(errorLine("{\"task\": \"pid\",\n\n\"budget\": -5}"), 3);
        QCOMPARE(errorLine("{\"task\": \"pid\", \"plant\": {\"num\": [1], \"den\": [0, 1, 1]}}"), 1);
        QCOMPARE(errorLine("{\"task\": \"orbit\"}"), 1);
        QCOMPARE(errorLine("{\"task\": \"robertson\",\n \"specs\": {}}"), 2);
        QCOMPARE(errorLine("{\"task\": \"pid\",\n \"budget\": 1.5}"), 2);
        QCOMPARE(errorLine("{\"task\": \"pid\",\n \"t_end\": 5,\n"), 3); // truncated JSON
        QCOMPARE(
            errorLine("{\"task\": \"pid\", \"u_max\": 2, \"plant\": {\"num\": [1], \"den\": [1, 2, 1]}}"),
            -1);
        const auto unstable =
            parseTaskText("{\"task\": \"pid\", \"plant\": {\"num\": [1], \"den\": [1, -1, 2]}}", "u");
        QCOMPARE(int(unstable->warnings.size()), 1);
    }
    void deterministicAndKeys() {
        const std::map<std::string, std::string> fast{{"episodes", "4"}};
        const auto a = runEngine(3, fast), b = runEngine(3, fast);
        QCOMPARE(a.toJson(), b.toJson());
        for (const char* k : {"overshoot", "settling_time", "iae", "success_runtime", "success_baseline",
                              "median_wasted_runtime", "median_wasted_baseline", "detect_fraction"})
            QVERIFY2(a.metrics.count(k), k);
        QVERIFY(a.series.count("output") && a.series.count("step_size") && a.vectors.count("final_state"));
        QCOMPARE(int(a.vectors.at("final_state").size()), 5);
        const auto c = runEngine(4, fast);
        QVERIFY(a.toJson() != c.toJson());
        // agent = none with the hand-tuned gains meets both specs.
        const auto n = runEngine(1, {{"agent", "none"}, {"kp", "2"}, {"ki", "0.5"}, {"kd", "1.5"}});
        QVERIFY(n.metrics.at("overshoot") <= 0.1 && n.metrics.at("settling_time") <= 10);
        QVERIFY(!n.metrics.count("success_runtime"));
        QVERIFY_THROWS_EXCEPTION(pl::UsageError, runEngine(1, {{"integrator", "verlet"}}));
    }
    void claimsAtFixedSeeds() {
        // runtime-beats-baseline holds at seeds 1, 2, 4 and 7 of 1..10 (see the help); checked at 1 and 2.
        for (uint64_t seed : {1, 2}) {
            const auto d = runEngine(seed, {});
            const pl::Claim* c = claim(d, keys::claim::kRuntimeBeatsBaseline);
            QVERIFY(c && c->holds);
            QVERIFY(d.metrics.at("success_runtime") >= d.metrics.at("success_baseline") + 0.2);
        }
        const auto r = runEngine(1, {{"task", "robertson"}, {"episodes", "3"}});
        const pl::Claim* s = claim(r, keys::claim::kStiffSwitch);
        QVERIFY(s && s->holds);
        QVERIFY(r.metrics.at("detect_fraction") <= 0.01);
        QCOMPARE(r.metrics.at("success_baseline"), 0.0);
        // With integrator = bdf the baseline finishes too: the claim reports it does not hold.
        const auto rb = runEngine(1, {{"task", "robertson"}, {"episodes", "2"}, {"integrator", "bdf"}});
        QVERIFY(!claim(rb, keys::claim::kStiffSwitch)->holds);
    }
};

QTEST_APPLESS_MAIN(TestEmbodiedAct)
#include "tst_embodied_act.moc"
