#pragma once
/// The scripted agents (stand-ins for the LLM agent and the CodeAct baseline) that drive a Task
/// within a step budget. Both share the planner (initial plan from the task, e.g. Ziegler–Nichols),
/// the primitive generator (pattern search on log θ), the noisy proposer (with probability
/// `noise`, a proposal's θ is multiplied by exp(0.7·N(0, 1)) per entry, or for tasks without θ its
/// tolerances are loosened ×10 or its integrator reset to rk45) and the rule table. The runtime
/// agent watches each run (SimLoop live) and repairs or aborts at once; the baseline judges complete
/// runs (post hoc) and applies the same rule to its next plan. After 6 repairs in a row either
/// agent re-plans from the initial guess. No Qt.

#include "simloop/SimLoop.h"

#include "core/Rng.h"

namespace pl::simloop {

enum class AgentKind { Runtime, Baseline, None };

/// "runtime" | "baseline" | "none"; throws UsageError otherwise.
AgentKind agentFromName(const std::string& name);

struct AgentOptions {
    long budget = 10000;    ///< total accepted integrator steps of an episode
    int monitorPeriod = 10; ///< steps between monitor looks
    double noise = 0.3;     ///< probability that a proposal is corrupted
    bool record = false;    ///< keep the timeline, step sizes and log (display episode)
};

/// One attempt as the episode summary keeps it.
struct AttemptSummary {
    Plan plan;          ///< plan after local repairs
    long startStep = 0; ///< cumulative step at its start
    long steps = 0;
    bool completed = false, accepted = false;
    Anomaly anomaly = Anomaly::None;
    long detectStep = -1; ///< cumulative step of its first detection
    double cost = 0;
};

struct EpisodeResult {
    bool success = false;
    long used = 0;            ///< steps spent
    long wasted = 0;          ///< steps in runs that were discarded (all of them on failure)
    long firstDetection = -1; ///< cumulative step of the episode's first detection (-1: none)
    std::vector<AttemptSummary> attempts;
    // Display data (record only): the episode timeline on the cumulative step axis.
    std::vector<double> timelineStep, timelineOut, stepH;
    std::vector<int> stepAttempt;
    std::vector<LogEvent> log;
    AttemptResult last; ///< the accepted run, or the last one
};

/// Runs one episode of \a agent (Runtime or Baseline) on \a task from \a initial (the user's
/// integrator and tolerances); \a rng drives the proposer's noise.
EpisodeResult runEpisode(const Task& task, AgentKind agent, const Plan& initial, const AgentOptions& opt,
                         Rng rng, RunContext& ctx);

/// Pattern search on log θ (coordinate directions ±s, s halves after a full sweep without
/// improvement); entries are kept at or above the floor.
class PatternSearch {
public:
    PatternSearch(std::vector<double> start, std::vector<double> floor, double step = 0.4);
    /// Records the cost of \a theta; it becomes the centre when it improves on it.
    void report(const std::vector<double>& theta, double cost);
    /// Makes \a theta the centre (a repaired plan becomes the working design; its cost is unknown).
    void moveTo(const std::vector<double>& theta);
    /// The next proposal around the centre.
    std::vector<double> next();
    const std::vector<double>& centre() const { return m_centre; }
    double step() const { return m_step; }

private:
    std::vector<double> m_centre, m_floor;
    double m_centreCost = 1e300, m_step;
    int m_dir = 0, m_sinceImprove = 0;
};

} // namespace pl::simloop
