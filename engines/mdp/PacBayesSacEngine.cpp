#include "mdp/PacBayesSacEngine.h"

#include "core/Errors.h"
#include "core/ResultBuilders.h"
#include "core/Rng.h"
#include "mdp/BehavioralAbstractionEngine.h"
#include "mdp/MarkovChain.h"
#include "mdp/MdpWorlds.h"
#include "mdp/PacBayesBound.h"
#include "mdp/PacBayesSacKeys.h"

#include <algorithm>
#include <cmath>

namespace pl::pbsac {

using namespace pl::mdp;

std::vector<ParamSpec> PacBayesSacEngine::params() const {
    using namespace keys::param;
    return {
        ParamSpec::choice(
            kLab, "lab", {"bound", "control"}, "bound",
            "bound: certify a critic from one dependent trajectory; control: SAC vs PB-SAC on the "
            "pendulum swing-up"),
        ParamSpec::integer(kRingSize, "ring size", 5, 200, 30, "ring world: number of states"),
        ParamSpec::integer(kActions, "actions", 2, 4, 3, "ring world: actions (stay and A−1 jumps)"),
        ParamSpec::real(kKappa, "stickiness κ", 0, 0.99, 0.8,
                        "behaviour policy stays with probability κ (slower mixing as κ → 1)"),
        ParamSpec::real(kGamma, "discount γ", 0, 0.99, 0.5, "discount of the TD error"),
        ParamSpec::integer(kN, "n", 100, 1000000, 5000, "transitions per chain"),
        ParamSpec::integer(kRepetitions, "repetitions", 10, 1000, 200, "independent chains"),
        ParamSpec::real(kDelta, "δ", 0.001, 0.5, 0.05, "the bound holds with probability ≥ 1 − δ"),
        ParamSpec::real(kClipC, "clip c", 0.1, 10, 1, "loss min(1, δ_TD²/c²)"),
        ParamSpec::real(kPriorSd, "prior σ_P", 0.01, 100, 1, "prior N(h₀, σ_P² I) of the critic"),
        ParamSpec::choice(kPosterior, "posterior", {"fitted", "prior"}, "fitted",
                          "fitted: LSTD mean, σ from a grid minimising the bound; prior: Q = P (KL = 0)"),
        ParamSpec::real(kTauFactor, "τ factor", 1, 20, 9,
                        "τ = factor·(t_mix + 1) in the Markov bound (9: Paulin, conservative reading)"),
        ParamSpec::integer(kSteps, "steps", 400, 200000, 5000,
                           "control lab: environment steps per agent (whole 200-step episodes)"),
        ParamSpec::integer(kHidden, "hidden units", 8, 256, 64,
                           "control lab: units per hidden layer (2 layers)"),
        ParamSpec::integer(kBatch, "minibatch", 16, 512, 64, "control lab: transitions per gradient step"),
        ParamSpec::real(kLearningRate, "learning rate", 1e-5, 1e-1, 1e-3, "control lab: Adam step size"),
        ParamSpec::real(kHeadPriorSd, "head prior σ_P", 0.001, 10, 0.1,
                        "control lab: prior N(h₀, σ_P² I) over each PB-SAC critic's output layer")};
}

std::shared_ptr<const LoadedInput> PacBayesSacEngine::load(const std::string& path) const {
    auto in = loadMdpInput(path);
    const auto* m = dynamic_cast<const MdpInput*>(in.get());
    if (m->mdp.policy.size() == 0)
        throw InputError(path, "pac-bayes-sac needs a behaviour policy: add \"policy\": [[s, a, p], ...]", 1);
    return in;
}

namespace {

/// One behaviour chain: the MDP, its state chain, stationary law, mixing profile and table.
struct Chain {
    Mdp m;
    Eigen::MatrixXd P;
    Eigen::VectorXd pi, h0;
    MixingProfile mix;
    TransitionTable table;
    double kappa = kNaN;
};

Chain makeChain(Mdp m) {
    Chain c;
    c.m = std::move(m);
    c.P = c.m.behaviourChain(c.m.policy);
    c.pi = stationaryLaw(c.P);
    c.mix = mixingProfile(c.P, c.pi, 0, 100000);
    if (c.mix.tMix < 0)
        throw EngineError("the behaviour chain does not mix within 100000 steps");
    c.mix = mixingProfile(c.P, c.pi, std::max(20, 3 * c.mix.tMix), 100000);
    c.table = transitionTable(c.m, c.m.policy);
    c.h0 = c.m.critic.size() ? c.m.critic : Eigen::VectorXd::Zero(c.m.states);
    return c;
}

struct Setting {
    int64_t n = 5000;
    int repetitions = 200;
    double delta = 0.05, c = 1, sigmaP = 1, tauFactor = 9, gamma = 0.5;
    bool fitted = true;
};

struct Study {
    std::vector<double> emp, truth, kl, markov, iid, sd;
    double markovCoverage = 0, iidCoverage = 0, tau = 0;
};

/// Best posterior for a τ: σ over a grid (fitted) or Q = P; returns (bound, σ, L̂, KL).
struct Choice {
    double bound = 1e300, sigma = 0, emp = 0, kl = 0;
};

Choice choose(const Chain& ch, const std::vector<int>& counts, const Eigen::VectorXd& mu, const Setting& s,
              double tau) {
    Choice best;
    const int grid = s.fitted ? 17 : 1;
    for (int k = 0; k < grid; ++k) {
        const double sigma = s.sigmaP * std::pow(2.0, -0.5 * k);
        const double emp = risk(ch.table, counts, s.n, ch.pi, mu, sigma, s.gamma, s.c);
        const double kl = s.fitted ? gaussianKl(mu, sigma, ch.h0, s.sigmaP) : 0.0;
        const double b = emp + complexityTerm(kl, s.delta, tau, double(s.n));
        if (b < best.bound)
            best = {b, sigma, emp, kl};
    }
    return best;
}

Study runStudy(const Chain& ch, const Setting& s, Rng rng, RunContext& ctx) {
    Study out;
    out.tau = s.tauFactor * (ch.mix.tMix + 1);
    int coveredMarkov = 0, coveredIid = 0;
    for (int r = 0; r < s.repetitions; ++r) {
        ctx.throwIfCancelled();
        const std::vector<int> counts = sampleChainCounts(ch.table, ch.pi, s.n, rng);
        const Eigen::VectorXd mu = s.fitted ? lstdMean(ch.table, counts, ch.m.states, ch.h0, s.gamma) : ch.h0;
        const Choice mk = choose(ch, counts, mu, s, out.tau), iid = choose(ch, counts, mu, s, 1.0);
        const double truth = risk(ch.table, {}, s.n, ch.pi, mu, mk.sigma, s.gamma, s.c);
        const double truthIid = risk(ch.table, {}, s.n, ch.pi, mu, iid.sigma, s.gamma, s.c);
        coveredMarkov += mk.bound >= truth;
        coveredIid += iid.bound >= truthIid;
        out.emp.push_back(mk.emp);
        out.truth.push_back(truth);
        out.kl.push_back(mk.kl);
        out.markov.push_back(mk.bound);
        out.iid.push_back(iid.bound);
        out.sd.push_back(mk.sigma);
    }
    out.markovCoverage = double(coveredMarkov) / s.repetitions;
    out.iidCoverage = double(coveredIid) / s.repetitions;
    return out;
}

double quantile(std::vector<double> v, double q) {
    std::sort(v.begin(), v.end());
    const double pos = q * double(v.size() - 1);
    const size_t lo = size_t(std::floor(pos)), hi = std::min(v.size() - 1, lo + 1);
    return v[lo] + (pos - double(lo)) * (v[hi] - v[lo]);
}

double mean(const std::vector<double>& v) {
    double s = 0;
    for (double x : v)
        s += x;
    return s / double(v.size());
}

Setting settingOf(const ParamSet& p) {
    using namespace keys::param;
    Setting s;
    s.n = p.getInt(kN);
    s.repetitions = int(p.getInt(kRepetitions));
    s.delta = p.getDouble(kDelta);
    s.c = p.getDouble(kClipC);
    s.sigmaP = p.getDouble(kPriorSd);
    s.tauFactor = p.getDouble(kTauFactor);
    s.gamma = p.getDouble(kGamma);
    s.fitted = p.getString(kPosterior) == "fitted";
    return s;
}

void writeMain(const Chain& ch, const Study& st, ResultDocument& d) {
    d.metrics[keys::metric::kTMix] = ch.mix.tMix;
    d.metrics[keys::metric::kTau] = st.tau;
    d.metrics[keys::metric::kStates] = ch.m.states;
    d.metrics[keys::metric::kMarkovCoverage] = st.markovCoverage;
    d.metrics[keys::metric::kIidCoverage] = st.iidCoverage;
    d.metrics[keys::metric::kMedianMarkovBound] = quantile(st.markov, 0.5);
    d.metrics[keys::metric::kMedianIidBound] = quantile(st.iid, 0.5);
    d.metrics[keys::metric::kMeanTrueRisk] = mean(st.truth);
    d.metrics[keys::metric::kMeanEmpiricalRisk] = mean(st.emp);
    d.vectors[keys::vector::kStationary] = toStd(ch.pi);
    d.vectors[keys::vector::kEmpiricalRisk] = st.emp;
    d.vectors[keys::vector::kTrueRisk] = st.truth;
    d.vectors[keys::vector::kKl] = st.kl;
    d.vectors[keys::vector::kMarkovBound] = st.markov;
    d.vectors[keys::vector::kIidBound] = st.iid;
    d.vectors[keys::vector::kPosteriorSd] = st.sd;
    Series tv = emptySeries("t (steps)", "max_s ‖P^t(s,·) − π‖_TV");
    for (size_t t = 0; t < ch.mix.tv.size(); ++t)
        addPoint(tv, double(t), ch.mix.tv[t]);
    d.series[keys::series::kTvDecay] = tv;
    d.matrices[keys::matrix::kTransition] = matrixOf(ch.P, "s", "s", 0);
}

/// Sweep over n (seed stream "n=<n>"), at most 100 repetitions per point.
void sweepN(const Chain& ch, Setting s, uint64_t seed, RunContext& ctx, ResultDocument& d) {
    Series mk = emptySeries("n (transitions)", "bound / risk"), lo = mk, hi = mk, iid = mk, risk = mk;
    s.repetitions = std::min(s.repetitions, 100);
    for (int64_t n : {100, 300, 1000, 3000, 10000, 30000}) {
        s.n = n;
        const Study st = runStudy(ch, s, Rng(seed).fork("n=" + std::to_string(n)), ctx);
        addPoint(mk, double(n), quantile(st.markov, 0.5));
        addPoint(lo, double(n), quantile(st.markov, 0.1));
        addPoint(hi, double(n), quantile(st.markov, 0.9));
        addPoint(iid, double(n), quantile(st.iid, 0.5));
        addPoint(risk, double(n), mean(st.truth));
    }
    d.series[keys::series::kMarkovVsN] = mk;
    d.series[keys::series::kMarkovVsNLo] = lo;
    d.series[keys::series::kMarkovVsNHi] = hi;
    d.series[keys::series::kIidVsN] = iid;
    d.series[keys::series::kRiskVsN] = risk;
}

/// Sweep over the stickiness κ of the ring world (seed stream "kappa=<k>"); returns the study at 0.95.
Study sweepKappa(const ParamSet& p, const Setting& s, uint64_t seed, RunContext& ctx, ResultDocument& d) {
    Series mk = emptySeries("t_mix (steps)", "median bound / mean risk"), iid = mk, risk = mk;
    Series cm = emptySeries("κ", "coverage"), ci = cm;
    Study at95;
    for (double kappa : {0.0, 0.5, 0.8, 0.9, 0.95, 0.99}) {
        const Chain ch = makeChain(
            ringWorld(int(p.getInt(keys::param::kRingSize)), int(p.getInt(keys::param::kActions)), kappa));
        const Study st = runStudy(ch, s, Rng(seed).fork("kappa=" + std::to_string(kappa)), ctx);
        addPoint(mk, ch.mix.tMix, quantile(st.markov, 0.5));
        addPoint(iid, ch.mix.tMix, quantile(st.iid, 0.5));
        addPoint(risk, ch.mix.tMix, mean(st.truth));
        addPoint(cm, kappa, st.markovCoverage);
        addPoint(ci, kappa, st.iidCoverage);
        if (kappa == 0.95)
            at95 = st;
        ctx.progress(0.4 + 0.1 * kappa, "κ sweep");
    }
    d.series[keys::series::kMarkovVsTMix] = mk;
    d.series[keys::series::kIidVsTMix] = iid;
    d.series[keys::series::kRiskVsTMix] = risk;
    d.series[keys::series::kMarkovCoverageVsKappa] = cm;
    d.series[keys::series::kIidCoverageVsKappa] = ci;
    return at95;
}

void claims(const Study& st, const Study* at95, const Setting& s, ResultDocument& d) {
    const std::string setting = "n = " + std::to_string(s.n) + ", R = " + std::to_string(s.repetitions) +
                                ", δ = " + formatSignificant(s.delta) + ", posterior " +
                                (s.fitted ? "fitted" : "prior");
    d.claims.push_back(
        claimOf(keys::claim::kMarkovCoverage,
                "The Markov PAC-Bayes bound covers the true risk in at least 1 − δ of the repetitions.",
                st.markovCoverage >= 1 - s.delta, st.markovCoverage, 1 - s.delta,
                "fraction of repetitions with bound ≥ exact stationary risk (" + setting + ")"));
    if (at95)
        d.claims.push_back(claimOf(
            keys::claim::kIidUndercovers,
            "At κ = 0.95 the i.i.d. bound covers the true risk less often than the Markov bound.",
            at95->iidCoverage < at95->markovCoverage, at95->iidCoverage, at95->markovCoverage,
            "i.i.d. coverage against Markov coverage on the ring world at κ = 0.95 (" + setting + ")"));
    const double med = quantile(st.markov, 0.5);
    d.claims.push_back(
        claimOf(keys::claim::kNonVacuous,
                "The Markov certificate is non-vacuous: its median over repetitions is below 1.", med < 1,
                med, 1.0, "median Markov bound on the normalised loss (" + setting + ")"));
}

} // namespace

ResultDocument PacBayesSacEngine::run(const InputList& inputs, const ParamSet& p, RunContext& ctx) const {
    if (p.getString(keys::param::kLab) == "control") {
        if (!inputs.empty())
            throw UsageError("pac-bayes-sac: lab=control trains on the built-in pendulum and reads no MDP "
                             "file; use lab=bound to certify a critic on " +
                             inputs[0]->path);
        return runControlLab(p, ctx);
    }
    ResultDocument d;
    const Setting s = settingOf(p);
    Chain ch;
    if (!inputs.empty()) {
        const auto* in = dynamic_cast<const MdpInput*>(inputs[0].get());
        if (!in)
            throw InputError(inputs[0]->path, "not a JSON MDP loaded by this engine");
        ch = makeChain(in->mdp);
        d.notes.push_back("MDP file " + in->path + ": " + in->summary +
                          "; κ sweep and iid-undercovers use the "
                          "built-in ring world");
    } else {
        ch = makeChain(ringWorld(int(p.getInt(keys::param::kRingSize)), int(p.getInt(keys::param::kActions)),
                                 p.getDouble(keys::param::kKappa)));
    }
    ctx.progress(0.0, "main study");
    const Study st = runStudy(ch, s, Rng(ctx.seed()).fork("main"), ctx);
    writeMain(ch, st, d);
    ctx.progress(0.2, "n sweep");
    sweepN(ch, s, ctx.seed(), ctx, d);
    const Study at95 = sweepKappa(p, s, ctx.seed(), ctx, d);
    claims(st, &at95, s, d);
    return d;
}

} // namespace pl::pbsac
