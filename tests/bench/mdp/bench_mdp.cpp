// Benchmark of the finite-MDP engine against peer.py (numpy/scipy, one thread):
//  * metric: the Ferns metric of a planted 50-state, 3-action MDP (γ = 0.9); ours (W1 by LEMON's
//    network simplex) per sweep, averaged over the full fixed point, against the peer's numpy sweep
//    with scipy.optimize.linprog W1 (3 sweeps; d after 3 sweeps compared with ours);
//  * chains: R = 200 chains of n = 5000 transitions on the 30-state ring world (κ = 0.8) with the
//    empirical risk of the zero critic, ours (one chain at a time) against numpy vectorised over
//    the repetitions;
//  * sac: soft actor-critic updates of the control lab (2 x 64 networks, minibatch 64) on a buffer
//    of 5000 random pendulum transitions, ours (mdp/SacAgent on the engines/nn tape) against the
//    peer's numpy SAC with hand-written backprop, time per update;
//  * returns: SAC and PB-SAC evaluation returns after 5000 steps at seeds 1..3 (report only, the
//    paper's "competitive performance"; --quick: seed 1).
// Ratio = peer_ms / ours_ms (> 1: we are faster). --quick: fewer peer sweeps and chains.
#include "bench/common/BenchPeer.h"
#include "core/RunContext.h"
#include "mdp/Bisimulation.h"
#include "mdp/ControlLab.h"
#include "mdp/MarkovChain.h"
#include "mdp/MdpWorlds.h"
#include "mdp/PacBayesBound.h"
#include "mdp/SacAgent.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <unistd.h>

using namespace pl::mdp;
using Clock = std::chrono::steady_clock;

namespace {

double msSince(Clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

std::string toJson(const Mdp& m) {
    std::ostringstream o;
    o.precision(17);
    o << "{\"states\": " << m.states << ", \"actions\": " << m.actions << ", \"P\": [";
    bool first = true;
    for (int s = 0; s < m.states; ++s)
        for (int a = 0; a < m.actions; ++a)
            for (const Transition& t : m.row(s, a)) {
                o << (first ? "" : ",") << "[" << s << "," << a << "," << t.next << "," << t.p << "]";
                first = false;
            }
    o << "], \"R\": [";
    first = true;
    for (int s = 0; s < m.states; ++s)
        for (int a = 0; a < m.actions; ++a) {
            o << (first ? "" : ",") << "[" << s << "," << a << "," << m.reward(s, a) << "]";
            first = false;
        }
    o << "], \"policy\": [";
    first = true;
    for (int s = 0; s < m.states && m.policy.size(); ++s)
        for (int a = 0; a < m.actions; ++a) {
            o << (first ? "" : ",") << "[" << s << "," << a << "," << m.policy(s, a) << "]";
            first = false;
        }
    o << "], \"labels\": {}}";
    return o.str();
}

} // namespace

int main(int argc, char** argv) {
    bool quick = false;
    std::string jsonOut = "bench_mdp.json";
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--quick")
            quick = true;
        else if (a == "--json" && i + 1 < argc)
            jsonOut = argv[++i];
    }
    nlohmann::json report;
    const std::string dir = "/tmp/bench_mdp." + std::to_string(getpid());
    std::system(("mkdir -p " + dir).c_str());

    // 1. Metric at |S| = 50.
    pl::Rng rng(1);
    const Mdp m = plantedLumpable(50, 3, 5, 0.02, rng);
    std::ofstream(dir + "/metric.json") << toJson(m);
    pl::RunContext ctx(1);
    auto t0 = Clock::now();
    const MetricResult full = bisimulationMetric(m, 0.9, ctx);
    const double oursFullMs = msSince(t0);
    const double oursSweepMs = oursFullMs / full.iterations;
    const int peerSweeps = quick ? 1 : 3;
    const MetricResult partial = bisimulationMetric(m, 0.9, ctx, 1e-12, peerSweeps);
    const nlohmann::json pm = pl::bench::runPythonPeer(PAPERLAB_MDP_PEER, "metric " + dir + "/metric.json " +
                                                                              std::to_string(peerSweeps));
    double diff = -1, peerSweepMs = -1;
    if (!pm.is_null()) {
        peerSweepMs = pm["ms_per_sweep"].get<double>();
        diff = 0;
        for (int s = 0; s < 50; ++s)
            for (int t = 0; t < 50; ++t)
                diff =
                    std::max(diff, std::fabs(pm["d"][size_t(s)][size_t(t)].get<double>() - partial.d(s, t)));
    }
    std::printf(
        "metric |S|=50: ours %.2f ms/sweep (%d sweeps, %.1f ms total, %lld simplex solves); peer %.1f "
        "ms/sweep; ratio %.1fx; max |d_ours - d_peer| after %d sweeps %.2e\n",
        oursSweepMs, full.iterations, oursFullMs, full.transportSolves, peerSweepMs,
        peerSweepMs / oursSweepMs, peerSweeps, diff);
    report["metric"] = {{"ours_ms_per_sweep", oursSweepMs},   {"ours_sweeps", full.iterations},
                        {"ours_total_ms", oursFullMs},        {"peer_ms_per_sweep", peerSweepMs},
                        {"ratio", peerSweepMs / oursSweepMs}, {"max_abs_diff", diff}};

