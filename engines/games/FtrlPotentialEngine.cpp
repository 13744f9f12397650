#include "FtrlPotentialEngine.h"

#include "FtrlDynamics.h"
#include "FtrlEngineSettings.h"
#include "FtrlEngineStudies.h"
#include "FtrlGame.h"
#include "FtrlGameFile.h"
#include "FtrlPotentialKeys.h"
#include "FtrlTensorDynamics.h"
#include "GameLoader.h"
#include "PotentialCheck.h"
#include "PotentialGenerators.h"
#include "SnakeGame.h"
#include "core/Errors.h"
#include "core/ResultBuilders.h"
#include "core/Rng.h"

#include <cmath>
#include <cstdio>
#include <limits>
#include <optional>

namespace pl::games {

namespace {
namespace M = ftrl::keys::metric;
namespace S = ftrl::keys::series;
namespace X = ftrl::keys::matrix;
namespace V = ftrl::keys::vector;
namespace L = ftrl::keys::label;
namespace C = ftrl::keys::claim;
} // namespace

namespace {

/// The game of one run, whatever its source.
struct PreparedGame {
    NormalFormGame nfg;          ///< always filled (labels, N-player dynamics)
    std::optional<FtrlGame> two; ///< two-player form
    PotentialReport potential;
    std::vector<int> target; ///< pure profile counted as "the equilibrium" (empty: none)
    bool fromFile = false;
    std::string description;
};

double stepOrNaN(int64_t step) {
    return step >= 0 ? double(step) : kNaN;
}

std::string fmtG(double v) {
    return formatNumber("%.4g", v);
}

PreparedGame prepareGame(const InputList& inputs, const FtrlEngineSettings& s, uint64_t seed) {
    if (inputs.size() > 1)
        throw UsageError("ftrl-potential-games takes at most one game file");
    PreparedGame p;
    if (!inputs.empty()) {
        auto in = std::dynamic_pointer_cast<const GameInput>(inputs.front());
        if (!in)
            throw InputError(inputs.front() ? inputs.front()->path : "<input>", "not a game file");
        p.fromFile = true;
        p.nfg = in->game;
        p.description = in->summary.empty() ? describeGame(in->game) : in->summary;
        if (p.nfg.numPlayers() < 2)
            throw InputError(in->path, "a game needs at least two players");
        if (p.nfg.numPlayers() != 2)
            p.potential = checkPotential(p.nfg.numStrategies, p.nfg.payoffs);
        else {
            FtrlGame g;
            g.kind = "file";
            g.title = p.nfg.title.empty() ? in->path : p.nfg.title;
            g.A = p.nfg.matrix(0);
            g.B = p.nfg.matrix(1);
            g.exact = exactFromDouble(g.A, g.B);
            p.potential = checkPotential(g.A, g.B);
            p.two = std::move(g);
        }
    } else {
        Rng rng = Rng(seed).fork("game");
        FtrlGame g;
        switch (s.family) {
        case FtrlGameFamily::SnakeLinear:
            g = makeLinearSnake(s.n);
            break;
        case FtrlGameFamily::SnakeGeometric:
            g = makeGeometricSnake(s.n, s.ratio);
            break;
        case FtrlGameFamily::RandomPotential:
            g = makeRandomPotentialGame(s.n, s.n, rng);
            break;
        case FtrlGameFamily::RandomIdentical:
            g = makeRandomIdenticalGame(s.n, s.n, rng);
            break;
        }
        p.nfg = NormalFormGame::fromBimatrix(g.A, g.B, g.title);
        for (int q = 0; q < 2; ++q)
            for (size_t k = 0; k < p.nfg.strategyNames[size_t(q)].size(); ++k)
                p.nfg.strategyNames[size_t(q)][k] = (q == 0 ? "r" : "c") + std::to_string(k + 1);
        p.description = g.title;
        p.potential = checkPotential(g.A, g.B);
        p.two = std::move(g);
    }
    // Target: the built-in game's own, else the potential maximiser, else the best pure NE.
    if (p.two && p.two->targetRow >= 0) {
        p.target = {p.two->targetRow, p.two->targetCol};
    } else if (p.potential.isPotential) {
        size_t best = 0;
        for (size_t k = 1; k < p.potential.phiFlat.size(); ++k)
            if (p.potential.phiFlat[k] > p.potential.phiFlat[best])
                best = k;
        int64_t rest = int64_t(best);
        for (int q = 0; q < p.nfg.numPlayers(); ++q) {
            p.target.push_back(int(rest % p.nfg.numStrategies[size_t(q)]));
            rest /= p.nfg.numStrategies[size_t(q)];
        }
    } else {
        p.target = bestPureNashTensor(p.nfg);
    }
    if (p.two && !p.target.empty()) {
        p.two->targetRow = p.target[0];
        p.two->targetCol = p.target[1];
    }
    return p;
}

/// \a M with the strategy names as labels where their counts match.
Matrix toMatrix(const Eigen::MatrixXd& M, const std::vector<std::string>& rows,
                const std::vector<std::string>& cols) {
    return matrixOf(M, labelsIfSized(rows, M.rows()), labelsIfSized(cols, M.cols()));
}

/// Final gap of the panel-default FTRL (entropic, eta = 3, constant, simultaneous) on a game.
struct ApproxNeOutcome {
    double gap = kNaN;
    int64_t steps = 0;
    int64_t firstEps = -1;
    std::string game;
};

void addCommonNotes(ResultDocument& doc, const PreparedGame& p, const FtrlEngineSettings& s) {
    doc.notes.push_back("Game: " + p.description +
                        (p.fromFile ? " (loaded; the game, n and ratio parameters are ignored)" : "") + ".");
    doc.notes.push_back(std::string("Potential test: ") + p.potential.detail +
                        (p.potential.isPotential ? "."
                                                 : ". Potential diagnostics (potential_vs_iteration) are "
                                                   "unavailable for this game."));
    if (p.two && !p.two->path.empty())
        doc.notes.push_back(
            "The snakes are this workbench's own hard instances (improvement path (1,1) -> (2,1) -> "
            "(2,2) -> ... -> (n,n), all other payoffs 0, A = B), not the paper's construction.");
    doc.notes.push_back(
        "Conventions: iterate 0 is the first play; step counts are iterate indices. trajectory_x/_y "
        "plot 1 - E[strategy index]/(n-1), which is P(strategy 1) for two strategies. labels.period "
        "holds the 0-based profile index (row * cols + col; Gambit order for 3+ players) of the pure "
        "profile with at least 1 - tau mass, or -1 while the play is mixed.");
    if (p.two && p.two->path.size() > 1) {
        double inc = std::numeric_limits<double>::infinity();
        for (size_t k = 1; k < p.two->path.size(); ++k) {
            const auto [i1, j1] = p.two->path[k];
            const auto [i0, j0] = p.two->path[k - 1];
            inc = std::min(inc, p.two->A(i1, j1) - p.two->A(i0, j0));
        }
        if (s.epsilon >= inc)
            doc.notes.push_back(
                "epsilon = " + fmtG(s.epsilon) + " is not below the snake's smallest payoff increment " +
                fmtG(inc) +
                ": profiles on the path already count as epsilon-equilibria, so epsilon-based "
                "diagnostics say little here; lower epsilon.");
    }
    if (s.dynamics == FtrlDynamicsKind::Mwu && s.schedule == FtrlSchedule::Constant)
        doc.notes.push_back(
            "With a constant learning rate, greedy MWU and entropic FTRL are the same dynamics (equal up "
            "to rounding); they differ under the vanishing schedule.");
}

} // namespace

std::string FtrlPotentialEngine::id() const {
    return "ftrl-potential-games";
}

std::vector<ParamSpec> FtrlPotentialEngine::params() const {
    return ftrlEngineParams();
}

std::vector<std::string> FtrlPotentialEngine::inputExtensions() const {
    return {"nfg", "csv"};
}

std::shared_ptr<const LoadedInput> FtrlPotentialEngine::load(const std::string& path) const {
    return loadFtrlGameFile(path);
}

namespace {

constexpr const char* kGapLabel = "Nash gap (max regret)";

/// What the main FTRL run leaves for the later stages.
struct MainRunOutcome {
    int64_t firstEps = -1, firstTarget = -1;
    ApproxNeOutcome approx; ///< filled when the run itself is the panel-default FTRL on a potential game
};

/// Stage 2a: the main FTRL run on a two-player game and its results.
MainRunOutcome runTwoPlayer(const PreparedGame& p, const FtrlConfig& cfg, bool defaultFtrl,
                            RunContext& mainCtx, ResultDocument& doc) {
    const bool potential = p.potential.isPotential;
    const FtrlGame& g = *p.two;
    const Eigen::MatrixXd* phi = potential ? &p.potential.phi : nullptr;
    const FtrlTrace tr = runFtrl(g, cfg, phi, &mainCtx);
    MainRunOutcome out;
    out.firstEps = tr.firstEpsilonStep;
    out.firstTarget = tr.firstTargetStep;
    doc.vectors[V::kX] = toStd(tr.x);
    doc.vectors[V::kY] = toStd(tr.y);
    doc.vectors[V::kXAverage] = toStd(tr.xAverage);
    doc.vectors[V::kYAverage] = toStd(tr.yAverage);
    doc.metrics[M::kNashGap] = tr.finalGap;
    doc.metrics[M::kNashGapAverage] = tr.finalGapAverage;
    doc.metrics[M::kStepsRun] = double(tr.stepsRun);
    doc.metrics[M::kMassOnEquilibrium] = tr.massTarget.empty() ? kNaN : tr.massTarget.back();
    doc.metrics[M::kPotential] = tr.potential.empty() ? kNaN : tr.potential.back();
    doc.series[S::kNashGapVsIteration] = seriesOf(tr.step, tr.gap, "iteration", kGapLabel);
    doc.series[S::kNashGapAvgVsIteration] =
        seriesOf(tr.step, tr.gapAverage, "iteration", "Nash gap of the time average");
    doc.series[S::kPotentialVsIteration] = seriesOf(tr.step, tr.potential, "iteration", "potential");
    doc.series[S::kMassOnEquilibriumVsIteration] =
        seriesOf(tr.step, tr.massTarget, "iteration", "probability of the equilibrium profile");
    doc.series[S::kTrajectoryX] = seriesOf(tr.step, tr.trajX, "iteration", "row player: 1 - E[i]/(n-1)");
    doc.series[S::kTrajectoryY] = seriesOf(tr.step, tr.trajY, "iteration", "column player: 1 - E[j]/(n-1)");
    doc.series[S::kTrajectoryXy] = seriesOf(tr.trajX, tr.trajY, "row player", "column player");
    doc.labels[L::kPeriod] = tr.period;
    if (!tr.xs.empty()) {
        doc.matrices[X::kTrajectoryXProbs] = matrixOfRows(tr.xs);
        doc.matrices[X::kTrajectoryYProbs] = matrixOfRows(tr.ys);
    }
    doc.matrices[X::kPayoff] = toMatrix(g.A, p.nfg.strategyNames[0], p.nfg.strategyNames[1]);
    doc.matrices[X::kPayoffB] = toMatrix(g.B, p.nfg.strategyNames[0], p.nfg.strategyNames[1]);
    if (potential)
        doc.matrices[X::kPotential] =
            toMatrix(p.potential.phi, p.nfg.strategyNames[0], p.nfg.strategyNames[1]);
    if (defaultFtrl && potential)
        out.approx = {tr.finalGap, tr.stepsRun, tr.firstEpsilonStep, g.title};
    return out;
}

/// Stage 2b: the main FTRL run on a game of three or more players and its results.
MainRunOutcome runNPlayer(const PreparedGame& p, const FtrlConfig& cfg, bool defaultFtrl, RunContext& mainCtx,
                          ResultDocument& doc) {
    const bool potential = p.potential.isPotential;
    const FtrlTensorTrace tr = runFtrlTensor(p.nfg, cfg, potential ? &p.potential.phiFlat : nullptr,
                                             p.target.empty() ? nullptr : &p.target, &mainCtx);
    MainRunOutcome out;
    out.firstEps = tr.firstEpsilonStep;
    out.firstTarget = tr.firstTargetStep;
    doc.vectors[V::kX] = toStd(tr.final[0]);
    doc.vectors[V::kY] = toStd(tr.final[1]);
    doc.vectors[V::kXAverage] = toStd(tr.average[0]);
    doc.vectors[V::kYAverage] = toStd(tr.average[1]);
    for (size_t q = 2; q < tr.final.size(); ++q)
        doc.vectors[V::kStrategyPrefix + std::to_string(q + 1)] = toStd(tr.final[q]);
    doc.metrics[M::kNashGap] = tr.finalGap;
    doc.metrics[M::kNashGapAverage] = kNaN;
    doc.metrics[M::kStepsRun] = double(tr.stepsRun);
    doc.metrics[M::kMassOnEquilibrium] = tr.massTarget.empty() ? kNaN : tr.massTarget.back();
    doc.metrics[M::kPotential] = tr.potential.empty() ? kNaN : tr.potential.back();
    doc.series[S::kNashGapVsIteration] = seriesOf(tr.step, tr.gap, "iteration", kGapLabel);
    doc.series[S::kPotentialVsIteration] = seriesOf(tr.step, tr.potential, "iteration", "potential");
    doc.series[S::kMassOnEquilibriumVsIteration] =
        seriesOf(tr.step, tr.massTarget, "iteration", "probability of the equilibrium profile");
    const char* names[] = {S::kTrajectoryX, S::kTrajectoryY, S::kTrajectoryZ};
    for (size_t q = 0; q < std::min<size_t>(3, tr.projected.size()); ++q)
        doc.series[names[q]] = seriesOf(tr.step, tr.projected[q], "iteration",
                                        "player " + std::to_string(q + 1) + ": 1 - E[k]/(n-1)");
    doc.series[S::kTrajectoryXy] = seriesOf(tr.projected[0], tr.projected[1], "player 1", "player 2");
    doc.labels[L::kPeriod] = tr.period;
    // Player 1's payoffs: rows = own strategies, columns = the others' profiles (Gambit order).
    const int n0 = p.nfg.numStrategies[0];
    const int64_t rest = p.nfg.numProfiles() / n0;
    for (int q = 0; q < 2; ++q) {
        Eigen::MatrixXd Mq(n0, rest);
        for (int64_t c = 0; c < rest; ++c)
            for (int r = 0; r < n0; ++r)
                Mq(r, c) = p.nfg.payoffs[size_t(q)][size_t(r + n0 * c)];
        doc.matrices[q == 0 ? X::kPayoff : X::kPayoffB] = toMatrix(Mq, p.nfg.strategyNames[0], {});
    }
    doc.notes.push_back(std::to_string(p.nfg.numPlayers()) +
                        "-player game: matrices.payoff/payoff_b hold players 1 and 2's payoffs with rows = "
                        "player 1's strategies and columns = the other players' profiles (Gambit order).");
    if (defaultFtrl && potential)
        out.approx = {tr.finalGap, tr.stepsRun, tr.firstEpsilonStep, p.description};
    return out;
}

/// Stage 3: when the main run first met epsilon and the target.
void packFirstSteps(const MainRunOutcome& o, ResultDocument& doc) {
    doc.metrics[M::kFirstEpsilonNeStep] = stepOrNaN(o.firstEps);
    doc.metrics[M::kFirstTargetStep] = stepOrNaN(o.firstTarget);
    if (o.firstEps >= 0 && (o.firstTarget < 0 || o.firstEps < o.firstTarget))
        doc.notes.push_back(
            "The iterate was an epsilon-Nash equilibrium already at step " + std::to_string(o.firstEps) +
            (o.firstTarget >= 0 ? ", long before it settled on the equilibrium profile (step " +
                                      std::to_string(o.firstTarget) + ")"
                                : "") +
            ": it passed close to a mixed equilibrium, which games of this kind have. The paper's "
            "construction rules this out; this workbench's snake does not.");
}

/// Stage 5: the panel-default FTRL on the current game if it is a potential game, else on the linear snake
/// (unless the main run already was that run), and the approximate-equilibrium claim.
void checkApproxNeClaim(const PreparedGame& p, const FtrlEngineSettings& s, ApproxNeOutcome approx,
                        RunContext& quiet, ResultDocument& doc) {
    const bool potential = p.potential.isPotential;
    if (std::isnan(approx.gap)) {
        FtrlConfig c = mainFtrlConfig(s, 0);
        c.dynamics = FtrlDynamicsKind::Entropic;
        c.eta = kFtrlDefaultEta;
        c.schedule = FtrlSchedule::Constant;
        c.update = FtrlUpdate::Simultaneous;
        c.record = false;
        if (potential && p.two) {
            const FtrlTrace t = runFtrl(*p.two, c, nullptr, &quiet);
            approx = {t.finalGap, t.stepsRun, t.firstEpsilonStep, p.two->title};
        } else if (potential) {
            const FtrlTensorTrace t = runFtrlTensor(p.nfg, c, nullptr, nullptr, &quiet);
            approx = {t.finalGap, t.stepsRun, t.firstEpsilonStep, p.description};
        } else {
            const FtrlGame snake = makeLinearSnake(std::min(s.n, 64));
            const FtrlTrace t = runFtrl(snake, c, nullptr, &quiet);
            approx = {t.finalGap, t.stepsRun, t.firstEpsilonStep,
                      snake.title + " (the loaded game is not a potential game)"};
        }
    }
    const bool holds = approx.gap <= s.epsilon;
    doc.claims.push_back(claimOf(
        C::kFtrlApproxNe,
        "FTRL with the panel's default learning rate ends at an approximate Nash equilibrium of a potential "
        "game.",
        holds, approx.gap, s.epsilon,
        "Entropic FTRL, eta = " + fmtG(kFtrlDefaultEta) + ", constant, simultaneous, " +
            std::to_string(approx.steps) + " steps on " + approx.game + ": final Nash gap " +
            fmtG(approx.gap) + " vs epsilon = " + fmtG(s.epsilon) +
            (holds ? "."
                   : " (not reached within max_steps: on the snake the time to equilibrium grows very "
                     "fast with n).")));
}

} // namespace

ResultDocument FtrlPotentialEngine::run(const InputList& inputs, const ParamSet& params,
                                        RunContext& ctx) const {
    const FtrlEngineSettings s = readFtrlEngineSettings(params);
    const uint64_t seed = ctx.seed();
    ResultDocument doc;
    ctx.progress(0.0, "preparing the game");
    const PreparedGame p = prepareGame(inputs, s, seed);
    doc.metrics[M::kIsPotential] = p.potential.isPotential ? 1.0 : 0.0;
    doc.metrics[M::kPotentialMaxContrast] = p.potential.maxContrast;
    addCommonNotes(doc, p, s);
    const FtrlConfig cfg = mainFtrlConfig(s, Rng(seed).fork("ties").next());
    const bool defaultFtrl = s.dynamics == FtrlDynamicsKind::Entropic && s.eta == kFtrlDefaultEta &&
                             s.schedule == FtrlSchedule::Constant && s.update == FtrlUpdate::Simultaneous;
    RunContext mainCtx = progressPhase(ctx, 0.02, 0.6);
    const MainRunOutcome main = p.two ? runTwoPlayer(p, cfg, defaultFtrl, mainCtx, doc)
                                      : runNPlayer(p, cfg, defaultFtrl, mainCtx, doc);
    packFirstSteps(main, doc);

    // Hard instance, sweeps and claims run without their own progress (one phase each).
    RunContext quiet = ctx;
    quiet.setProgressCallback({});
    ctx.progress(0.6, "fictitious play on the hard instance");
    addHardInstanceStudy(doc, s, p.two && !p.fromFile ? &*p.two : nullptr, seed, quiet);
    ctx.progress(0.62, "sweeps and claims");
    FtrlSnakeRunner runner(quiet);
    addSweepsAndClaims(doc, s, runner, seed, quiet);
    ctx.progress(0.95, "approximate-equilibrium check");
    checkApproxNeClaim(p, s, main.approx, quiet, doc);
    ctx.progress(1.0, "done");
    return doc;
}

} // namespace pl::games
