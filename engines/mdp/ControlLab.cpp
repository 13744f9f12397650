#include "mdp/ControlLab.h"

#include "core/ResultBuilders.h"
#include "mdp/Pendulum.h"

#include <cmath>
#include <numbers>
#include <string>

namespace pl::mdp {

namespace {

/// Sum of rewards of one deterministic episode from a given state.
double evaluateEpisode(SacAgent& agent, double theta, double thetaDot) {
    Pendulum env;
    env.resetTo(theta, thetaDot);
    double ret = 0;
    for (int k = 0; k < Pendulum::kEpisodeSteps; ++k) {
        const auto o = env.observation();
        ret += env.step(agent.meanAction(Eigen::RowVector3d(o[0], o[1], o[2]))(0, 0));
    }
    return ret;
}

double evaluate(SacAgent& agent, int episodes, uint64_t seed) {
    Rng rng = Rng(seed).fork("eval");
    double sum = 0;
    for (int e = 0; e < episodes; ++e) {
        Pendulum env;
        env.reset(rng);
        sum += evaluateEpisode(agent, env.theta(), env.thetaDot());
    }
    return sum / episodes;
}

Eigen::MatrixXd policyGrid(SacAgent& agent) {
    Mat obs(kPolicyGrid * kPolicyGrid, 3);
    for (int r = 0; r < kPolicyGrid; ++r)
        for (int c = 0; c < kPolicyGrid; ++c) {
            const double speed = Pendulum::kMaxSpeed * (1 - 2.0 * r / (kPolicyGrid - 1));
            const double theta = std::numbers::pi * (-1 + 2.0 * c / (kPolicyGrid - 1));
            const auto o = Pendulum::observe(theta, speed);
            obs.row(r * kPolicyGrid + c) = Eigen::RowVector3d(o[0], o[1], o[2]);
        }
    const Mat a = agent.meanAction(obs);
    Eigen::MatrixXd out(kPolicyGrid, kPolicyGrid);
    for (int r = 0; r < kPolicyGrid; ++r)
        for (int c = 0; c < kPolicyGrid; ++c)
            out(r, c) = a(r * kPolicyGrid + c, 0);
    return out;
}

/// One training episode; returns its return in reward units.
double runEpisode(SacAgent& agent, Pendulum& env, Rng& explore, int& step, const ControlSettings& s,
                  RunContext& ctx) {
    double ret = 0;
    for (int k = 0; k < Pendulum::kEpisodeSteps; ++k, ++step) {
        ctx.throwIfCancelled();
        const auto o = env.observation();
        const double u =
            step < s.startSteps ? explore.uniform(-Pendulum::kMaxTorque, Pendulum::kMaxTorque) : agent.act(o);
        const double r = env.step(u);
        ret += r;
        agent.record(o, u, r / Pendulum::maxCost(), env.observation());
        if (step >= s.startSteps)
            agent.update();
    }
    return ret;
}

} // namespace

ControlRun trainPendulum(const ControlSettings& s, bool pacBayes, uint64_t seed, RunContext& ctx,
                         double progressFrom, double progressTo) {
    const int episodes = (s.steps + Pendulum::kEpisodeSteps - 1) / Pendulum::kEpisodeSteps;
    SacSettings sac = s.sac;
    sac.pacBayes = pacBayes;
    const char* name = pacBayes ? "PB-SAC" : "SAC";
    SacAgent agent(sac, episodes * Pendulum::kEpisodeSteps, Rng(seed).fork(pacBayes ? "pbsac" : "sac"));
    // Start states and warm-up actions are shared by both agents (paired comparison).
    const Rng starts = Rng(seed).fork("episode starts");
    Rng explore = Rng(seed).fork("warm-up actions");
    ControlRun run;
    run.certificate = emptySeries("environment steps", "certificate on the clipped TD loss");
    run.empirical = emptySeries("environment steps", "E_Q L̂ (clipped TD loss)");
    run.posteriorSd = emptySeries("environment steps", "mean posterior σ of the critic head");
    run.alpha = emptySeries("environment steps", "temperature α");
    int step = 0;
    for (int e = 0; e < episodes; ++e) {
        Pendulum env;
        Rng start = starts.fork("episode " + std::to_string(e));
        env.reset(start);
        agent.beginEpisode();
        run.episodeReturn.push_back(runEpisode(agent, env, explore, step, s, ctx));
        addPoint(run.alpha, step, agent.alpha());
        if (pacBayes) {
            const SacCertificate c = agent.certificate();
            addPoint(run.certificate, step, c.bound);
            addPoint(run.empirical, step, c.empiricalRisk);
            addPoint(run.posteriorSd, step, agent.meanPosteriorSd());
        }
        ctx.progress(progressFrom + (progressTo - progressFrom) * (e + 1) / episodes,
                     std::string(name) + " episode " + std::to_string(e + 1) + "/" +
                         std::to_string(episodes) + ": return " +
                         std::to_string(int(std::lround(run.episodeReturn.back()))));
    }
    run.evalReturn = evaluate(agent, s.evalEpisodes, seed);
    run.policy = policyGrid(agent);
    run.final = agent.certificate();
    run.tMix = agent.tMixEstimate();
    return run;
}

} // namespace pl::mdp
