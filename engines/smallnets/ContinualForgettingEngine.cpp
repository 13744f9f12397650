#include "ContinualForgettingEngine.h"

#include "ContinualForgettingKeys.h"
#include "core/Numeric.h"
#include "core/ResultBuilders.h"
#include "nn/Parameter.h"
#include "smallnets/SignedQuadraticNet.h"

#include <cmath>

namespace pl::smallnets {

namespace P = forget::keys::param;
namespace K = forget::keys;

namespace {

struct Settings {
    XorTaskSpec data;
    int width = 20;
    double eta = 0.5, initScale = 0.1, qTime = 1.0;
    int iters = 300;
    MarginLoss loss = MarginLoss::Logistic;
    std::string sweep = "none";
    bool claims = true;
};

Settings settingsFrom(const ParamSet& p) {
    Settings s;
    s.data.d = int(p.getInt(P::kD));
    s.data.tasks = int(p.getInt(P::kTasks));
    s.data.n = int(p.getInt(P::kN));
    s.data.sigma = p.getDouble(P::kSigma);
    s.data.muNorm = p.getDouble(P::kMuNorm);
    s.width = int(p.getInt(P::kWidth));
    s.eta = p.getDouble(P::kEta);
    s.iters = int(p.getInt(P::kIters));
    s.initScale = p.getDouble(P::kInitScale);
    s.loss = p.getString(P::kLoss) == "exponential" ? MarginLoss::Exponential : MarginLoss::Logistic;
    s.sweep = p.getString(P::kSweep);
    s.qTime = p.getDouble(P::kQTime);
    s.claims = p.getBool(P::kClaims);
    return s;
}

/// The data and initial weights of one replicate.
struct Problem {
    TaskSet train, test;
    Eigen::MatrixXd wInit;
};

Problem synthetic(const Settings& s, const Rng& root) {
    if (s.data.d < 2 * s.data.tasks)
        throw UsageError("d = " + std::to_string(s.data.d) + " is too small for " +
                         std::to_string(s.data.tasks) + " tasks: the 2K means must be orthogonal (d >= 2K)");
    const Eigen::MatrixXd means = orthonormalMeans(s.data.d, s.data.tasks, root.fork("means"));
    Problem pr{
        makeXorTasks(s.data, means, root.fork("train")), makeXorTasks(s.data, means, root.fork("test")), {}};
    Rng init = root.fork("init");
    pr.wInit = nn::normalMatrix(s.width, s.data.d, s.initScale, init);
    return pr;
}

Rng replicateRoot(uint64_t seed, int r) {
    return Rng(seed).fork("replicate-" + std::to_string(r));
}

/// Progress share and cancellation for one stage: [from, from + span).
struct Stage {
    RunContext& ctx;
    double from, span;
    std::string name;
    std::function<void(double)> poll(double a = 0, double b = 1) const {
        return [this, a, b](double f) {
            ctx.throwIfCancelled();
            ctx.progress(from + span * (a + (b - a) * f), name);
        };
    }
};

/// Stage "data": the generator, or the files (train, optional test).
Problem loadProblem(const InputList& inputs, const Settings& s, uint64_t seed, ResultDocument& doc) {
    if (inputs.empty())
        return synthetic(s, Rng(seed));
    std::vector<const TaskCsvInput*> in;
    for (const auto& i : inputs) {
        const auto* t = dynamic_cast<const TaskCsvInput*>(i.get());
        if (!t)
            throw InputError(i->path, "not a task CSV loaded by continual-forgetting");
        in.push_back(t);
    }
    Problem pr{in[0]->tasks, in.size() > 1 ? in[1]->tasks : in[0]->tasks, {}};
    if (in.size() > 1 && (pr.test.ids != pr.train.ids || pr.test.dim() != pr.train.dim()))
        throw InputError(in[1]->path,
                         "the test set must have the same task ids and columns as " + in[0]->path);
    doc.notes.push_back("tasks from " + in[0]->path +
                        (in.size() > 1 ? ", test set " + in[1]->path : " (no test file: test = train)") +
                        "; d, tasks, n, sigma and mu_norm are taken from the data");
    Rng init = Rng(seed).fork("init");
    pr.wInit = nn::normalMatrix(s.width, pr.train.dim(), s.initScale, init);
    return pr;
}

GdSettings gd(const Settings& s, int curvePoints = 0, double snapshot = -1) {
    GdSettings g;
    g.eta = s.eta;
    g.iters = s.iters;
    g.curvePoints = curvePoints;
    g.snapshotAt = snapshot;
    return g;
}

/// Mean over replicates of the run's train and test loss matrices.
struct ReplicateMean {
    Eigen::MatrixXd train, test;
};

ReplicateMean replicates(const Settings& s, uint64_t seed, int count, const Stage& st, double a, double b) {
    ReplicateMean m;
    for (int r = 0; r < count; ++r) {
        const Problem pr = synthetic(s, replicateRoot(seed, r));
        const double ra = a + (b - a) * r / count, rb = a + (b - a) * (r + 1) / count;
        const SequentialRun run =
            trainSequential(pr.train, pr.test, pr.wInit, s.loss, gd(s), st.poll(ra, rb));
        m.train = r == 0 ? run.trainLoss : Eigen::MatrixXd(m.train + run.trainLoss);
        m.test = r == 0 ? run.testLoss : Eigen::MatrixXd(m.test + run.testLoss);
    }
    m.train /= count;
    m.test /= count;
    return m;
}

bool increasing(const std::vector<double>& v) {
    for (size_t i = 1; i < v.size(); ++i)
        if (!(v[i] > v[i - 1]))
            return false;
    return true;
}

std::string listed(const std::vector<double>& v) {
    std::string out;
    for (double x : v)
        out += (out.empty() ? "" : " / ") + formatSignificant(x, 3);
    return out;
}

/// Stage "claims": C1 (sigma = 0, same data streams), C2 (sigma 0.1/0.3/0.6 and later tasks,
/// 5 seeds), C3 (n/4, n/2, n at the set sigma, 5 seeds).
void checkClaims(const Settings& s, uint64_t seed, const Stage& st, ResultDocument& doc) {
    Settings z = s;
    z.data.sigma = 0;
    const Problem p0 = synthetic(z, Rng(seed));
    const SequentialRun r0 = trainSequential(p0.train, p0.test, p0.wInit, s.loss, gd(s), st.poll(0, 0.05));
    const double f0 = forgetting(r0.trainLoss).cwiseAbs().maxCoeff();
    doc.claims.push_back(
        claimOf(K::claim::kBlockInvariance,
                "With sigma = 0 every gradient of a task lies in its own means' span, so the "
                "other tasks' blocks of Q never change: no forgetting.",
                f0 < 1e-10, f0, 1e-10, "max_i |F_i^train| at sigma = 0 (same seed and means)"));
    const std::vector<double> sigmas{0.1, 0.3, 0.6};
    std::vector<double> fs, later;
    for (size_t k = 0; k < sigmas.size(); ++k) {
        Settings v = s;
        v.data.sigma = sigmas[k];
        const ReplicateMean m = replicates(v, seed, 5, st, 0.05 + 0.2 * double(k), 0.25 + 0.2 * double(k));
        fs.push_back(meanForgetting(m.train));
        if (k == 1)
            for (Eigen::Index j = 1; j < m.train.rows(); ++j)
                later.push_back(m.train(j, 0) - m.train(0, 0));
    }
    doc.claims.push_back(
        claimOf(K::claim::kGrowsWithSigma, "Forgetting grows with the noise level sigma (0.1 < 0.3 < 0.6).",
                increasing(fs), fs.back() - fs.front(), 0,
                "mean F^train over tasks 1..K-1 and 5 seeds at sigma 0.1 / 0.3 / 0.6: " + listed(fs)));
    doc.claims.push_back(claimOf(
        K::claim::kGrowsWithTasks, "Task 1 is forgotten more the more tasks follow it.", increasing(later),
        later.empty() ? kNaN : later.back() - later.front(), 0,
        "L_1 after task j minus L_1 after task 1, j = 2..K, mean of 5 seeds at sigma 0.3: " + listed(later)));
    std::vector<double> gaps;
    const std::vector<int> ns{std::max(20, s.data.n / 4), std::max(20, s.data.n / 2), s.data.n};
    for (size_t k = 0; k < ns.size(); ++k) {
        Settings v = s;
        v.data.n = ns[k];
        double gap = 0;
        for (int r = 0; r < 5; ++r) {
            const Problem pr = synthetic(v, replicateRoot(seed, r));
            const double a = 0.65 + 0.35 * (double(k) + r / 5.0) / 3.0;
            const SequentialRun run =
                trainSequential(pr.train, pr.test, pr.wInit, s.loss, gd(s), st.poll(a, a + 0.35 / 15.0));
            gap += std::abs(meanForgetting(run.testLoss) - meanForgetting(run.trainLoss)) / 5.0;
        }
        gaps.push_back(gap);
    }
    std::vector<double> neg;
    for (double g : gaps)
        neg.push_back(-g);
    doc.claims.push_back(
        claimOf(K::claim::kGapShrinks, "The train-test forgetting gap |F^test - F^train| shrinks as n grows.",
                increasing(neg), gaps.front() - gaps.back(), 0,
                "mean over 5 seeds of |F^test - F^train| at n = " + std::to_string(ns[0]) + " / " +
                    std::to_string(ns[1]) + " / " + std::to_string(ns[2]) + ": " + listed(gaps)));
}

/// The values a sweep visits (clamped to the parameter ranges).
std::vector<double> sweepValues(const Settings& s, const std::string& what) {
    auto scaled = [](double base, double lo, double hi) {
        std::vector<double> v;
        for (double f : {0.25, 0.5, 1.0, 2.0, 4.0}) {
            const double x = std::clamp(std::round(base * f), lo, hi);
            if (v.empty() || x > v.back())
                v.push_back(x);
        }
        return v;
    };
    if (what == "sigma")
        return {0.05, 0.1, 0.2, 0.4, 0.8};
    if (what == "n")
        return scaled(s.data.n, 20, 20000);
    if (what == "iters")
        return scaled(s.iters, 10, 100000);
    if (what == "width")
        return scaled(s.width, 2, 1024);
    std::vector<double> v;
    for (int k : {2, 3, 4, 6, 8})
        if (2 * k <= s.data.d)
            v.push_back(k);
    return v;
}

/// Stage "sweep": mean forgetting (3 seeds) against one parameter, with its log-log slope.
void runSweep(const Settings& s, bool fromFile, const Problem& fileProblem, uint64_t seed, const Stage& st,
              ResultDocument& doc) {
    if (fromFile && s.sweep != "iters" && s.sweep != "width") {
        doc.notes.push_back("sweep over " + s.sweep + " needs the generator; not run on file data");
        return;
    }
    const std::vector<double> values = sweepValues(s, s.sweep);
    Series out = emptySeries(s.sweep, "mean forgetting F^train");
    const int seeds = fromFile ? 1 : 3;
    for (size_t k = 0; k < values.size(); ++k) {
        Settings v = s;
        if (s.sweep == "sigma")
            v.data.sigma = values[k];
        else if (s.sweep == "n")
            v.data.n = int(values[k]);
        else if (s.sweep == "iters")
            v.iters = int(values[k]);
        else if (s.sweep == "width")
            v.width = int(values[k]);
        else
            v.data.tasks = int(values[k]);
        const double a = double(k) / double(values.size()), b = double(k + 1) / double(values.size());
        double f = 0;
        if (fromFile) {
            Rng init = Rng(seed).fork("init");
            const Eigen::MatrixXd w = nn::normalMatrix(v.width, fileProblem.train.dim(), v.initScale, init);
            f = meanForgetting(
                trainSequential(fileProblem.train, fileProblem.test, w, v.loss, gd(v), st.poll(a, b))
                    .trainLoss);
        } else {
            f = meanForgetting(replicates(v, seed, seeds, st, a, b).train);
        }
        addPoint(out, values[k], f);
    }
    double sx = 0, sy = 0, sxx = 0, sxy = 0;
    int cnt = 0;
    for (size_t k = 0; k < out.x.size(); ++k)
        if (out.x[k] > 0 && out.y[k] > 0) {
            const double lx = std::log(out.x[k]), ly = std::log(out.y[k]);
            sx += lx, sy += ly, sxx += lx * lx, sxy += lx * ly, ++cnt;
        }
    const double den = cnt * sxx - sx * sx;
    doc.metrics[K::metric::kSweepSlope] = cnt >= 2 && den > 0 ? (cnt * sxy - sx * sy) / den : kNaN;
    doc.series[K::series::kForgettingVsPrefix + s.sweep] = out;
}

/// The Q view: U^T Q U with U = the tasks' directions first, then an orthonormal complement.
void packQView(const Problem& pr, const Eigen::MatrixXd& Q, ResultDocument& doc) {
    const auto d = Q.rows();
    Eigen::MatrixXd U(d, 0);
    std::vector<std::string> labels;
    std::vector<double> blocks;
    for (size_t k = 0; k < pr.train.directions.size(); ++k) {
        const Eigen::MatrixXd& D = pr.train.directions[k];
        blocks.push_back(double(U.cols()));
        blocks.push_back(double(D.cols()));
        Eigen::MatrixXd t(d, U.cols() + D.cols());
        t << U, D;
        U = t;
        for (Eigen::Index c = 0; c < D.cols(); ++c)
            labels.push_back("T" + std::to_string(k + 1) + (c == 0 ? "a" : "b"));
    }
    // Complement: Q factor of [U | I] keeps U's span first.
    Eigen::MatrixXd full(d, U.cols() + d);
    full << U, Eigen::MatrixXd::Identity(d, d);
    Eigen::HouseholderQR<Eigen::MatrixXd> qr(full);
    Eigen::MatrixXd basis = qr.householderQ() * Eigen::MatrixXd::Identity(d, d);
    basis.leftCols(U.cols()) = U; // exact task directions (Q factor columns agree up to sign)
    for (Eigen::Index c = U.cols(); c < d; ++c)
        labels.push_back("r" + std::to_string(c - U.cols() + 1));
    doc.matrices[K::matrix::kQView] = matrixOf(basis.transpose() * Q * basis, labels, labels);
    doc.vectors[K::vector::kQBlocks] = blocks;
}

void packRun(const Problem& pr, const SequentialRun& run, const Settings& s, ResultDocument& doc) {
    const int Kt = int(pr.train.tasks.size());
    const auto taskLabels = numberedLabels("task ", Kt);
    const auto afterLabels = numberedLabels("after task ", Kt);
    doc.matrices[K::matrix::kWInit] = matrixOf(run.wInit, "unit ", "x", 1);
    doc.matrices[K::matrix::kQFinal] = matrixOf(quadQ(run.wFinal, quadSigns(s.width)), "x", "x", 1);
    doc.matrices[K::matrix::kTrainLoss] = matrixOf(run.trainLoss, afterLabels, taskLabels);
    doc.matrices[K::matrix::kTestLoss] = matrixOf(run.testLoss, afterLabels, taskLabels);
    doc.matrices[K::matrix::kOverlap] = matrixOf(taskOverlap(pr.train), taskLabels, taskLabels);
    doc.vectors[K::vector::kForgettingTrain] = toStd(forgetting(run.trainLoss));
    doc.vectors[K::vector::kForgettingTest] = toStd(forgetting(run.testLoss));
    doc.metrics[K::metric::kForgettingTrain] = meanForgetting(run.trainLoss);
    doc.metrics[K::metric::kForgettingTest] = meanForgetting(run.testLoss);
    doc.metrics[K::metric::kFinalTrainLoss] = run.trainLoss.row(Kt - 1).mean();
    const Eigen::MatrixXd ov = taskOverlap(pr.train);
    double mo = 0;
    for (int i = 0; i < Kt; ++i)
        for (int j = 0; j < Kt; ++j)
            if (i != j)
                mo = std::max(mo, ov(i, j));
    doc.metrics[K::metric::kMaxOverlap] = mo;
    std::vector<double> bounds;
    for (int k = 0; k < Kt; ++k)
        bounds.push_back(double(k) * s.iters);
    doc.vectors[K::vector::kTaskBoundaries] = bounds;
    for (int i = 0; i < Kt; ++i)
        doc.series[K::series::kTrainLossTaskPrefix + std::to_string(i + 1)] =
            seriesOf(run.curveStep, run.curveLoss[size_t(i)], "GD step (all tasks)", "train loss");
    packQView(pr, run.qSnapshot, doc);
}

} // namespace

std::vector<ParamSpec> ContinualForgettingEngine::params() const {
    auto grp = [](ParamSpec s, const char* g) {
        s.group = g;
        return s;
    };
    return {
        grp(ParamSpec::integer(P::kD, "dimension d", 4, 512, 32, "input dimension (d >= 2 x tasks)"), "data"),
        grp(ParamSpec::integer(P::kTasks, "tasks K", 2, 20, 3, "number of tasks, trained in order"), "data"),
        grp(ParamSpec::integer(P::kN, "samples per task n", 20, 20000, 500,
                               "training samples per task (the test set "
                               "has as many fresh ones)"),
            "data"),
        grp(ParamSpec::real(P::kSigma, "noise sigma", 0, 2, 0.3, "standard deviation of the Gaussian noise"),
            "data"),
        grp(ParamSpec::real(P::kMuNorm, "mean norm |mu|", 0.5, 5, 1,
                            "distance of each cluster from the origin"),
            "data"),
        grp(ParamSpec::integer(P::kWidth, "width m", 2, 1024, 20,
                               "hidden units; a_j = +1/m (even j), -1/m (odd j)"),
            "model"),
        grp(ParamSpec::real(P::kInitScale, "init scale", 1e-4, 1, 0.1, "W0 ~ N(0, scale^2)", {}, true),
            "model"),
        grp(ParamSpec::choice(P::kLoss, "loss", {"logistic", "exponential"}, "logistic",
                              "loss of the margin y f(x): log(1 + e^-z) or e^-z"),
            "model"),
        grp(ParamSpec::real(P::kEta, "step size eta", 1e-3, 10, 0.5, "full-batch GD step", {}, true),
            "training"),
        grp(ParamSpec::integer(P::kIters, "GD steps per task T", 10, 100000, 300, "steps on each task"),
            "training"),
        grp(ParamSpec::choice(
                P::kSweep, "sweep", {"none", "sigma", "n", "iters", "tasks", "width"}, "sigma",
                "parameter to sweep (3 seeds per value) for the forgetting-vs-parameter figure"),
            "study"),
        grp(ParamSpec::real(P::kQTime, "Q shown at", 0, 1, 1, "fraction of all GD steps at which Q is shown"),
            "study"),
        grp(ParamSpec::boolean(P::kClaims, "check claims", true,
                               "run the claim studies (sigma = 0, 3 sigmas x 5 seeds, 3 n x 5 seeds)"),
            "study"),
    };
}

std::shared_ptr<const LoadedInput> ContinualForgettingEngine::load(const std::string& path) const {
    auto in = std::make_shared<TaskCsvInput>();
    in->tasks = readTaskCsv(path);
    in->path = path;
    in->kind = "csv";
    size_t rows = 0;
    for (const auto& t : in->tasks.tasks)
        rows += size_t(t.X.rows());
    in->summary = std::to_string(in->tasks.tasks.size()) + " tasks, " + std::to_string(rows) +
                  " rows, d = " + std::to_string(in->tasks.dim());
    return in;
}

ResultDocument ContinualForgettingEngine::run(const InputList& inputs, const ParamSet& p,
                                              RunContext& ctx) const {
    const Settings s = settingsFrom(p);
    ResultDocument doc;
    const Problem pr = loadProblem(inputs, s, ctx.seed(), doc);
    const bool doClaims = s.claims && inputs.empty(), doSweep = s.sweep != "none";
    const double mainSpan = doClaims || doSweep ? (doClaims && doSweep ? 0.1 : 0.2) : 1.0;
    const Stage mainStage{ctx, 0, mainSpan, "training"};
    const SequentialRun run =
        trainSequential(pr.train, pr.test, pr.wInit, s.loss, gd(s, 100, s.qTime), mainStage.poll());
    packRun(pr, run, s, doc);
    double at = mainSpan;
    if (doClaims) {
        const double span = doSweep ? 0.6 : 1.0 - at;
        checkClaims(s, ctx.seed(), Stage{ctx, at, span, "claims"}, doc);
        at += span;
    } else if (s.claims) {
        doc.notes.push_back("claims need the generator (sigma, n, seeds): not checked on file data");
    }
    if (doSweep)
        runSweep(s, !inputs.empty(), pr, ctx.seed(), Stage{ctx, at, 1.0 - at, "sweep " + s.sweep}, doc);
    ctx.progress(1.0, "done");
    return doc;
}

} // namespace pl::smallnets
