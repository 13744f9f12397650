#include "SsnNashEngine.h"

#include "DrsOperator.h"
#include "GameGenerators.h"
#include "GameLoader.h"
#include "LpReference.h"
#include "Simplex.h"
#include "SsnNash.h"
#include "core/Errors.h"
#include "core/Rng.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>

namespace pl::games {

namespace {

constexpr int kClaimSize = 40;             // claim games are 40x40 Gaussian
constexpr double kClaimTarget = 1e-10;     // the precision the claim is about
constexpr double kClaimRatio = 10;         // "an order of magnitude fewer iterations"
constexpr double kSuperlinearRatio = 0.01; // final residual ratio of the Newton phase
constexpr double kLpTolerance = 1e-8;
constexpr int kLpMaxSize = 200;             // LP reference only up to 200 x 200
constexpr int64_t kMaxPayoffCells = 250000; // matrices.payoff only up to 500 x 500
constexpr int kMaxNewtonMatrix = 200;       // matrices.newton_matrix only up to 200 x 200

const std::vector<std::string> kSolvers = {"prm_plus", "ssn", "hybrid"};

std::string fmt(const char* f, double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, f, v);
    return buf;
}

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
    o.targetGap = p.getDouble("target_gap");
    o.maxPrmIterations = p.getInt("max_iterations");
    o.maxNewton = int(p.getInt("max_newton"));
    o.maxSsnIterations = p.getInt("ssn_max_iterations");
    o.nStall = int(p.getInt("n_stall"));
    o.switchGap = p.getDouble("switch_gap");
    o.gamma = gamma;
    o.muMax = p.getDouble("mu_max");
    o.alternating = p.getBool("prm_alternating");
    const std::string& avg = p.getString("prm_averaging");
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

std::vector<double> toStd(const Eigen::VectorXd& v) {
    return std::vector<double>(v.data(), v.data() + v.size());
}

/// Claim 1: hybrid vs PRM+ iterations to 1e-10 on random 40x40 Gaussian games.
Claim iterationClaim(const ParamSet& p, double gammaParam, bool gammaAuto, RunContext& ctx, double from,
                     double to) {
    const int games = int(p.getInt("claim_games"));
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
    c.id = "hybrid-10x-fewer-iterations";
    c.statement = "The PRM+/semi-smooth-Newton hybrid reaches a duality gap <= 1e-10 with at least 10x fewer "
                  "iterations than PRM+ alone (random 40x40 Gaussian games).";
    c.threshold = kClaimRatio;
    c.observed = *std::min_element(ratios.begin(), ratios.end());
    c.holds = hybridFailed == 0 && c.observed >= kClaimRatio;
    std::string list;
    for (double r : ratios)
        list += (list.empty() ? "" : ", ") + fmt("%.1f", r);
    c.detail =
        "Smallest ratio (PRM+ iterations / hybrid iterations to gap <= 1e-10) over " + std::to_string(games) +
        " games drawn from the seed's 'claims' stream: " + list + ". Hybrid iterations " +
        (hMin >= 0 ? std::to_string(hMin) + ".." + std::to_string(hMax) : std::string("-")) +
        (hybridFailed ? ", hybrid missed the target on " + std::to_string(hybridFailed) + " game(s)" : "") +
        ". PRM+ reached 1e-10 on " + std::to_string(prmReached) + "/" + std::to_string(games) +
        " games within its cap of " + std::to_string(p.getInt("max_iterations")) +
        " iterations; where it did not, the cap is used, so the ratio is a lower bound.";
    return c;
}

/// Claim 2: superlinear tail of the hybrid's last Newton phase.
Claim superlinearClaim(const ZeroSumSolution& h) {
    Claim c;
    c.id = "superlinear-tail";
    c.statement =
        "Near the equilibrium the semi-smooth Newton phase converges superlinearly: successive residual "
        "ratios ||R(w_k+1)|| / ||R(w_k)|| decrease towards 0.";
    c.threshold = kSuperlinearRatio;
    const auto& r = h.residualRatio;
    if (r.empty()) {
        c.observed = std::numeric_limits<double>::quiet_NaN();
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
        list += (i ? ", " : "") + fmt("%.2g", r[i]) + (h.ratioNewton[i] ? "" : " (DRS)");
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
        ParamSpec::choice("solver", "Solver", kSolvers, "hybrid",
                          "Solver whose result is reported: PRM+ alone, semi-smooth Newton from the uniform "
                          "strategies, or the hybrid (PRM+ then Newton)."));
    s.push_back(
        ParamSpec::choice("generator", "Game generator", gameGeneratorNames(), "gaussian",
                          "Random zero-sum game (ignored when a game file is given). rps and hide_and_seek "
                          "are square (rows x rows); degenerate repeats rows (several equilibria)."));
    s.push_back(ParamSpec::integer("rows", "Row strategies", 2, 2000, 50,
                                   "Strategies of the row (maximising) player."));
    s.push_back(
        ParamSpec::integer("cols", "Column strategies", 2, 2000, 50, "Strategies of the column player."));
    s.push_back(ParamSpec::real(
        "switch_gap", "Switch gap", 1e-8, 1e-2, 1e-4,
        "Hybrid: switch from PRM+ to Newton once the averaged strategies' duality gap is below "
        "this (halved after each stall).",
        "", true));
    s.push_back(ParamSpec::real("target_gap", "Target gap", 1e-12, 1e-3, 1e-10,
                                "Stop once the duality gap max(Ay) - min(A^T x) is at most this.", "", true));
    s.push_back(
        ParamSpec::integer("max_iterations", "PRM+ iteration cap", 1000, 10'000'000, 100'000,
                           "Cap on PRM+ iterations (PRM+ alone, every hybrid PRM+ phase together, claims)."));
    s.push_back(ParamSpec::integer("max_newton", "Newton iterations per phase", 1, 200, 50,
                                   "Hybrid: iterations (Newton or DRS steps) of one Newton phase."));
    s.push_back(ParamSpec::integer(
        "ssn_max_iterations", "Cold SSN iteration cap", 10, 100'000, 500,
        "Iterations of semi-smooth Newton started from the uniform strategies (solver ssn)."));
    s.push_back(ParamSpec::integer("n_stall", "Stall limit", 1, 20, 5,
                                   "Hybrid: return to PRM+ after this many rejected Newton steps in a row."));
    s.push_back(ParamSpec::real("gamma", "DRS step gamma", 0.01, 100, 1,
                                "Douglas-Rachford step size (resolvent (I + gamma M)^-1).", "", true));
    s.push_back(ParamSpec::boolean("gamma_auto", "gamma = 1/||A||", false,
                                   "Use gamma = 1 / ||A||_2 (largest singular value) instead of gamma."));
    s.push_back(ParamSpec::real("mu_max", "Newton regularisation cap", 1e-8, 1, 1e-2,
                                "Regularisation mu_k = min(mu_max, ||R(w_k)||) of the Newton system.", "",
                                true));
    s.push_back(ParamSpec::boolean("prm_alternating", "PRM+ alternating", true,
                                   "Alternating (CFR+-style) rather than simultaneous PRM+ updates."));
    s.push_back(ParamSpec::choice("prm_averaging", "PRM+ averaging", {"uniform", "linear", "quadratic"},
                                  "linear", "Weights t^0, t^1 or t^2 of the PRM+ average."));
    s.push_back(
        ParamSpec::boolean("compare_solvers", "Run all solvers", true,
                           "Also run the other two solvers on the same game for the overlaid figure."));
    s.push_back(ParamSpec::integer("claim_games", "Claim games", 0, 50, 5,
                                   "Random 40x40 Gaussian games for the iteration claim (0 disables it)."));
    s.push_back(
        ParamSpec::boolean("use_player1_payoffs", "Use player 1's payoffs", false,
                           "For a two-player .nfg that is not zero-sum: solve the zero-sum game with player "
                           "1's payoffs A (player 2's are ignored)."));
    s.push_back(ParamSpec::boolean("lp_reference", "LP reference", true,
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

ResultDocument SsnNashEngine::run(const InputList& inputs, const ParamSet& p, RunContext& ctx) const {
    if (inputs.size() > 1)
        throw UsageError("ssn-nash takes at most one game file");
    ResultDocument doc;
    const bool compare = p.getBool("compare_solvers");
    const std::string solver = p.getString("solver");

    // The game.
    Eigen::MatrixXd A;
    std::vector<std::string> rowLabels, colLabels;
    if (!inputs.empty()) {
        const auto* gi = dynamic_cast<const GameInput*>(inputs.front().get());
        if (!gi)
            throw InputError(inputs.front()->path, "not a game file");
        A = zeroSumMatrix(gi->game, gi->path, p.getBool("use_player1_payoffs"));
        rowLabels = gi->game.strategyNames[0];
        colLabels = gi->game.strategyNames[1];
        doc.notes.push_back("Game from " + gi->path + ": " + gi->summary +
                            (isConstantSum(gi->game) ? "" : "; solved with player 1's payoffs only") +
                            ". Generator, rows and cols are ignored.");
    } else {
        const GameGenerator gen = parseGameGenerator(p.getString("generator"));
        Rng rng = Rng(ctx.seed()).fork("game");
        A = randomZeroSumGame(gen, int(p.getInt("rows")), int(p.getInt("cols")), rng);
        if (isSquareGenerator(gen) && p.getInt("cols") != p.getInt("rows"))
            doc.notes.push_back("Generator '" + p.getString("generator") +
                                "' makes square games: cols set to rows.");
    }
    if (!A.allFinite())
        throw InputError(inputs.empty() ? "<generator>" : inputs.front()->path, "payoffs are not all finite");
    const int n = int(A.rows()), m = int(A.cols());
    const bool gammaAuto = p.getBool("gamma_auto");
    const double gamma = gammaAuto ? autoGamma(A, [&ctx] { ctx.throwIfCancelled(); }) : p.getDouble("gamma");
    const ZeroSumSolverOptions opt = solverOptions(p, gamma);
    const double claimShare = p.getInt("claim_games") > 0 ? 0.5 : 0.0;

    // The solvers on this game.
    std::map<std::string, ZeroSumSolution> sols;
    std::vector<std::string> order;
    for (const auto& s : kSolvers)
        if (compare || s == solver)
            order.push_back(s);
    for (size_t k = 0; k < order.size(); ++k) {
        const double span = (1.0 - claimShare) / double(order.size());
        SolveMonitor mon(&ctx, double(k) * span, double(k + 1) * span, "solving: " + order[k]);
        sols[order[k]] = solveWith(order[k], A, opt, mon);
    }
    const ZeroSumSolution& sol = sols.at(solver);

    doc.vectors["x"] = toStd(sol.x);
    doc.vectors["y"] = toStd(sol.y);
    auto& mt = doc.metrics;
    mt["value"] = sol.certificate.value;
    mt["value_lower"] = sol.certificate.lower;
    mt["value_upper"] = sol.certificate.upper;
    mt["duality_gap"] = sol.certificate.gap();
    mt["iterations"] = double(sol.iterations);
    mt["iterations_to_target"] = double(sol.iterationsToTarget);
    mt["matvecs"] = double(sol.matvecs);
    mt["matvec_equivalents"] = sol.matvecEquivalents;
    mt["switch_iteration"] = double(sol.switchIteration);
    mt["newton_steps"] = double(sol.newtonSteps);
    mt["drs_steps"] = double(sol.drsSteps);
    mt["fallbacks"] = double(sol.fallbacks);
    mt["converged"] = sol.converged ? 1 : 0;
    mt["final_residual"] = sol.finalResidual;
    mt["gamma"] = gamma;
    mt["rows"] = n;
    mt["cols"] = m;
    for (const auto& [name, s] : sols) {
        mt["iterations_" + name] = double(s.iterations);
        mt["iterations_to_target_" + name] = double(s.iterationsToTarget);
        mt["gap_" + name] = s.certificate.gap();
        mt["matvecs_" + name] = double(s.matvecs);
        mt["matvec_equivalents_" + name] = s.matvecEquivalents;
        doc.series["gap_" + name] = traceSeries(s.trace, false);
        doc.series["gap_vs_work_" + name] = traceSeries(s.trace, true);
    }
    doc.series["gap_vs_iteration"] = traceSeries(sol.trace, false);
    if (sols.count("prm_plus")) {
        Series last;
        last.x = sols.at("prm_plus").trace.iteration;
        last.y = sols.at("prm_plus").trace.lastIterateGap;
        last.xlabel = "iteration";
        last.ylabel = "duality gap of the last iterate";
        doc.series["gap_prm_plus_last"] = last;
    }
    // Newton-phase ratios: of the reported solver, or of the hybrid when PRM+ is reported.
    const ZeroSumSolution* newtonSol =
        !sol.residualRatio.empty() ? &sol : (sols.count("hybrid") ? &sols.at("hybrid") : nullptr);
    if (newtonSol && !newtonSol->residualRatio.empty()) {
        doc.series["residual_ratio"] = {newtonSol->ratioIteration, newtonSol->residualRatio, "iteration",
                                        "||R(w_k+1)|| / ||R(w_k)||"};
        doc.series["gap_ratio"] = {newtonSol->ratioIteration, newtonSol->gapRatio, "iteration",
                                   "gap_k+1 / gap_k"};
        doc.labels["newton_step_kind"] =
            std::vector<int64_t>(newtonSol->ratioNewton.begin(), newtonSol->ratioNewton.end());
    }

    // Supports and the Newton matrix at the reported point.
    const double supportTol = std::max(1e-12, 10 * sol.certificate.gap());
    std::vector<int64_t> sx, sy;
    for (int i = 0; i < n; ++i)
        if (sol.x[i] > supportTol)
            sx.push_back(i);
    for (int j = 0; j < m; ++j)
        if (sol.y[j] > supportTol)
            sy.push_back(j);
    doc.labels["support_x"] = sx;
    doc.labels["support_y"] = sy;
    mt["support_x_size"] = double(sx.size());
    mt["support_y_size"] = double(sy.size());
    if (newtonSol && newtonSol->lastW.size() == n + m && std::min(n, m) <= 500) {
        SolverWork w;
        w.rows = n;
        w.cols = m;
        DrsOperator drs(A, gamma, w, [&ctx] { ctx.throwIfCancelled(); });
        Eigen::VectorXd z;
        drs.project(newtonSol->lastW, z);
        mt["newton_condition"] = drs.reducedCondition(z);
        const double mu = std::min(opt.muMax, std::max(newtonSol->finalResidual, 0.0));
        const Eigen::MatrixXd K = drs.reducedNewtonMatrix(z, mu);
        if (K.rows() <= kMaxNewtonMatrix) {
            Matrix km;
            km.rows = K.rows();
            km.cols = K.cols();
            for (Eigen::Index i = 0; i < K.rows(); ++i)
                for (Eigen::Index j = 0; j < K.cols(); ++j)
                    km.data.push_back(K(i, j));
            for (int i : supportOf(z.head(n)))
                km.rowLabels.push_back("x" + std::to_string(i + 1));
            for (int j : supportOf(z.tail(m)))
                km.rowLabels.push_back("y" + std::to_string(j + 1));
            km.colLabels = km.rowLabels;
            doc.matrices["newton_matrix"] = std::move(km);
        }
    }

    if (int64_t(n) * m <= kMaxPayoffCells) {
        Matrix pm;
        pm.rows = n;
        pm.cols = m;
        pm.data.reserve(size_t(n) * size_t(m));
        for (int i = 0; i < n; ++i)
            for (int j = 0; j < m; ++j)
                pm.data.push_back(A(i, j));
        for (int i = 0; i < n; ++i)
            pm.rowLabels.push_back(i < int(rowLabels.size()) && !rowLabels[size_t(i)].empty()
                                       ? rowLabels[size_t(i)]
                                       : std::to_string(i + 1));
        for (int j = 0; j < m; ++j)
            pm.colLabels.push_back(j < int(colLabels.size()) && !colLabels[size_t(j)].empty()
                                       ? colLabels[size_t(j)]
                                       : std::to_string(j + 1));
        doc.matrices["payoff"] = std::move(pm);
    } else {
        doc.notes.push_back("Payoff matrix not included in the result (more than 250000 entries).");
    }

    // LP reference and the claims.
    ctx.throwIfCancelled();
    if (p.getBool("lp_reference") && n <= kLpMaxSize && m <= kLpMaxSize) {
        const LpGameSolution lp = solveZeroSumLp(A, [&ctx] { ctx.throwIfCancelled(); });
        mt["lp_value"] = lp.value;
        mt["lp_error"] = std::abs(sol.certificate.value - lp.value);
        mt["lp_gap"] = lp.gap;
        Claim c;
        c.id = "lp-agreement";
        c.statement =
            "The value of the returned strategies matches the linear-programming value of the game.";
        c.observed = mt["lp_error"];
        c.threshold = kLpTolerance;
        c.holds = c.observed <= kLpTolerance;
        c.detail =
            "|x^T A y - v_LP| with v_LP from COIN-OR CLP (dual simplex; CLP's own solution has duality gap " +
            fmt("%.2g", lp.gap) + "); the " + solver + " solution has duality gap " +
            fmt("%.2g", sol.certificate.gap()) + ", which bounds the error.";
        doc.claims.push_back(c);
    } else {
        doc.notes.push_back(p.getBool("lp_reference")
                                ? "LP reference skipped: the game is larger than 200 x 200."
                                : "LP reference disabled.");
    }
    if (sols.count("hybrid"))
        doc.claims.push_back(superlinearClaim(sols.at("hybrid")));
    else
        doc.notes.push_back(
            "Superlinear-tail claim not evaluated: the hybrid was not run (compare_solvers off).");
    if (p.getInt("claim_games") > 0)
        doc.claims.push_back(iterationClaim(p, p.getDouble("gamma"), gammaAuto, ctx, 1.0 - claimShare, 1.0));
    else
        doc.notes.push_back("Iteration claim disabled (claim_games = 0).");
    doc.notes.push_back(
        "Convention: the row player maximises x^T A y; value is x^T A y of the returned strategies "
        "and duality_gap = max(A y) - min(A^T x).");
    ctx.progress(1.0, "done");
    return doc;
}

} // namespace pl::games
