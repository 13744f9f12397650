#include "mdp/BehavioralAbstractionEngine.h"

#include "core/Errors.h"
#include "core/ResultBuilders.h"
#include "core/Rng.h"
#include "mdp/BehavioralAbstractionKeys.h"
#include "mdp/Bisimulation.h"
#include "mdp/FixedPoints.h"
#include "mdp/Formulas.h"
#include "mdp/MdpReader.h"
#include "mdp/MdpWorlds.h"

#include <algorithm>
#include <cmath>

namespace pl::mdp {

std::shared_ptr<const LoadedInput> loadMdpInput(const std::string& path) {
    auto in = std::make_shared<MdpInput>();
    in->mdp = readMdpFile(path);
    in->path = path;
    in->kind = "json";
    in->summary = in->mdp.name;
    return in;
}

std::vector<ParamSpec> BehavioralAbstractionEngine::params() const {
    using namespace keys::param;
    ParamSpec safe{kSafeLabel,
                   "safe label",
                   ParamType::String,
                   0,
                   0,
                   std::string("safe"),
                   "",
                   "label whose controllable invariant is computed",
                   {},
                   false,
                   "labels"};
    ParamSpec goal{kGoalLabel,
                   "goal label",
                   ParamType::String,
                   0,
                   0,
                   std::string("goal"),
                   "",
                   "label whose maximal reach probability is computed",
                   {},
                   false,
                   "labels"};
    return {
        ParamSpec::choice(kWorld, "world", {"planted", "gridworld", "ring"}, "planted",
                          "built-in MDP (ignored when a JSON MDP file is loaded)"),
        ParamSpec::integer(kStates, "states", 10, 200, 40, "planted MDP: number of states"),
        ParamSpec::integer(kActions, "actions", 2, 8, 3, "planted MDP and ring world: number of actions"),
        ParamSpec::integer(kBlocks, "planted blocks", 2, 20, 5, "planted MDP: lumpable blocks"),
        ParamSpec::real(kPerturbation, "perturbation ε_p", 0, 0.2, 0.02,
                        "planted MDP: noise on the odd-numbered blocks (breaks their lumpability)"),
        ParamSpec::integer(kGridSize, "grid size", 3, 12, 6,
                           "mirrored gridworld: rows (columns rounded up to even)"),
        ParamSpec::integer(kRingSize, "ring size", 5, 200, 30, "ring world: number of states"),
        ParamSpec::real(kGamma, "discount γ", 0.5, 0.99, 0.9, "discount of V* and of the metric (c_T = γ)"),
        ParamSpec::integer(kFormulaSamples, "formula samples", 100, 100000, 2000,
                           "random modal formulas checked for soundness"),
        safe,
        goal};
}

namespace {

struct Analysis {
    Mdp m;
    double gamma = 0.9;
    ValueSolution vstar;
    std::vector<int> block;
    Mdp quotient;
    MetricResult metric;
    std::vector<char> invariant, quotientInvariant;
    Eigen::VectorXd reach, quotientReach, quotientValue;
};

/// Stage 1: the MDP, from the file or a built-in world (seed stream "world").
Mdp makeMdp(const InputList& inputs, const ParamSet& p, uint64_t seed, ResultDocument& doc) {
    using namespace keys::param;
    if (!inputs.empty()) {
        const auto* in = dynamic_cast<const MdpInput*>(inputs[0].get());
        if (!in)
            throw InputError(inputs[0]->path, "not a JSON MDP loaded by this engine");
        doc.notes.push_back("MDP file " + in->path + ": " + in->summary);
        return in->mdp;
    }
    const std::string& w = p.getString(kWorld);
    if (w == "gridworld")
        return mirroredGridworld(int(p.getInt(kGridSize)));
    if (w == "ring")
        return ringWorld(int(p.getInt(kRingSize)), std::min<int>(4, int(p.getInt(kActions))), 0.8);
    Rng rng = Rng(seed).fork("world");
    return plantedLumpable(int(p.getInt(kStates)), int(p.getInt(kActions)), int(p.getInt(kBlocks)),
                           p.getDouble(kPerturbation), rng);
}

/// Stage 2: fixed points on the concrete MDP and on its quotient by the coarsest bisimulation.
void fixedPoints(Analysis& a, const ParamSet& p, RunContext& ctx) {
    a.vstar = solveOptimalValue(a.m, a.gamma);
    a.block = coarsestBisimulation(a.m);
    a.quotient = quotientMdp(a.m, a.block);
    a.quotientValue = solveOptimalValue(a.quotient, a.gamma).value;
    const std::string &safe = p.getString(keys::param::kSafeLabel),
                      &goal = p.getString(keys::param::kGoalLabel);
    a.invariant = controllableInvariant(a.m, a.m.labelSet(safe));
    a.quotientInvariant = controllableInvariant(a.quotient, a.quotient.labelSet(safe));
    a.reach = maxReachProbability(a.m, a.m.labelSet(goal));
    a.quotientReach = maxReachProbability(a.quotient, a.quotient.labelSet(goal));
    ctx.throwIfCancelled();
    a.metric = bisimulationMetric(a.m, a.gamma, ctx);
    if (a.metric.lastChange > 1e-12)
        throw EngineError("behavioural metric did not reach a change of 1e-12 in " +
                          std::to_string(a.metric.iterations) + " sweeps");
}

/// Stage 3: quotient exactness (violation, V*, invariant and reach constant on blocks and pulled back).
void quotientClaim(const Analysis& a, ResultDocument& doc) {
    const double viol = homomorphismViolation(a.m, a.quotient, a.block);
    double pull = 0;
    int invariantMismatch = 0;
    for (int s = 0; s < a.m.states; ++s) {
        const int b = a.block[size_t(s)];
        pull = std::max({pull, std::fabs(a.vstar.value(s) - a.quotientValue(b)),
                         std::fabs(a.reach(s) - a.quotientReach(b))});
        invariantMismatch += a.invariant[size_t(s)] != a.quotientInvariant[size_t(b)];
    }
    doc.metrics[keys::metric::kHomomorphismViolation] = viol;
    doc.metrics[keys::metric::kQuotientValueError] = pull;
    const bool holds = viol < 1e-12 && pull <= 1e-9 && invariantMismatch == 0;
    doc.claims.push_back(claimOf(
        keys::claim::kQuotientExact,
        "The quotient by the coarsest bisimulation is an exact homomorphism; V*, the invariant and the reach "
        "probability pull back exactly.",
        holds, viol, 1e-12,
        "commuting-square violation " + formatSignificant(viol) +
            " (< 1e-12); max |V*(s) − V*_q(φs)| and "
            "|reach(s) − reach_q(φs)| = " +
            formatSignificant(pull) + " (≤ 1e-9); " + std::to_string(invariantMismatch) +
            " states where the invariant differs from the pulled-back one"));
}

/// Stage 4: |V*(s) − V*(t)| ≤ d(s,t) over all pairs, and the scatter.
void boundClaim(const Analysis& a, ResultDocument& doc) {
    Series gap = emptySeries("d(s,t)", "|V*(s) − V*(t)|");
    double worst = -1e300;
    for (int s = 0; s < a.m.states; ++s)
        for (int t = s + 1; t < a.m.states; ++t) {
            const double g = std::fabs(a.vstar.value(s) - a.vstar.value(t));
            addPoint(gap, a.metric.d(s, t), g);
            worst = std::max(worst, g - a.metric.d(s, t));
        }
    doc.series[keys::series::kValueGap] = gap;
    doc.metrics[keys::metric::kBoundViolation] = worst;
    doc.claims.push_back(claimOf(
        keys::claim::kBisimBound,
        "Values are 1-Lipschitz for the bisimulation metric: |V*(s) − V*(t)| ≤ d(s,t).", worst <= 1e-9, worst,
        1e-9, "max over all state pairs of |V*(s) − V*(t)| − d(s,t) (c_R = 1, c_T = γ)"));
}

/// Stage 5: random modal formulas (seed stream "formulas"): every gap below d; sup over samples.
void formulaClaim(const Analysis& a, int64_t samples, uint64_t seed, RunContext& ctx, ResultDocument& doc) {
    Rng rng = Rng(seed).fork("formulas");
    const int n = a.m.states;
    Eigen::MatrixXd sup = Eigen::MatrixXd::Zero(n, n);
    for (int64_t k = 0; k < samples; ++k) {
        const FormulaValue f = sampleFormula(a.m, a.gamma, 4, rng);
        for (int s = 0; s < n; ++s)
            for (int t = s + 1; t < n; ++t)
                sup(s, t) = std::max(sup(s, t), std::fabs(f.value(s) - f.value(t)));
        if (k % 64 == 0) {
            ctx.throwIfCancelled();
            ctx.progress(double(k) / double(samples), "formulas");
        }
    }
    Series gap = emptySeries("d(s,t)", "max sampled |f(s) − f(t)|");
    double worst = -1e300, ratio = 0;
    int counted = 0;
    for (int s = 0; s < n; ++s)
        for (int t = s + 1; t < n; ++t) {
            addPoint(gap, a.metric.d(s, t), sup(s, t));
            worst = std::max(worst, sup(s, t) - a.metric.d(s, t));
            if (a.metric.d(s, t) > 1e-9) {
                ratio += sup(s, t) / a.metric.d(s, t);
                ++counted;
            }
        }
    doc.series[keys::series::kFormulaGap] = gap;
    doc.metrics[keys::metric::kFormulaViolation] = worst;
    doc.metrics[keys::metric::kFormulaTightness] = counted ? ratio / counted : 1.0;
    doc.claims.push_back(claimOf(keys::claim::kFormulaSound,
                                 "The metric is sound for the modal logic: no sampled formula separates two "
                                 "states by more than d(s,t).",
                                 worst <= 1e-9, worst, 1e-9,
                                 "max over " + std::to_string(samples) +
                                     " random formulas (depth ≤ 4) and all pairs of |f(s) − f(t)| − d(s,t)"));
}

/// Stage 6: ε-abstractions by greedy merging: value error against 2ε/(1−γ) and 2·diam/(1−γ).
void abstractionSweep(const Analysis& a, ResultDocument& doc) {
    const double dmax = a.metric.d.maxCoeff();
    Series err = emptySeries("ε", "max |V*(s) − V̄*(φs)|"), bound = emptySeries("ε", "2ε/(1−γ)");
    Series dbound = emptySeries("ε", "2·diameter/(1−γ)"), blocks = emptySeries("ε", "clusters");
    double worst = -1e300;
    for (int k = 0; k <= 16; ++k) {
        const double eps = dmax * k / 16.0 + (k == 0 ? 1e-12 : 0.0);
        const std::vector<int> phi = greedyAbstraction(a.metric.d, eps);
        const Mdp q = quotientMdp(a.m, phi);
        const Eigen::VectorXd vq = solveOptimalValue(q, a.gamma).value;
        double e = 0;
        for (int s = 0; s < a.m.states; ++s)
            e = std::max(e, std::fabs(a.vstar.value(s) - vq(phi[size_t(s)])));
        const double db = 2 * clusterDiameter(a.metric.d, phi) / (1 - a.gamma);
        addPoint(err, eps, e);
        addPoint(bound, eps, 2 * eps / (1 - a.gamma));
        addPoint(dbound, eps, db);
        addPoint(blocks, eps, blockCount(phi));
        worst = std::max(worst, e - db);
    }
    doc.series[keys::series::kAbstractionError] = err;
    doc.series[keys::series::kAbstractionBound] = bound;
    doc.series[keys::series::kAbstractionDiameterBound] = dbound;
    doc.series[keys::series::kAbstractionBlocks] = blocks;
    doc.claims.push_back(
        claimOf(keys::claim::kAbstractionBound,
                "An ε-abstraction (clusters of metric diameter δ < ε, uniform weights) has value "
                "error at most 2δ/(1−γ) ≤ 2ε/(1−γ).",
                worst <= 1e-9, worst, 1e-9, "max over 17 values of ε of error − 2·diameter/(1−γ)"));
}

Graph mdpGraph(const Mdp& m, const std::vector<int>& block, const std::vector<char>& inv,
               const Eigen::VectorXd& v, const std::vector<char>& goal) {
    Graph g;
    g.directed = true;
    for (int s = 0; s < m.states; ++s)
        g.nodes.push_back(
            graphNode(s, "s" + std::to_string(s),
                      {{keys::attr::kBlock, block.empty() ? double(s) : double(block[size_t(s)])},
                       {keys::attr::kInvariant, double(inv[size_t(s)])},
                       {keys::attr::kValue, v(s)},
                       {keys::attr::kGoal, double(goal[size_t(s)])}}));
    for (int s = 0; s < m.states; ++s) {
        std::map<int, double> w;
        for (int a = 0; a < m.actions; ++a)
            for (const Transition& t : m.row(s, a))
                w[t.next] += t.p / m.actions;
        for (const auto& [n, p] : w)
            if (n != s)
                g.edges.push_back(graphEdge(s, n, p));
    }
    return g;
}

void writeResults(const Analysis& a, const ParamSet& p, ResultDocument& doc) {
    const std::string& goal = p.getString(keys::param::kGoalLabel);
    doc.metrics[keys::metric::kStates] = a.m.states;
    doc.metrics[keys::metric::kActions] = a.m.actions;
    doc.metrics[keys::metric::kBlocks] = blockCount(a.block);
    doc.metrics[keys::metric::kMetricIterations] = a.metric.iterations;
    doc.metrics[keys::metric::kMetricLastChange] = a.metric.lastChange;
    doc.metrics[keys::metric::kTransportSolves] = double(a.metric.transportSolves);
    doc.metrics[keys::metric::kMaxMetric] = a.metric.d.maxCoeff();
    doc.metrics[keys::metric::kInvariantSize] = double(std::count(a.invariant.begin(), a.invariant.end(), 1));
    doc.vectors[keys::vector::kValue] = toStd(a.vstar.value);
    doc.vectors[keys::vector::kReachProbability] = toStd(a.reach);
    doc.vectors[keys::vector::kInvariant] = std::vector<double>(a.invariant.begin(), a.invariant.end());
    doc.vectors[keys::vector::kQuotientValue] = toStd(a.quotientValue);
    doc.vectors[keys::vector::kQuotientInvariant] =
        std::vector<double>(a.quotientInvariant.begin(), a.quotientInvariant.end());
    doc.labels[keys::label::kBlock] = std::vector<int64_t>(a.block.begin(), a.block.end());
    doc.matrices[keys::matrix::kBisimMetric] = matrixOf(a.metric.d, "s", "s", 0);
    Series ch = emptySeries("sweep", "max |d_k − d_(k−1)|");
    for (size_t k = 0; k < a.metric.changes.size(); ++k)
        addPoint(ch, double(k + 1), a.metric.changes[k]);
    doc.series[keys::series::kMetricChange] = ch;
    doc.graphs[keys::graph::kMdp] = mdpGraph(a.m, a.block, a.invariant, a.vstar.value, a.m.labelSet(goal));
    std::vector<int> ids(size_t(a.quotient.states));
    for (int b = 0; b < a.quotient.states; ++b)
        ids[size_t(b)] = b;
    doc.graphs[keys::graph::kQuotient] =
        mdpGraph(a.quotient, ids, a.quotientInvariant, a.quotientValue, a.quotient.labelSet(goal));
}

} // namespace

ResultDocument BehavioralAbstractionEngine::run(const InputList& inputs, const ParamSet& p,
                                                RunContext& ctx) const {
    ResultDocument doc;
    Analysis a;
    a.m = makeMdp(inputs, p, ctx.seed(), doc);
    a.gamma = p.getDouble(keys::param::kGamma);
    if (a.m.states > 400)
        throw UsageError("behavioral-abstraction computes the metric for at most 400 states (this MDP has " +
                         std::to_string(a.m.states) + ")");
    for (const char* l : {keys::param::kSafeLabel, keys::param::kGoalLabel})
        if (!a.m.labels.count(p.getString(l)))
            doc.notes.push_back("The MDP has no label '" + p.getString(l) +
                                "': it is taken as the empty set.");
    ctx.progress(0.0, "fixed points");
    fixedPoints(a, p, ctx);
    quotientClaim(a, doc);
    boundClaim(a, doc);
    formulaClaim(a, p.getInt(keys::param::kFormulaSamples), ctx.seed(), ctx, doc);
    abstractionSweep(a, doc);
    writeResults(a, p, doc);
    return doc;
}

} // namespace pl::mdp