    // 2. Bound-lab chains.
    const int reps = quick ? 50 : 200;
    const int64_t n = 5000;
    const Mdp ring = ringWorld(30, 3, 0.8);
    std::ofstream(dir + "/ring.json") << toJson(ring);
    const TransitionTable table = transitionTable(ring, ring.policy);
    const Eigen::VectorXd pi = stationaryLaw(ring.behaviourChain(ring.policy));
    const Eigen::VectorXd zero = Eigen::VectorXd::Zero(30);
    pl::Rng crng(7);
    t0 = Clock::now();
    double acc = 0;
    for (int r = 0; r < reps; ++r)
        acc += risk(table, sampleChainCounts(table, pi, n, crng), n, pi, zero, 0.0, 0.5, 1.0);
    const double oursChainMs = msSince(t0);
    const nlohmann::json pc =
        pl::bench::runPythonPeer(PAPERLAB_MDP_PEER, "chains " + dir + "/ring.json " + std::to_string(n) +
                                                        " " + std::to_string(reps) + " 7");
    const double peerChainMs = pc.is_null() ? -1 : pc["ms"].get<double>();
    std::printf("chains R=%d n=%lld: ours %.1f ms (mean L̂ %.5f); peer %.1f ms (mean L̂ %.5f); ratio %.1fx\n",
                reps, (long long)n, oursChainMs, acc / reps, peerChainMs,
                pc.is_null() ? -1.0 : pc["mean_empirical_risk"].get<double>(), peerChainMs / oursChainMs);
    report["chains"] = {{"ours_ms", oursChainMs},
                        {"peer_ms", peerChainMs},
                        {"ratio", peerChainMs / oursChainMs},
                        {"ours_mean_risk", acc / reps},
                        {"peer_mean_risk", pc.is_null() ? -1.0 : pc["mean_empirical_risk"].get<double>()}};
    // 3. SAC updates.
    const int updates = quick ? 100 : 500;
    SacAgent agent(SacSettings{}, 5000, pl::Rng(3));
    pl::Rng srng(5);
    for (int i = 0; i < 5000; ++i) {
        const double th = srng.uniform(-3.14159, 3.14159), td = srng.uniform(-8, 8);
        agent.record({std::cos(th), std::sin(th), td}, srng.uniform(-2, 2), -srng.uniform(),
                     {std::cos(th + 0.1), std::sin(th + 0.1), td});
    }
    agent.update(); // warm caches and the optimisers' moments
    t0 = Clock::now();
    for (int k = 0; k < updates; ++k)
        agent.update();
    const double oursSacMs = msSince(t0) / updates;
    const nlohmann::json ps =
        pl::bench::runPythonPeer(PAPERLAB_MDP_PEER, "sac " + std::to_string(updates) + " 64 64 5");
    const double peerSacMs = ps.is_null() ? -1 : ps["ms_per_update"].get<double>();
    std::printf("sac update (2x64, batch 64): ours %.3f ms; peer (numpy) %.3f ms; ratio %.2fx\n", oursSacMs,
                peerSacMs, peerSacMs / oursSacMs);
    report["sac"] = {{"ours_ms_per_update", oursSacMs},
                     {"peer_ms_per_update", peerSacMs},
                     {"ratio", peerSacMs / oursSacMs}};

    // 4. Returns over seeds (report only).
    nlohmann::json rows = nlohmann::json::array();
    for (uint64_t seed = 1; seed <= (quick ? 1u : 3u); ++seed) {
        ControlSettings cs;
        pl::RunContext rc(seed);
        t0 = Clock::now();
        const ControlRun sac = trainPendulum(cs, false, seed, rc, 0, 0.5);
        const ControlRun pb = trainPendulum(cs, true, seed, rc, 0.5, 1);
        const double sec = msSince(t0) / 1000;
        std::printf("returns seed %llu (5000 steps): SAC %.1f, PB-SAC %.1f, certificate %.3f (%.1f s)\n",
                    (unsigned long long)seed, sac.evalReturn, pb.evalReturn, pb.final.bound, sec);
        rows.push_back({{"seed", seed},
                        {"sac", sac.evalReturn},
                        {"pbsac", pb.evalReturn},
                        {"certificate", pb.final.bound},
                        {"seconds", sec}});
    }
    report["returns"] = rows;
    std::ofstream(jsonOut) << report.dump(2) << "\n";
    std::system(("rm -rf " + dir).c_str());
    return 0;
}
