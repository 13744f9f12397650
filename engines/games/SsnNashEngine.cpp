#include "SsnNashEngine.h"

#include "DrsOperator.h"
#include "GameGenerators.h"
#include "GameLoader.h"
#include "LpReference.h"
#include "Simplex.h"
#include "SsnNash.h"
#include "SsnNashKeys.h"
#include "core/Errors.h"
#include "core/ResultBuilders.h"
#include "core/Rng.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>

namespace pl::games {

namespace {

namespace P = ssnnash::keys::param;
namespace M = ssnnash::keys::metric;
namespace S = ssnnash::keys::series;
namespace X = ssnnash::keys::matrix;
namespace V = ssnnash::keys::vector;
namespace L = ssnnash::keys::label;
namespace C = ssnnash::keys::claim;

constexpr int kClaimSize = 40;             // claim games are 40x40 Gaussian
constexpr double kClaimTarget = 1e-10;     // the precision the claim is about
constexpr double kClaimRatio = 10;         // "an order of magnitude fewer iterations"
constexpr double kSuperlinearRatio = 0.01; // final residual ratio of the Newton phase
constexpr double kLpTolerance = 1e-8;
constexpr int kLpMaxSize = 200;             // LP reference only up to 200 x 200
constexpr int64_t kMaxPayoffCells = 250000; // matrices.payoff only up to 500 x 500
constexpr int kMaxNewtonMatrix = 200;       // matrices.newton_matrix only up to 200 x 200

const std::vector<std::string> kSolvers = {"prm_plus", "ssn", "hybrid"};

Series traceSeries(const GapTrace& t, bool byWork, const std::string& ylabel = "duality gap") {
    Series s;
    s.x = byWork ? t.work : t.iteration;
    s.y = t.gap;
    s.xlabel = byWork ? "work (matrix-vector products)" : "iteration";
    s.ylabel = ylabel;
    return s;
}

ZeroSumSolverOptions solverOptions(const ParamSet& p, double gamma) {
    ZeroSumSolverOptions o;
    o.targetGap = p.getDouble(P::kTargetGap);
    o.maxPrmIterations = p.getInt(P::kMaxIterations);
    o.maxNewton = int(p.getInt(P::kMaxNewton));
    o.maxSsnIterations = p.getInt(P::kSsnMaxIterations);
    o.nStall = int(p.getInt(P::kNStall));
    o.switchGap = p.getDouble(P::kSwitchGap);
    o.gamma = gamma;
    o.muMax = p.getDouble(P::kMuMax);
    o.alternating = p.getBool(P::kPrmAlternating);
    const std::string& avg = p.getString(P::kPrmAveraging);
    o.averagingPower = avg == "uniform" ? 0 : (avg == "quadratic" ? 2 : 1);
    return o;
}

ZeroSumSolution solveWith(const std::string& solver, const Eigen::MatrixXd& A, const ZeroSumSolverOptions& o,
                          SolveMonitor& mon) {
    if (solver == "prm_plus")
        return solvePrmPlus(A, o, mon);
    if (solver == "ssn")
        return solveSsn(A, o, mon);
    return solveHybrid(A, o, mon);
}

/// Claim 1: hybrid vs PRM+ iterations to 1e-10 on random 40x40 Gaussian games.
Claim iterationClaim(const ParamSet& p, double gammaParam, bool gammaAuto, RunContext& ctx, double from,
                     double to) {
    const int games = int(p.getInt(P::kClaimGames));
    Rng rng = Rng(ctx.seed()).fork("claims");
    std::vector<double> ratios;
    int prmReached = 0, hybridFailed = 0;
    int64_t hMin = -1, hMax = 0;
    for (int g = 0; g < games; ++g) {
        const Eigen::MatrixXd A = randomZeroSumGame(GameGenerator::Gaussian, kClaimSize, kClaimSize, rng);
        ZeroSumSolverOptions o = solverOptions(p, gammaAuto ? autoGamma(A) : gammaParam);
        o.targetGap = kClaimTarget;
        o.recordTrace = false;
        const double span = (to - from) / games;
        SolveMonitor mh(&ctx, from + g * span, from + (g + 0.1) * span, "claims: hybrid");
        const ZeroSumSolution h = solveHybrid(A, o, mh);
        SolveMonitor mp(&ctx, from + (g + 0.1) * span, from + (g + 1) * span, "claims: PRM+");
        const ZeroSumSolution pr = solvePrmPlus(A, o, mp);
        const int64_t hIt = h.iterationsToTarget;
        int64_t pIt = pr.iterationsToTarget;
        if (pIt >= 0)
            ++prmReached;
        else
            pIt = o.maxPrmIterations; // lower bound: PRM+ needs more than the cap
        if (hIt < 0) {
            ++hybridFailed;
            ratios.push_back(0);
        } else {
            ratios.push_back(double(pIt) / double(std::max<int64_t>(hIt, 1)));
            hMin = hMin < 0 ? hIt : std::min(hMin, hIt);
            hMax = std::max(hMax, hIt);
        }
    }
    Claim c;
    c.id = C::kHybrid10xFewerIterations;
    c.statement = "The PRM+/semi-smooth-Newton hybrid reaches a duality gap <= 1e-10 with at least 10x fewer "
                  "iterations than PRM+ alone (random 40x40 Gaussian games).";
    c.threshold = kClaimRatio;
    c.observed = *std::min_element(ratios.begin(), ratios.end());
    c.holds = hybridFailed == 0 && c.observed >= kClaimRatio;
    std::string list;
    for (double r : ratios)
        list += (list.empty() ? "" : ", ") + formatNumber("%.1f", r);
    c.detail =
        "Smallest ratio (PRM+ iterations / hybrid iterations to gap <= 1e-10) over " + std::to_string(games) +
        " games drawn from the seed's 'claims' stream: " + list + ". Hybrid iterations " +
        (hMin >= 0 ? std::to_string(hMin) + ".." + std::to_string(hMax) : std::string("-")) +
        (hybridFailed ? ", hybrid missed the target on " + std::to_string(hybridFailed) + " game(s)" : "") +
        ". PRM+ reached 1e-10 on " + std::to_string(prmReached) + "/" + std::to_string(games) +
        " games within its cap of " + std::to_string(p.getInt(P::kMaxIterations)) +
        " iterations; where it did not, the cap is used, so the ratio is a lower bound.";
    return c;
}

/// Claim 2: superlinear tail of the hybrid's last Newton phase.
Claim superlinearClaim(const ZeroSumSolution& h) {
    Claim c;
    c.id = C::kSuperlinearTail;
    c.statement =
        "Near the equilibrium the semi-smooth Newton phase converges superlinearly: successive residual "
        "ratios ||R(w_k+1)|| / ||R(w_k)|| decrease towards 0.";
    c.threshold = kSuperlinearRatio;
    const auto& r = h.residualRatio;
    if (r.empty()) {
        c.observed = kNaN;
        c.holds = false;
        c.detail =
            "Not observed: the hybrid run on this game had no Newton phase (PRM+ reached the target first "
            "or never reached the switch threshold).";
        return c;
    }
    const size_t k = std::min<size_t>(3, r.size());
    bool decreasing = true;
    for (size_t i = r.size() - k + 1; i < r.size(); ++i)
        decreasing = decreasing && r[i] <= r[i - 1];
    c.observed = r.back();
    c.holds = h.converged && decreasing && r.back() < kSuperlinearRatio;
    std::string list;
    for (size_t i = 0; i < r.size(); ++i)
        list += (i ? ", " : "") + formatNumber("%.2g", r[i]) + (h.ratioNewton[i] ? "" : " (DRS)");
    c.detail = "Final residual ratio of the hybrid's last Newton phase on this game; ratios: " + list +
               ". The last " + std::to_string(k) + " are " + (decreasing ? "" : "not ") +
               "non-increasing; the hybrid " + (h.converged ? "reached" : "did not reach") +
               " the target gap.";
    return c;
}

} // namespace

std::vector<ParamSpec> SsnNashEngine::params() const {
    std::vector<ParamSpec> s;
    s.push_back(
        ParamSpec::choice(P::kSolver, "Solver", kSolvers, "hybrid",
                          "Solver whose result is reported: PRM+ alone, semi-smooth Newton from the uniform "
                          "strategies, or the hybrid (PRM+ then Newton)."));
    s.push_back(
        ParamSpec::choice(P::kGenerator, "Game generator", gameGeneratorNames(), "gaussian",
                          "Random zero-sum game (ignored when a game file is given). rps and hide_and_seek "
                          "are square (rows x rows); degenerate repeats rows (several equilibria)."));
    s.push_back(ParamSpec::integer(P::kRows, "Row strategies", 2, 2000, 50,
                                   "Strategies of the row (maximising) player."));
    s.push_back(
        ParamSpec::integer(P::kCols, "Column strategies", 2, 2000, 50, "Strategies of the column player."));
    s.push_back(ParamSpec::real(
        P::kSwitchGap, "Switch gap", 1e-8, 1e-2, 1e-4,
        "Hybrid: switch from PRM+ to Newton once the averaged strategies' duality gap is below "
        "this (halved after each stall).",
        "", true));
    s.push_back(ParamSpec::real(P::kTargetGap, "Target gap", 1e-12, 1e-3, 1e-10,
                                "Stop once the duality gap max(Ay) - min(A^T x) is at most this.", "", true));
    s.push_back(
        ParamSpec::integer(P::kMaxIterations, "PRM+ iteration cap", 1000, 10'000'000, 100'000,
                           "Cap on PRM+ iterations (PRM+ alone, every hybrid PRM+ phase together, claims)."));
    s.push_back(ParamSpec::integer(P::kMaxNewton, "Newton iterations per phase", 1, 200, 50,
                                   "Hybrid: iterations (Newton or DRS steps) of one Newton phase."));
    s.push_back(ParamSpec::integer(
        P::kSsnMaxIterations, "Cold SSN iteration cap", 10, 100'000, 500,
        "Iterations of semi-smooth Newton started from the uniform strategies (solver ssn)."));
    s.push_back(ParamSpec::integer(P::kNStall, "Stall limit", 1, 20, 5,
                                   "Hybrid: return to PRM+ after this many rejected Newton steps in a row."));
    s.push_back(ParamSpec::real(P::kGamma, "DRS step gamma", 0.01, 100, 1,
                                "Douglas-Rachford step size (resolvent (I + gamma M)^-1).", "", true));
    s.push_back(ParamSpec::boolean(P::kGammaAuto, "gamma = 1/||A||", false,
                                   "Use gamma = 1 / ||A||_2 (largest singular value) instead of gamma."));
    s.push_back(ParamSpec::real(P::kMuMax, "Newton regularisation cap", 1e-8, 1, 1e-2,
                                "Regularisation mu_k = min(mu_max, ||R(w_k)||) of the Newton system.", "",
                                true));
    s.push_back(ParamSpec::boolean(P::kPrmAlternating, "PRM+ alternating", true,
                                   "Alternating (CFR+-style) rather than simultaneous PRM+ updates."));
    s.push_back(ParamSpec::choice(P::kPrmAveraging, "PRM+ averaging", {"uniform", "linear", "quadratic"},
                                  "linear", "Weights t^0, t^1 or t^2 of the PRM+ average."));
    s.push_back(
        ParamSpec::boolean(P::kCompareSolvers, "Run all solvers", true,
                           "Also run the other two solvers on the same game for the overlaid figure."));
    s.push_back(ParamSpec::integer(P::kClaimGames, "Claim games", 0, 50, 5,
                                   "Random 40x40 Gaussian games for the iteration claim (0 disables it)."));
    s.push_back(
        ParamSpec::boolean(P::kUsePlayer1Payoffs, "Use player 1's payoffs", false,
                           "For a two-player .nfg that is not zero-sum: solve the zero-sum game with player "
                           "1's payoffs A (player 2's are ignored)."));
    s.push_back(ParamSpec::boolean(P::kLpReference, "LP reference", true,
                                   "Solve the game's linear program with COIN-OR CLP (up to 200 x 200)."));
    return s;
}

std::shared_ptr<const LoadedInput> SsnNashEngine::load(const std::string& path) const {
    auto in = loadGameFile(path);
    if (in->game.numPlayers() != 2)
        throw InputError(path, "ssn-nash solves two-player zero-sum games; this game has " +
                                   std::to_string(in->game.numPlayers()) + " players");
    return in;
}

namespace {

/// The state of one run, filled stage by stage.
struct SsnRun {
    Eigen::MatrixXd A; ///< the game (row player maximises x^T A y)
    std::vector<std::string> rowLabels, colLabels;
    int n = 0, m = 0; ///< rows, cols
    double gamma = 1; ///< DRS step used on this game
    ZeroSumSolverOptions opt;
    double claimShare = 0;                       ///< progress share of the iteration claim
    std::map<std::string, ZeroSumSolution> sols; ///< per solver run on this game
    const ZeroSumSolution* sol = nullptr;        ///< the reported solver's
    const ZeroSumSolution* newtonSol = nullptr;  ///< the one whose Newton phase is shown
};

/// Stage 1: the game, from the input file or the generator (seed stream "game").
void loadOrGenerateGame(const InputList& inputs, const ParamSet& p, RunContext& ctx, ResultDocument& doc,
                        SsnRun& r) {
    if (!inputs.empty()) {
        const auto* gi = dynamic_cast<const GameInput*>(inputs.front().get());
        if (!gi)
            throw InputError(inputs.front()->path, "not a game file");
        r.A = zeroSumMatrix(gi->game, gi->path, p.getBool(P::kUsePlayer1Payoffs));
        r.rowLabels = gi->game.strategyNames[0];
        r.colLabels = gi->game.strategyNames[1];
        doc.notes.push_back("Game from " + gi->path + ": " + gi->summary +
                            (isConstantSum(gi->game) ? "" : "; solved with player 1's payoffs only") +
                            ". Generator, rows and cols are ignored.");
    } else {
        const GameGenerator gen = parseGameGenerator(p.getString(P::kGenerator));
        Rng rng = Rng(ctx.seed()).fork("game");
        r.A = randomZeroSumGame(gen, int(p.getInt(P::kRows)), int(p.getInt(P::kCols)), rng);
        if (isSquareGenerator(gen) && p.getInt(P::kCols) != p.getInt(P::kRows))
            doc.notes.push_back("Generator '" + p.getString(P::kGenerator) +
                                "' makes square games: cols set to rows.");
    }
    if (!r.A.allFinite())
        throw InputError(inputs.empty() ? "<generator>" : inputs.front()->path, "payoffs are not all finite");
    r.n = int(r.A.rows());
    r.m = int(r.A.cols());
}

/// Stage 2: the reported solver and, with compare_solvers, the other two on the same game.
void solveGame(const ParamSet& p, RunContext& ctx, SsnRun& r) {
    const bool compare = p.getBool(P::kCompareSolvers);
    const std::string solver = p.getString(P::kSolver);
    const bool gammaAuto = p.getBool(P::kGammaAuto);
    r.gamma = gammaAuto ? autoGamma(r.A, [&ctx] { ctx.throwIfCancelled(); }) : p.getDouble(P::kGamma);
    r.opt = solverOptions(p, r.gamma);
    r.claimShare = p.getInt(P::kClaimGames) > 0 ? 0.5 : 0.0;
    std::vector<std::string> order;
    for (const auto& s : kSolvers)
        if (compare || s == solver)
            order.push_back(s);
    for (size_t k = 0; k < order.size(); ++k) {
        const double span = (1.0 - r.claimShare) / double(order.size());
        SolveMonitor mon(&ctx, double(k) * span, double(k + 1) * span, "solving: " + order[k]);
        r.sols[order[k]] = solveWith(order[k], r.A, r.opt, mon);
    }
    r.sol = &r.sols.at(solver);
    // Newton-phase ratios: of the reported solver, or of the hybrid when PRM+ is reported.
    r.newtonSol =
        !r.sol->residualRatio.empty() ? r.sol : (r.sols.count("hybrid") ? &r.sols.at("hybrid") : nullptr);
}

/// Stage 3: strategies, metrics and convergence series of every solver run.
void packSolutions(const SsnRun& r, ResultDocument& doc) {
    const ZeroSumSolution& sol = *r.sol;
    doc.vectors[V::kX] = toStd(sol.x);
    doc.vectors[V::kY] = toStd(sol.y);
    auto& mt = doc.metrics;
    mt[M::kValue] = sol.certificate.value;
    mt[M::kValueLower] = sol.certificate.lower;
    mt[M::kValueUpper] = sol.certificate.upper;
    mt[M::kDualityGap] = sol.certificate.gap();
    mt[M::kIterations] = double(sol.iterations);
    mt[M::kIterationsToTarget] = double(sol.iterationsToTarget);
    mt[M::kMatvecs] = double(sol.matvecs);
    mt[M::kMatvecEquivalents] = sol.matvecEquivalents;
    mt[M::kSwitchIteration] = double(sol.switchIteration);
    mt[M::kNewtonSteps] = double(sol.newtonSteps);
    mt[M::kDrsSteps] = double(sol.drsSteps);
    mt[M::kFallbacks] = double(sol.fallbacks);
    mt[M::kConverged] = sol.converged ? 1 : 0;
    mt[M::kFinalResidual] = sol.finalResidual;
    mt[M::kGamma] = r.gamma;
    mt[M::kRows] = r.n;
    mt[M::kCols] = r.m;
    for (const auto& [name, s] : r.sols) {
        mt[M::kIterationsPrefix + name] = double(s.iterations);
        mt[M::kIterationsToTargetPrefix + name] = double(s.iterationsToTarget);
        mt[M::kGapPrefix + name] = s.certificate.gap();
        mt[M::kMatvecsPrefix + name] = double(s.matvecs);
        mt[M::kMatvecEquivalentsPrefix + name] = s.matvecEquivalents;
        doc.series[S::kGapPrefix + name] = traceSeries(s.trace, false);
        doc.series[S::kGapVsWorkPrefix + name] = traceSeries(s.trace, true);
    }
    doc.series[S::kGapVsIteration] = traceSeries(sol.trace, false);
    if (r.sols.count("prm_plus"))
        doc.series[S::kGapPrmPlusLast] =
            seriesOf(r.sols.at("prm_plus").trace.iteration, r.sols.at("prm_plus").trace.lastIterateGap,
                     "iteration", "duality gap of the last iterate");
    if (r.newtonSol && !r.newtonSol->residualRatio.empty()) {
        const ZeroSumSolution& ns = *r.newtonSol;
        doc.series[S::kResidualRatio] =
            seriesOf(ns.ratioIteration, ns.residualRatio, "iteration", "||R(w_k+1)|| / ||R(w_k)||");
        doc.series[S::kGapRatio] = seriesOf(ns.ratioIteration, ns.gapRatio, "iteration", "gap_k+1 / gap_k");
        doc.labels[L::kNewtonStepKind] = std::vector<int64_t>(ns.ratioNewton.begin(), ns.ratioNewton.end());
    }
}

/// Stage 4: supports of the reported strategies and the reduced Newton matrix at the last Newton point.
void packSupportsAndNewtonMatrix(const SsnRun& r, RunContext& ctx, ResultDocument& doc) {
    const ZeroSumSolution& sol = *r.sol;
    const int n = r.n, m = r.m;
    const double supportTol = std::max(1e-12, 10 * sol.certificate.gap());
    std::vector<int64_t> sx, sy;
    for (int i = 0; i < n; ++i)
        if (sol.x[i] > supportTol)
            sx.push_back(i);
    for (int j = 0; j < m; ++j)
        if (sol.y[j] > supportTol)
            sy.push_back(j);
    doc.labels[L::kSupportX] = sx;
    doc.labels[L::kSupportY] = sy;
    doc.metrics[M::kSupportXSize] = double(sx.size());
    doc.metrics[M::kSupportYSize] = double(sy.size());
    if (!r.newtonSol || r.newtonSol->lastW.size() != n + m || std::min(n, m) > 500)
        return;
    SolverWork w;
    w.rows = n;
    w.cols = m;
    DrsOperator drs(r.A, r.gamma, w, [&ctx] { ctx.throwIfCancelled(); });
    Eigen::VectorXd z;
    drs.project(r.newtonSol->lastW, z);
    doc.metrics[M::kNewtonCondition] = drs.reducedCondition(z);
    const double mu = std::min(r.opt.muMax, std::max(r.newtonSol->finalResidual, 0.0));
    const Eigen::MatrixXd K = drs.reducedNewtonMatrix(z, mu);
    if (K.rows() > kMaxNewtonMatrix)
        return;
    std::vector<std::string> labels;
    for (int i : supportOf(z.head(n)))
        labels.push_back("x" + std::to_string(i + 1));
    for (int j : supportOf(z.tail(m)))
        labels.push_back("y" + std::to_string(j + 1));
    doc.matrices[X::kNewtonMatrix] = matrixOf(K, labels, labels);
}

/// The strategy's name from the game file, or its 1-based number when it has none.
std::vector<std::string> strategyLabels(const std::vector<std::string>& names, int count) {
    std::vector<std::string> out;
    for (int i = 0; i < count; ++i)
        out.push_back(i < int(names.size()) && !names[size_t(i)].empty() ? names[size_t(i)]
                                                                         : std::to_string(i + 1));
    return out;
}

/// Stage 5: the payoff matrix (left out of very large games).
void packPayoff(const SsnRun& r, ResultDocument& doc) {
    if (int64_t(r.n) * r.m <= kMaxPayoffCells)
        doc.matrices[X::kPayoff] =
            matrixOf(r.A, strategyLabels(r.rowLabels, r.n), strategyLabels(r.colLabels, r.m));
    else
        doc.notes.push_back("Payoff matrix not included in the result (more than 250000 entries).");
}

/// Stage 6: the LP reference and the claims.
void checkClaims(const ParamSet& p, const SsnRun& r, RunContext& ctx, ResultDocument& doc) {
    const ZeroSumSolution& sol = *r.sol;
    const std::string solver = p.getString(P::kSolver);
    ctx.throwIfCancelled();
    if (p.getBool(P::kLpReference) && r.n <= kLpMaxSize && r.m <= kLpMaxSize) {
        const LpGameSolution lp = solveZeroSumLp(r.A, [&ctx] { ctx.throwIfCancelled(); });
        auto& mt = doc.metrics;
        mt[M::kLpValue] = lp.value;
        mt[M::kLpError] = std::abs(sol.certificate.value - lp.value);
        mt[M::kLpGap] = lp.gap;
        const double err = mt[M::kLpError];
        doc.claims.push_back(claimOf(
            C::kLpAgreement,
            "The value of the returned strategies matches the linear-programming value of the game.",
            err <= kLpTolerance, err, kLpTolerance,
            "|x^T A y - v_LP| with v_LP from COIN-OR CLP (dual simplex; CLP's own solution has duality gap " +
                formatNumber("%.2g", lp.gap) + "); the " + solver + " solution has duality gap " +
                formatNumber("%.2g", sol.certificate.gap()) + ", which bounds the error."));
    } else {
        doc.notes.push_back(p.getBool(P::kLpReference)
                                ? "LP reference skipped: the game is larger than 200 x 200."
                                : "LP reference disabled.");
    }
    if (r.sols.count("hybrid"))
        doc.claims.push_back(superlinearClaim(r.sols.at("hybrid")));
    else
        doc.notes.push_back(
            "Superlinear-tail claim not evaluated: the hybrid was not run (compare_solvers off).");
    if (p.getInt(P::kClaimGames) > 0)
        doc.claims.push_back(iterationClaim(p, p.getDouble(P::kGamma), p.getBool(P::kGammaAuto), ctx,
                                            1.0 - r.claimShare, 1.0));
    else
        doc.notes.push_back("Iteration claim disabled (claim_games = 0).");
}

} // namespace

ResultDocument SsnNashEngine::run(const InputList& inputs, const ParamSet& p, RunContext& ctx) const {
    if (inputs.size() > 1)
        throw UsageError("ssn-nash takes at most one game file");
    ResultDocument doc;
    SsnRun r;
    loadOrGenerateGame(inputs, p, ctx, doc, r);
    solveGame(p, ctx, r);
    packSolutions(r, doc);
    packSupportsAndNewtonMatrix(r, ctx, doc);
    packPayoff(r, doc);
    checkClaims(p, r, ctx, doc);
    doc.notes.push_back(
        "Convention: the row player maximises x^T A y; value is x^T A y of the returned strategies "
        "and duality_gap = max(A y) - min(A^T x).");
    ctx.progress(1.0, "done");
    return doc;
}

} // namespace pl::games
