#include "FairLinearBanditsEngine.h"

#include "FairLinearBanditsKeys.h"
#include "FairProblem.h"
#include "FairRun.h"

namespace pl::bandits {

namespace P = fair::keys::param;

std::vector<ParamSpec> FairLinearBanditsEngine::params() const {
    std::vector<ParamSpec> s;
    auto add = [&s](ParamSpec p, const char* group) {
        p.group = group;
        s.push_back(std::move(p));
    };
    const char* F = "Fairness and horizon";
    add(ParamSpec::real(
            P::kP, "p of the p-mean", -5, 1, 0,
            "Welfare exponent: 1 = average regret, 0 = Nash (geometric mean), < 0 more egalitarian."),
        F);
    add(ParamSpec::integer(P::kT, "Horizon T", 100, 1000000, 5000, "Rounds per run.", "rounds"), F);
    add(ParamSpec::integer(P::kRuns, "Runs", 1, 200, 20,
                           "Independent paired runs; E[mu(x_t)] is their mean, taken inside the p-mean."),
        F);
    const char* A = "Algorithms";
    add(ParamSpec::real(P::kC1, "Fair phase constant c1", 0, 10, 1,
                        "Fair exploration lasts ceil(c1 (1 + max(0, -p)) sqrt(T d log(T K))) rounds."),
        A);
    add(ParamSpec::real(P::kDelta, "Confidence delta", 0.0001, 0.5, 0.05,
                        "Failure probability of LinUCB's confidence set and LinPE's eliminations."),
        A);
    add(ParamSpec::real(P::kDesignEps, "Design tolerance eps", 0.0001, 1, 0.01,
                        "Frank-Wolfe stops when g = max_i x_i^T V^-1 x_i <= d(1 + eps).", {}, true),
        A);
    add(ParamSpec::choice(P::kReward, "Reward noise", {"bernoulli", "beta"}, "bernoulli",
                          "Rewards in [0, 1] with mean mu(x): Bernoulli, or Beta(4 mu, 4 (1 - mu))."),
        A);
    const char* W = "Stand-in workload";
    add(ParamSpec::integer(P::kD, "Dimension d", 2, 50, 8, "Feature dimension (ignored with an arms file)."),
        W);
    add(ParamSpec::integer(P::kK, "Arms K", 10, 10000, 100, "Number of arms (ignored with an arms file)."),
        W);
    add(ParamSpec::real(P::kMuMin, "mu_min group", 0, 0.5, 0,
                        "0 = off; else ceil(K/10) arms have mean exactly mu_min (hard for p <= 0)."),
        W);
    add(ParamSpec::boolean(P::kSlow, "Slow slope study", false,
                           "Also run FairLin-PE at T = 1e3 ... 1e5 for every p (claim: slope <= 0.75)."),
        W);
    return s;
}

std::shared_ptr<const LoadedInput> FairLinearBanditsEngine::load(const std::string& path) const {
    auto in = std::make_shared<ArmsInput>();
    in->table = readNumericCsv(path);
    in->path = path;
    in->kind = "csv";
    in->summary = std::to_string(in->table.values.rows()) + " x " + std::to_string(in->table.values.cols()) +
                  " table" + (in->table.values.rows() == 1 ? " (theta*)" : " (arms)");
    return in;
}

ResultDocument FairLinearBanditsEngine::run(const InputList& inputs, const ParamSet& p,
                                            RunContext& ctx) const {
    ResultDocument doc;
    FairRun run(p, ctx, doc);
    run.buildProblem(inputs);
    run.computeDesigns();
    run.simulateMain();
    run.sweepP();
    run.sweepT();
    run.slowSlope();
    run.packResults();
    run.checkClaims();
    ctx.progress(1.0, "done");
    return doc;
}

} // namespace pl::bandits
