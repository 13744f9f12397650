#include "MetadistillRun.h"

#include "BbobFunctions.h"
#include "CmaEs.h"
#include "LesStudent.h"
#include "MetadistillKeys.h"
#include "MetadistillTraining.h"
#include "core/ResultBuilders.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <memory>

namespace pl::search::metadistill {

namespace P = keys::param;
namespace K = keys;

namespace {

constexpr int kDistilled = 0, kScratch = 1, kRandom = 2, kCmaes = 3, kSsft = 4;

using Curve = std::vector<double>; ///< best f so far after each generation

double median(std::vector<double> v) {
    if (v.empty())
        return std::numeric_limits<double>::quiet_NaN();
    std::sort(v.begin(), v.end());
    const size_t n = v.size();
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

double log10f(double f) {
    return std::log10(std::max(f, 1e-12));
}

/// The run's function instances (one per name, drawn from the seed).
struct Instances {
    std::map<std::string, std::unique_ptr<BbobFunction>> byName;
    const BbobFunction& get(const std::string& name, int d, const Rng& root) {
        auto& slot = byName[name];
        if (!slot) {
            Rng r = root.fork("instance " + name);
            slot = std::make_unique<BbobFunction>(name, d, r);
        }
        return *slot;
    }
};

struct CmaRun {
    Curve curve;
    std::vector<CmaEsGeneration> gens;
};

CmaRun cmaesRun(const BbobFunction& f, const BudgetConfig& cfg, Rng rng, bool keep) {
    Eigen::VectorXd m0(cfg.d);
    for (int j = 0; j < cfg.d; ++j)
        m0[j] = rng.uniform(-4.0, 4.0);
    CmaRun r;
    r.gens = runCmaEs([&f](const Eigen::VectorXd& x) { return f(x); }, m0, 2.0, cfg.lambda, cfg.generations,
                      rng, keep);
    for (const auto& g : r.gens)
        r.curve.push_back(g.bestSoFar);
    while (int(r.curve.size()) < cfg.generations) // stopped on a vanishing step size: flat
        r.curve.push_back(r.curve.empty() ? std::numeric_limits<double>::infinity() : r.curve.back());
    return r;
}

/// The evaluation rng of a (function, repeat): every method starts from the same uniform draw.
Rng evalRng(const Rng& root, const std::string& fn, int rep) {
    return root.fork("eval " + fn + " " + std::to_string(rep));
}

Series curveSeries(const std::vector<Curve>& runs, int lambda) {
    Series s = emptySeries("function evaluations", "best f - f_opt (median over repeats)");
    if (runs.empty())
        return s;
    for (size_t g = 0; g < runs[0].size(); ++g) {
        std::vector<double> v;
        for (const Curve& c : runs)
            v.push_back(c[g]);
        addPoint(s, double((g + 1) * size_t(lambda)), std::max(median(v), 1e-12));
    }
    return s;
}

/// Stage "function": CMA-ES output keys, convergence curves and population clouds on `function`.
void functionStage(const BbobFunction& f, const LesStudent& distilled, const LesStudent& scratch,
                   const BudgetConfig& cfg, int repeats, double target, const Rng& root, bool full,
                   ResultDocument& doc) {
    doc.vectors[K::vector::kXOpt] = std::vector<double>(f.xOpt().data(), f.xOpt().data() + f.dim());
    doc.matrices[K::matrix::kRotationR] = matrixOf(f.rotationR());
    doc.matrices[K::matrix::kRotationQ] = matrixOf(f.rotationQ());
    std::vector<Curve> runs[4];
    CmaRun first;
    std::vector<Eigen::MatrixXd> studentPops(size_t(cfg.generations));
    auto fn = [&f](const Eigen::VectorXd& x) { return f(x); };
    for (int r = 0; r < repeats; ++r) {
        CmaRun c = cmaesRun(f, cfg, evalRng(root, f.name(), r), r == 0);
        runs[kCmaes].push_back(c.curve);
        if (r == 0)
            first = std::move(c);
        if (!full)
            continue;
        Rng a = evalRng(root, f.name(), r);
        runs[kDistilled].push_back(
            distilled.run(fn, cfg.d, cfg.lambda, cfg.generations, a, [&](int g, const Eigen::MatrixXd& X) {
                if (r == 0)
                    studentPops[size_t(g)] = X;
            }));
        Rng b = evalRng(root, f.name(), r);
        runs[kScratch].push_back(scratch.run(fn, cfg.d, cfg.lambda, cfg.generations, b));
        runs[kRandom].push_back(
            randomSearchCurve(f, cfg.d, cfg.lambda, cfg.generations, evalRng(root, f.name(), r)));
    }
    for (int m = 0; m < 4; ++m)
        if (!runs[m].empty())
            doc.series[std::string(K::series::kConvergencePrefix) + K::kMethods[m]] =
                curveSeries(runs[m], cfg.lambda);
    // CMA-ES best point and evaluations to target (first repeat)
    double bestF = std::numeric_limits<double>::infinity();
    Eigen::VectorXd bestX = Eigen::VectorXd::Zero(cfg.d);
    double toTarget = -1;
    for (size_t g = 0; g < first.gens.size(); ++g) {
        const auto& G = first.gens[g];
        Eigen::Index k = 0;
        const double fg = G.fitness.minCoeff(&k);
        if (fg < bestF) {
            bestF = fg;
            bestX = G.population.row(k).transpose();
        }
        if (toTarget < 0 && bestF <= target)
            toTarget = double(int64_t(g + 1) * cfg.lambda);
    }
    doc.metrics[K::metric::kCmaesBestF] = bestF;
    doc.metrics[K::metric::kCmaesEvalsToTarget] = toTarget;
    doc.vectors[K::vector::kCmaesBestX] = std::vector<double>(bestX.data(), bestX.data() + cfg.d);
    // Population clouds in coordinates (x1, x2) over a contour of the slice through x_opt.
    const int G = cfg.generations;
    std::vector<double> gens = {0.0, double(G / 10), double(G / 3)};
    doc.vectors[K::vector::kCloudGenerations] = gens;
    for (int i = 0; i < K::kCloudCount; ++i) {
        const size_t g = size_t(gens[size_t(i)]);
        Series t = emptySeries("x1", "x2");
        if (g < first.gens.size())
            for (Eigen::Index k = 0; k < first.gens[g].population.rows(); ++k)
                addPoint(t, first.gens[g].population(k, 0), first.gens[g].population(k, 1));
        doc.series[K::series::kCloudTeacherPrefix + std::to_string(i)] = t;
        if (full) {
            Series s = emptySeries("x1", "x2");
            for (Eigen::Index k = 0; k < studentPops[g].rows(); ++k)
                addPoint(s, studentPops[g](k, 0), studentPops[g](k, 1));
            doc.series[K::series::kCloudStudentPrefix + std::to_string(i)] = s;
        }
    }
    // Contour: crossing points of 6 levels (quantiles of log10 f) on a 120 x 120 grid over [-5, 5]^2.
    const int n = 120;
    Eigen::MatrixXd L(n, n);
    Eigen::VectorXd x = f.xOpt();
    auto coord = [&](int i) { return -5.0 + 10.0 * i / (n - 1); };
    std::vector<double> all;
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j) {
            x[0] = coord(i);
            x[1] = coord(j);
            L(i, j) = log10f(f(x));
            all.push_back(L(i, j));
        }
    std::sort(all.begin(), all.end());
    Series c = emptySeries("x1", "x2");
    for (int q = 1; q <= 6; ++q) {
        const double lv = all[size_t(double(all.size() - 1) * (q / 7.0))];
        for (int i = 0; i < n; ++i)
            for (int j = 0; j < n; ++j) {
                if (i + 1 < n && (L(i, j) - lv) * (L(i + 1, j) - lv) < 0) {
                    const double t = (lv - L(i, j)) / (L(i + 1, j) - L(i, j));
                    addPoint(c, coord(i) + t * (coord(i + 1) - coord(i)), coord(j));
                }
                if (j + 1 < n && (L(i, j) - lv) * (L(i, j + 1) - lv) < 0) {
                    const double t = (lv - L(i, j)) / (L(i, j + 1) - L(i, j));
                    addPoint(c, coord(i), coord(j) + t * (coord(j + 1) - coord(j)));
                }
            }
    }
    doc.series[K::series::kContour] = c;
}

/// Stage "sanity": CMA-ES (default lambda) on 10-D sphere, ellipsoid and rotated ellipsoid to 1e-8.
void sanityStage(const Rng& root, ResultDocument& doc) {
    const int d = 10, lambda = 4 + int(3 * std::log(10.0));
    const char* names[] = {"sphere", "ellipsoid", "ellipsoid_rotated"};
    const char* keys[] = {K::metric::kSanitySphereEvals, K::metric::kSanityEllipsoidEvals,
                          K::metric::kSanityRotatedEvals};
    double med[3];
    bool all = true;
    for (int i = 0; i < 3; ++i) {
        std::vector<double> ev;
        for (int r = 0; r < 5; ++r) {
            Rng g = root.fork(std::string("sanity ") + names[i] + " " + std::to_string(r));
            const BbobFunction f(names[i], d, g);
            Eigen::VectorXd m0(d);
            for (int j = 0; j < d; ++j)
                m0[j] = g.uniform(-4.0, 4.0);
            CmaEs es(m0, 2.0, lambda);
            double e = -1;
            for (int gen = 0; gen * lambda < 100000; ++gen) {
                const Eigen::MatrixXd X = es.candidates(es.drawZ(g));
                const Eigen::VectorXd fx = f.evalRows(X);
                if (fx.minCoeff() <= 1e-8) {
                    e = double((gen + 1) * lambda);
                    break;
                }
                es.tell(X, fx);
            }
            all = all && e > 0;
            ev.push_back(e > 0 ? e : 1e5);
        }
        med[i] = median(ev);
        doc.metrics[keys[i]] = med[i];
    }
    const double ratio = med[2] / med[1];
    const bool holds = all && med[0] <= 1e4 && ratio <= 1.25;
    doc.claims.push_back(claimOf(
        K::claim::kCmaesSanity,
        "CMA-ES reaches f - f_opt <= 1e-8 on the 10-D sphere (within 1e4 evaluations) and ellipsoid, and the "
        "rotated ellipsoid costs no more evaluations than the separable one",
        holds, ratio, 1.25,
        "5 runs each, lambda = " + std::to_string(lambda) + ", sigma0 = 2: median evaluations sphere " +
            std::to_string(int(med[0])) + ", ellipsoid " + std::to_string(int(med[1])) + ", rotated " +
            std::to_string(int(med[2])) + " (ratio rotated / separable " + std::to_string(ratio) + ")" +
            (all ? "" : "; some run missed 1e-8 within 1e5 evaluations")));
}

} // namespace

void runMetadistill(const TeacherTrajectoriesInput* file, const ParamSet& p, RunContext& ctx,
                    ResultDocument& doc) {
    BudgetConfig cfg;
    cfg.d = int(p.getInt(P::kDim));
    cfg.lambda = int(p.getInt(P::kPopsize));
    cfg.generations = int(p.getInt(P::kGenerations));
    cfg.teacherRuns = int(p.getInt(P::kTeacherRuns));
    cfg.epochs = int(p.getInt(P::kEpochs));
    cfg.ssftSteps = int(p.getInt(P::kSsftSteps));
    const int repeats = int(p.getInt(P::kRepeats));
    const double target = p.getDouble(P::kTarget);
    const std::string function = p.getString(P::kFunction);
    const bool full = p.getString(P::kStage) == "full";
    const Rng root(ctx.seed());
    Instances inst;
    const BbobFunction& chosen = inst.get(function, cfg.d, root);
    if (!full) { // stage "teacher": CMA-ES only
        ctx.progress(0.1, "CMA-ES on " + function);
        const LesStudent none(Eigen::VectorXd::Zero(LesStudent::paramCount()));
        functionStage(chosen, none, none, cfg, repeats, target, root, false, doc);
        return;
    }
    // Stage "teacher": training functions and their CMA-ES trajectories (or the user's).
    std::vector<TeacherTrajectory> teachers;
    std::vector<const BbobFunction*> train;
    std::vector<int> heldOut(std::begin(K::kHeldOutFunctions), std::end(K::kHeldOutFunctions));
    int64_t budget = 0;
    if (file) {
        teachers = file->trajectories;
        for (const TeacherTrajectory& t : teachers) {
            budget += int64_t(t.generations.size()) * cfg.lambda; // the teacher's cost, counted as if ours
            const BbobFunction* f = &inst.get(t.function, cfg.d, root);
            if (std::find(train.begin(), train.end(), f) == train.end())
                train.push_back(f);
            const int id =
                int(std::find(bbobNames().begin(), bbobNames().end(), t.function) - bbobNames().begin());
            if (heldOut.size() > 1 && std::find(heldOut.begin(), heldOut.end(), id) != heldOut.end()) {
                heldOut.erase(std::find(heldOut.begin(), heldOut.end(), id));
                doc.notes.push_back(t.function + " is in the teacher file: it is not held out");
            }
        }
        doc.notes.push_back("distilled from " + file->path + " (" + file->summary +
                            "); populations are scored on this run's BBOB instances");
    } else {
        for (int i : K::kTrainFunctions)
            train.push_back(&inst.get(bbobNames()[size_t(i)], cfg.d, root));
        teachers = collectTeachers(train, cfg, root.fork("teachers"), budget, ctx,
                                   [&](double f) { ctx.progress(0.05 * f, "CMA-ES teacher runs"); });
    }
    // Stage "distill".
    Rng initRng = root.fork("theta0");
    const Eigen::VectorXd theta0 = LesStudent::initialTheta(initRng);
    DistillHistory hist;
    const Eigen::VectorXd thetaD = distill(
        theta0, teachers,
        [&](const std::string& n) -> const BbobFunction& { return inst.get(n, cfg.d, root); }, cfg,
        root.fork("distill"), budget, hist, ctx,
        [&](double f) { ctx.progress(0.05 + 0.35 * f, "distilling"); });
    std::vector<double> epochs;
    for (size_t e = 0; e < hist.kl.size(); ++e)
        epochs.push_back(double(e + 1));
    doc.series[K::series::kLossKl] = seriesOf(epochs, hist.kl, "epoch", "log(1 + KL / d)");
    doc.series[K::series::kLossFit] =
        seriesOf(epochs, hist.fit, "epoch", "relative fitness of the recombined");
    doc.series[K::series::kLossDiv] = seriesOf(epochs, hist.div, "epoch", "-log det diag(sigma'^2) / d");
    doc.metrics[K::metric::kMetaBudget] = double(budget);
    // Stage "scratch": equal evaluation budget.
    const int iterations =
        int(std::max<int64_t>(1, (budget + scratchIterationEvals(cfg) / 2) / scratchIterationEvals(cfg)));
    int64_t scratchEvals = 0;
    const Eigen::VectorXd thetaS =
        trainFromScratch(theta0, train, cfg, iterations, root.fork("scratch"), scratchEvals, ctx,
                         [&](double f) { ctx.progress(0.4 + 0.3 * f, "OpenAI-ES from scratch"); });
    doc.metrics[K::metric::kScratchIterations] = iterations;
    doc.metrics[K::metric::kScratchEvals] = double(scratchEvals);
    doc.metrics[K::metric::kStudentParams] = LesStudent::paramCount();
    const LesStudent distilled(thetaD), scratch(thetaS);
    // Learned weight function: population whose fitness is its rank.
    {
        Eigen::VectorXd f(cfg.lambda);
        for (int i = 0; i < cfg.lambda; ++i)
            f[i] = i;
        const Eigen::VectorXd w = distilled.weights(f);
        std::vector<double> r, wy;
        for (int i = 0; i < cfg.lambda; ++i) {
            r.push_back(i + 1);
            wy.push_back(w[i]);
        }
        doc.series[K::series::kWeights] =
            seriesOf(r, wy, "fitness rank (1 = best)", "recombination weight w");
        const CmaEsParams cp = CmaEsParams::defaults(cfg.d, cfg.lambda);
        std::vector<double> cw(size_t(cfg.lambda), 0.0);
        for (int i = 0; i < cp.mu; ++i)
            cw[size_t(i)] = cp.weights[i];
        doc.series[K::series::kWeightsCmaes] =
            seriesOf(r, cw, "fitness rank (1 = best)", "recombination weight w");
    }
    // Stage "evaluate": held-out functions.
    std::vector<std::vector<double>> finals(K::kMethodCount);
    std::vector<std::vector<Curve>> curves(K::kMethodCount);
    for (size_t h = 0; h < heldOut.size(); ++h) {
        const BbobFunction& f = inst.get(bbobNames()[size_t(heldOut[h])], cfg.d, root);
        auto fn = [&f](const Eigen::VectorXd& x) { return f(x); };
        const LesStudent tuned(
            cfg.ssftSteps > 0 ? fineTune(thetaD, f, cfg, root.fork("ssft " + f.name()), ctx) : thetaD);
        std::vector<double> last[K::kMethodCount];
        for (int r = 0; r < repeats; ++r) {
            ctx.throwIfCancelled();
            Curve c[K::kMethodCount];
            Rng a = evalRng(root, f.name(), r), b = a, e = a;
            c[kDistilled] = distilled.run(fn, cfg.d, cfg.lambda, cfg.generations, a);
            c[kScratch] = scratch.run(fn, cfg.d, cfg.lambda, cfg.generations, b);
            c[kRandom] = randomSearchCurve(f, cfg.d, cfg.lambda, cfg.generations, evalRng(root, f.name(), r));
            c[kCmaes] = cmaesRun(f, cfg, evalRng(root, f.name(), r), false).curve;
            c[kSsft] = tuned.run(fn, cfg.d, cfg.lambda, cfg.generations, e);
            for (int m = 0; m < K::kMethodCount; ++m) {
                last[m].push_back(log10f(c[m].back()));
                curves[size_t(m)].push_back(c[m]);
            }
        }
        for (int m = 0; m < K::kMethodCount; ++m)
            finals[size_t(m)].push_back(median(last[m]));
        ctx.progress(0.7 + 0.2 * double(h + 1) / double(heldOut.size()), "held-out functions");
    }
    for (int m = 0; m < K::kMethodCount; ++m) {
        doc.vectors[std::string(K::vector::kFinalPrefix) + K::kMethods[m]] = finals[size_t(m)];
        doc.metrics[std::string(K::metric::kMedianFinalPrefix) + K::kMethods[m]] = median(finals[size_t(m)]);
        // ECDF over (function, repeat, target 10^2 .. 10^-8 in 51 steps)
        Series s = emptySeries("function evaluations", "share of (function, target) pairs reached");
        const auto& cs = curves[size_t(m)];
        for (int g = 0; g < cfg.generations; ++g) {
            int hit = 0, total = 0;
            for (const Curve& c : cs)
                for (int k = 0; k <= 50; ++k, ++total)
                    hit += c[size_t(g)] <= std::pow(10.0, 2.0 - 0.2 * k);
            addPoint(s, double((g + 1) * cfg.lambda), total ? double(hit) / total : 0.0);
        }
        doc.series[std::string(K::series::kEcdfPrefix) + K::kMethods[m]] = s;
    }
    doc.labels[K::label::kHeldOut] = std::vector<int64_t>(heldOut.begin(), heldOut.end());
    doc.metrics[K::metric::kSsftGain] = median(finals[kDistilled]) - median(finals[kSsft]);
    // Stage "function".
    ctx.progress(0.92, "convergence on " + function);
    functionStage(chosen, distilled, scratch, cfg, repeats, target, root, true, doc);
    // Stages "sanity" and "claims".
    sanityStage(root.fork("sanity"), doc);
    std::string worst;
    double worstGap = std::numeric_limits<double>::infinity();
    for (size_t h = 0; h < heldOut.size(); ++h) {
        const double gap = finals[kRandom][h] - finals[kDistilled][h];
        if (gap < worstGap) {
            worstGap = gap;
            worst = bbobNames()[size_t(heldOut[h])];
        }
    }
    doc.claims.push_back(claimOf(
        K::claim::kBeatsRandom, "the distilled student ends below random search on every held-out function",
        worstGap > 0, worstGap, 0.0,
        "smallest margin log10 f(random) - log10 f(distilled) over the " + std::to_string(heldOut.size()) +
            " held-out functions (median of " + std::to_string(repeats) + " runs each): " + worst));
    const double dm = median(finals[kDistilled]), sm = median(finals[kScratch]);
    doc.claims.push_back(claimOf(
        K::claim::kBeatsScratch,
        "at equal meta-training evaluations, the distilled student's median final log10 f over the held-out "
        "functions is at most the from-scratch OpenAI-ES student's",
        dm <= sm, sm - dm, 0.0,
        "median final log10 f: distilled " + std::to_string(dm) + ", from scratch " + std::to_string(sm) +
            " (" + std::to_string(iterations) + " ES iterations for " + std::to_string(budget) +
            " evaluations)"));
}

} // namespace pl::search::metadistill
