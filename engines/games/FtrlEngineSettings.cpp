#include "FtrlEngineSettings.h"

#include "FtrlPotentialKeys.h"
#include "core/Errors.h"

namespace pl::games {

namespace {
namespace P = ftrl::keys::param;
} // namespace

std::vector<ParamSpec> ftrlEngineParams() {
    std::vector<ParamSpec> p;
    p.push_back(ParamSpec::choice(
        P::kDynamics, "Dynamics", {"ftrl_entropic", "ftrl_euclidean", "mwu", "fictitious_play"},
        "ftrl_entropic",
        "Learning rule: entropic FTRL (softmax of eta times cumulative payoff), Euclidean FTRL "
        "(projection), MWU in greedy mirror-descent form, or fictitious play (best response to "
        "the history)."));
    p.back().group = "Dynamics";
    p.push_back(
        ParamSpec::choice(P::kUpdate, "Update order", {"simultaneous", "alternating"}, "simultaneous",
                          "Simultaneous: both players respond to the previous iterate. Alternating: the row "
                          "player moves first, the column player responds to the new row strategy."));
    p.back().group = "Dynamics";
    p.push_back(ParamSpec::choice(P::kSchedule, "Learning-rate schedule", {"constant", "vanishing"},
                                  "constant", "Constant eta, or eta / sqrt(t + 1)."));
    p.back().group = "Dynamics";
    p.push_back(
        ParamSpec::real(P::kEta, "Learning rate eta", 1e-2, 1e4, kFtrlDefaultEta,
                        "FTRL / MWU learning rate (eta_0 for the vanishing schedule), per unit of payoff. "
                        "Ignored by fictitious play.",
                        "1/payoff", true));
    p.back().group = "Dynamics";
    p.push_back(ParamSpec::choice(
        P::kTieBreak, "FP tie-breaking", {"lowest", "random", "adversarial"}, "lowest",
        "How fictitious play chooses among equally good responses: lowest index, uniformly at "
        "random (seeded), or farthest from the equilibrium."));
    p.back().group = "Dynamics";
    p.push_back(ParamSpec::choice(P::kStart, "First play", {"first_pure", "uniform"}, "first_pure",
                                  "Play 0: the pure profile (1,1) or both players uniform."));
    p.back().group = "Dynamics";
    p.push_back(ParamSpec::choice(
        P::kGame, "Game", {"snake_linear", "snake_geometric", "random_potential", "random_identical"},
        "snake_linear",
        "Built-in game (ignored when a game file is loaded). Snakes are this workbench's own "
        "hard instances, not the paper's construction."));
    p.back().group = "Game";
    p.push_back(
        ParamSpec::integer(P::kN, "Strategies per player n", 2, 64, 4, "Size of the built-in n x n game."));
    p.back().group = "Game";
    p.push_back(ParamSpec::real(P::kRatio, "Geometric ratio r", 0.25, 16, 2,
                                "Geometric snake: consecutive path payoffs grow by the factor 1 + 1/r."));
    p.back().group = "Game";
    p.push_back(ParamSpec::integer(
        P::kMaxSteps, "Max steps", 1000, 1000000000, 1000000,
        "Iterations of the main run (diagnostics are recorded on a log-spaced grid).", "steps"));
    p.back().group = "Run";
    p.push_back(
        ParamSpec::real(P::kEpsilon, "epsilon (Nash gap)", 1e-4, 0.5, 0.01,
                        "An iterate is an epsilon-Nash equilibrium when no player gains more than epsilon by "
                        "deviating (payoffs of the snakes lie in [0, 1]).",
                        "payoff", true));
    p.back().group = "Run";
    p.push_back(ParamSpec::real(
        P::kTau, "tau (period mass)", 1e-4, 0.5, 0.01,
        "A period is a pure profile holding at least 1 - tau of the probability mass.", "", true));
    p.back().group = "Run";
    p.push_back(
        ParamSpec::integer(P::kNMaxSweep, "Sweep: largest n (FP)", 4, 12, 7,
                           "Largest n of the exact event-driven fictitious-play sweep on the linear snake."));
    p.back().group = "Sweeps";
    p.push_back(
        ParamSpec::integer(P::kNMaxSweepFtrl, "Sweep: largest n (FTRL)", 2, 8, 4,
                           "Largest n of the FTRL sweep on the linear snake (each run stops at max_steps)."));
    p.back().group = "Sweeps";
    return p;
}

FtrlEngineSettings readFtrlEngineSettings(const ParamSet& ps) {
    FtrlEngineSettings s;
    s.dynamicsName = ps.getString(P::kDynamics);
    s.dynamics = parseFtrlDynamics(s.dynamicsName);
    s.update = parseFtrlUpdate(ps.getString(P::kUpdate));
    s.schedule = parseFtrlSchedule(ps.getString(P::kSchedule));
    s.eta = ps.getDouble(P::kEta);
    s.tieBreak = parseTieBreak(ps.getString(P::kTieBreak));
    const std::string& start = ps.getString(P::kStart);
    if (start != "first_pure" && start != "uniform")
        throw UsageError("start must be one of first_pure|uniform, got '" + start + "'");
    s.startPure = start == "first_pure";
    s.familyName = ps.getString(P::kGame);
    if (s.familyName == "snake_linear")
        s.family = FtrlGameFamily::SnakeLinear;
    else if (s.familyName == "snake_geometric")
        s.family = FtrlGameFamily::SnakeGeometric;
    else if (s.familyName == "random_potential")
        s.family = FtrlGameFamily::RandomPotential;
    else if (s.familyName == "random_identical")
        s.family = FtrlGameFamily::RandomIdentical;
    else
        throw UsageError(
            "game must be one of snake_linear|snake_geometric|random_potential|random_identical");
    s.n = int(ps.getInt(P::kN));
    s.ratio = ps.getDouble(P::kRatio);
    s.maxSteps = ps.getInt(P::kMaxSteps);
    s.epsilon = ps.getDouble(P::kEpsilon);
    s.tau = ps.getDouble(P::kTau);
    s.nMaxSweep = int(ps.getInt(P::kNMaxSweep));
    s.nMaxSweepFtrl = int(ps.getInt(P::kNMaxSweepFtrl));
    return s;
}

FtrlConfig mainFtrlConfig(const FtrlEngineSettings& s, uint64_t seed) {
    FtrlConfig c;
    c.dynamics = s.dynamics;
    c.update = s.update;
    c.schedule = s.schedule;
    c.eta = s.eta;
    c.maxSteps = s.maxSteps;
    c.epsilon = s.epsilon;
    c.tau = s.tau;
    c.startPure = s.startPure;
    c.tieBreak = s.tieBreak;
    c.seed = seed;
    return c;
}

} // namespace pl::games
