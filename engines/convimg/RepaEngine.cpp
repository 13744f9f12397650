#include "convimg/RepaEngine.h"

#include "convimg/RepaKeys.h"
#include "convimg/RepaTraining.h"
#include "core/Errors.h"
#include "core/Numeric.h"
#include "core/ResultBuilders.h"

#include <cmath>

namespace pl::convimg {

namespace P = repa::keys::param;
namespace K = repa::keys;

namespace {

/// Everything run() derives from the inputs and parameters.
struct Setup {
    RepaProblem pr;
    std::vector<Eigen::MatrixXd> userK;
    RepaTrainSettings ts;
    int channels = 8, depth = 4, fields = 512, evalSamples = 4;
    double gShow = 0.5;
    bool fd = false;
};

Setup setupFrom(const InputList& inputs, const ParamSet& p, ResultDocument& doc) {
    Setup s;
    s.pr.task = p.getString(P::kTask) == "joint" ? DarcyTask::Joint : DarcyTask::Conditional;
    s.pr.n = int(p.getInt(P::kGrid));
    s.channels = int(p.getInt(P::kChannels));
    s.depth = int(p.getInt(P::kDepth));
    s.fields = int(p.getInt(P::kFields));
    s.evalSamples = int(p.getInt(P::kEvalSamples));
    s.gShow = p.getDouble(P::kGShow);
    s.fd = p.getString(P::kResidual) == "fd";
    s.ts.iterations = int(p.getInt(P::kIterations));
    s.ts.batch = int(p.getInt(P::kBatch));
    s.ts.steps = int(p.getInt(P::kSteps));
    s.ts.lr = p.getDouble(P::kLr);
    s.ts.cOut = p.getDouble(P::kCOut);
    s.ts.cProj = p.getDouble(P::kCProj);
    const auto* kIn = inputs.empty() ? nullptr : dynamic_cast<const FieldInput*>(inputs[0].get());
    const auto* fIn = inputs.size() < 2 ? nullptr : dynamic_cast<const FieldInput*>(inputs[1].get());
    if (kIn) {
        requirePositive(kIn->data, kIn->path);
        s.userK = kIn->data.fields;
        s.pr.n = kIn->data.n();
        doc.notes.push_back("K from " + kIn->path + " (" + kIn->data.shapeText() + "): grid " +
                            std::to_string(s.pr.n) +
                            ", its fields are the evaluation set; the grid parameter is ignored");
    }
    s.pr.f = defaultSource(s.pr.n);
    if (fIn) {
        if (fIn->data.fields.size() != 1 || fIn->data.n() != s.pr.n)
            throw InputError(fIn->path, "source shape " + fIn->data.shapeText() +
                                            " does not match the K field's " + std::to_string(s.pr.n) +
                                            " x " + std::to_string(s.pr.n));
        s.pr.f = fIn->data.fields.front();
        try {
            requireCompatibleSource(s.pr.f, s.pr.task);
        } catch (const EngineError& e) {
            throw InputError(fIn->path, e.what());
        }
        doc.notes.push_back("source f from " + fIn->path);
    }
    if (s.pr.task == DarcyTask::Joint)
        doc.notes.push_back("task = joint: unconditional generation of (p, log K); g is not used and the "
                            "error-vs-g sweep is left out");
    if (s.fd)
        doc.notes.push_back("residual = fd scores the fields with REPA-P's finite differences (no boundary "
                            "terms); training always penalises the finite-volume residual");
    return s;
}

/// Index of the first point of the smoothed curve at or below target (NaN if never).
double firstReach(const std::vector<double>& curve, double target) {
    double ema = curve.empty() ? 0 : curve.front();
    for (size_t i = 0; i < curve.size(); ++i) {
        ema = i == 0 ? curve[i] : 0.9 * ema + 0.1 * curve[i];
        if (ema <= target)
            return double(i + 1);
    }
    return kNaN;
}

double finalSmoothed(const std::vector<double>& curve) {
    double ema = curve.empty() ? kNaN : curve.front();
    for (size_t i = 1; i < curve.size(); ++i)
        ema = 0.9 * ema + 0.1 * curve[i];
    return ema;
}

void packCurves(const TrainCurves& c, const std::string& m, ResultDocument& doc) {
    Series total = emptySeries("iteration", "total loss"),
           data = emptySeries("iteration", "data loss (normalised MSE)");
    Series out = emptySeries("iteration", "output residual mean R^2");
    Series head = emptySeries("iteration", "head residual mean R^2 (mean over heads)");
    const size_t stride = std::max<size_t>(1, c.total.size() / 400);
    for (size_t i = 0; i < c.total.size(); i += stride) {
        addPoint(total, double(i + 1), c.total[i]);
        addPoint(data, double(i + 1), c.data[i]);
        addPoint(out, double(i + 1), c.outResidual[i]);
        addPoint(head, double(i + 1), c.headResidual[i]);
    }
    doc.series[K::series::kLossPrefix + m] = total;
    doc.series[K::series::kDataLossPrefix + m] = data;
    doc.series[K::series::kOutResidualPrefix + m] = out;
    if (m == K::kRepa)
        doc.series[K::series::kHeadResidual] = head;
}

Eigen::MatrixXd fieldOf(const Mat& out, const RepaProblem& pr, const FieldSet& cond, int b) {
    std::vector<Eigen::MatrixXd> p, k;
    Mat one = out.middleCols(Eigen::Index(b) * pr.n * pr.n, pr.n * pr.n);
    pr.decode(one, cond, {b}, p, k);
    return p.front();
}

/// Generated residuals and errors of one model on the evaluation set and the g sweep.
struct ModelEval {
    double residual = 0, rmse = 0;
    Eigen::MatrixXd shown, shownResidual;
    std::vector<double> errorVsG;
};

ModelEval evaluate(RepaNet& net, const Setup& s, const FieldSet& test, const FieldSet& sweep, const Rng& root,
                   RunContext& ctx) {
    ModelEval e;
    const auto tick = [&] { ctx.throwIfCancelled(); };
    std::vector<int> idx;
    for (int i = 0; i < test.size(); ++i)
        idx.push_back(i);
    const Mat gen = sampleRepa(net, s.pr, test, idx, s.ts.steps, root.fork("sample"), tick);
    std::vector<Eigen::MatrixXd> p, k;
    s.pr.decode(gen, test, idx, p, k);
    e.residual = s.pr.meanSquaredResidual(p, k, test.g, s.fd);
    if (s.pr.task == DarcyTask::Conditional) {
        double se = 0;
        for (size_t i = 0; i < p.size(); ++i)
            se += (p[i] - test.p[i]).squaredNorm() / double(p[i].size());
        e.rmse = std::sqrt(se / double(p.size()));
        std::vector<int> sidx;
        for (int i = 0; i < sweep.size(); ++i)
            sidx.push_back(i);
        const Mat sg = sampleRepa(net, s.pr, sweep, sidx, s.ts.steps, root.fork("sweep"), tick);
        for (int i = 0; i < sweep.size(); ++i) {
            const Eigen::MatrixXd pi = fieldOf(sg, s.pr, sweep, i);
            e.errorVsG.push_back(std::sqrt((pi - sweep.p[size_t(i)]).squaredNorm() / double(pi.size())));
        }
        e.shown = fieldOf(sg, s.pr, sweep, 0);
    } else {
        e.rmse = kNaN;
        e.shown = p.front();
    }
    const Eigen::MatrixXd& kShown = s.pr.task == DarcyTask::Conditional ? sweep.K.front() : k.front();
    const double gs = s.pr.task == DarcyTask::Conditional ? sweep.g.front() : 0.0;
    e.shownResidual =
        (s.fd ? fdResidual(kShown, e.shown, s.pr.f) : fvResidual(kShown, e.shown, s.pr.f, s.pr.task, gs))
            .cwiseAbs();
    return e;
}

/// Head decodings of the REPA-P net on the shown field, noised to t = T / 5.
void packHeads(RepaNet& net, const Setup& s, const FieldSet& sweep, const Rng& root, ResultDocument& doc) {
    const Diffusion d(s.ts.steps);
    const int t = std::max(1, s.ts.steps / 5);
    Rng rng = root.fork("probe");
    const Mat x0 = s.pr.x0Of(sweep, {0});
    Mat xt(x0.rows(), x0.cols());
    for (Eigen::Index j = 0; j < xt.cols(); ++j)
        for (Eigen::Index i = 0; i < xt.rows(); ++i)
            xt(i, j) = std::sqrt(d.alphaBar[size_t(t)]) * x0(i, j) +
                       std::sqrt(1 - d.alphaBar[size_t(t)]) * rng.normal();
    nn::Tape tape;
    const MapShape sh{1, s.pr.n, s.pr.n};
    const RepaNet::Output o =
        net.forward(tape, s.pr.inputOf(xt, sweep, {0}), {double(t) / s.ts.steps}, sh, true);
    std::vector<double> res, blocks;
    auto score = [&](const Mat& out) {
        std::vector<Eigen::MatrixXd> p, k;
        s.pr.decode(out, sweep, {0}, p, k);
        res.push_back(s.pr.meanSquaredResidual(p, k, {sweep.g.front()}, s.fd));
        return p.front();
    };
    for (size_t h = 0; h < o.heads.size(); ++h) {
        doc.matrices[K::matrix::kHeadPrefix + std::to_string(h + 1)] = matrixOf(score(o.heads[h].value()));
        blocks.push_back(double(net.config().heads[h] + 1));
    }
    score(o.x0.value());
    doc.vectors[K::vector::kHeadResidual] = res;
    doc.vectors[K::vector::kHeadBlocks] = blocks;
}

} // namespace

std::vector<ParamSpec> RepaEngine::params() const {
    auto grp = [](ParamSpec s, const char* g) {
        s.group = g;
        return s;
    };
    return {
        grp(ParamSpec::choice(
                P::kTask, "task", {"conditional", "joint"}, "conditional",
                "conditional: p | K, g (Dirichlet g left, 0 right); joint: (p, K) with zero flux"),
            "problem"),
        grp(ParamSpec::integer(P::kGrid, "grid N", 8, 64, 16, "cells per side (a K file sets it)"),
            "problem"),
        grp(ParamSpec::integer(P::kFields, "training fields", 16, 20000, 512,
                               "solved Darcy samples to train on"),
            "problem"),
        grp(ParamSpec::real(P::kGShow, "shown g", 0, 2, 0.5,
                            "Dirichlet value of the shown field (train: g in [0, 1])"),
            "problem"),
        grp(ParamSpec::choice(P::kResidual, "residual", {"fv", "fd"}, "fv",
                              "scoring: the solver's finite volumes or REPA-P's finite differences"),
            "problem"),
        grp(ParamSpec::integer(P::kChannels, "channels", 4, 64, 8, "trunk width"), "network"),
        grp(ParamSpec::integer(P::kDepth, "depth", 3, 12, 4, "residual blocks (heads on the last two)"),
            "network"),
        grp(ParamSpec::integer(P::kSteps, "diffusion steps T", 20, 1000, 50, "DDPM steps (cosine schedule)"),
            "network"),
        grp(ParamSpec::integer(P::kIterations, "iterations", 100, 100000, 300, "Adam steps per model"),
            "training"),
        grp(ParamSpec::integer(P::kBatch, "batch", 1, 64, 8, "fields per step"), "training"),
        grp(ParamSpec::real(P::kLr, "learning rate", 1e-4, 0.1, 2e-3, "Adam step size", {}, true),
            "training"),
        grp(ParamSpec::real(P::kCProj, "c_proj", 0, 1, 0.01, "weight of the heads' mean R^2 (REPA-P only)"),
            "training"),
        grp(ParamSpec::real(P::kCOut, "c_out", 0, 1, 1e-3, "weight of the output's mean R^2 (both models)"),
            "training"),
        grp(ParamSpec::integer(P::kEvalSamples, "evaluation samples", 1, 64, 4,
                               "fresh fields (g spread over [0, 1]) whose generated residual is scored"),
            "evaluation"),
    };
}

std::shared_ptr<const LoadedInput> RepaEngine::load(const std::string& path) const {
    auto in = std::make_shared<FieldInput>();
    in->data = readFieldFile(path);
    in->path = path;
    in->kind = "field";
    in->summary = "field grid " + in->data.shapeText();
    return in;
}

ResultDocument RepaEngine::run(const InputList& inputs, const ParamSet& p, RunContext& ctx) const {
    ResultDocument doc;
    Setup s = setupFrom(inputs, p, doc);
    const Rng root(ctx.seed());
    const bool cond = s.pr.task == DarcyTask::Conditional;
    const FieldSet train = makeFields(s.pr, s.fields, root.fork("train"), 0.0, 1.0, [&](double f) {
        ctx.throwIfCancelled();
        ctx.progress(0.1 * f, "solving training fields");
    });
    fitNormaliser(s.pr, train);
    std::vector<Eigen::MatrixXd> testK = s.userK;
    Rng testRng = root.fork("test");
    for (int i = int(testK.size()); i < s.evalSamples; ++i)
        testK.push_back(randomPermeability(s.pr.n, testRng));
    if (!s.userK.empty())
        testK.resize(s.userK.size());
    std::vector<double> gTest;
    for (size_t i = 0; i < testK.size(); ++i)
        gTest.push_back(cond ? (double(i) + 0.5) / double(testK.size()) : 0.0);
    const FieldSet test = solveFields(s.pr, testK, gTest);
    std::vector<double> gs{s.gShow};
    for (double g : {0.0, 0.25, 0.5, 0.75, 1.0, 1.25, 1.5, 1.75, 2.0})
        gs.push_back(g);
    if (!cond)
        gs.resize(1);
    const FieldSet sweep = solveFields(s.pr, std::vector<Eigen::MatrixXd>(gs.size(), testK.front()), gs);
    const DarcySolution shown = solveDarcy(testK.front(), s.pr.f, s.pr.task, cond ? s.gShow : 0.0);

    RepaNetConfig nc{s.pr.inChannels(), s.pr.outChannels(), s.channels, s.depth, 16, {}};
    RepaNet base(nc, root.fork("init"));
    nc.heads = {s.depth - 2, s.depth - 1};
    RepaNet repa(nc, root.fork("init"));
    const TrainCurves cb = trainRepa(base, s.pr, train, s.ts, false, root.fork("batches"), [&](double f) {
        ctx.throwIfCancelled();
        ctx.progress(0.1 + 0.4 * f, "training the baseline");
    });
    const TrainCurves cr =
        trainRepa(repa, s.pr, train, s.ts, s.ts.cProj > 0, root.fork("batches"), [&](double f) {
            ctx.throwIfCancelled();
            ctx.progress(0.5 + 0.4 * f, "training REPA-P");
        });
    ctx.progress(0.9, "sampling");
    const ModelEval eb = evaluate(base, s, test, sweep, root, ctx);
    const ModelEval er = evaluate(repa, s, test, sweep, root, ctx);

    auto& m = doc.metrics;
    const Eigen::MatrixXd rTrue =
        s.fd ? fdResidual(testK.front(), shown.p, s.pr.f)
             : fvResidual(testK.front(), shown.p, s.pr.f, s.pr.task, cond ? s.gShow : 0.0);
    doc.matrices[K::matrix::kKField] = matrixOf(testK.front());
    doc.matrices[K::matrix::kPTrue] = matrixOf(shown.p);
    doc.matrices[K::matrix::kResidualTrue] = matrixOf(rTrue);
    doc.matrices[K::matrix::kPGenerated] = matrixOf(er.shown);
    doc.matrices[K::matrix::kPGeneratedBaseline] = matrixOf(eb.shown);
    doc.matrices[K::matrix::kResidualGen] = matrixOf(er.shownResidual);
    m[K::metric::kGrid] = s.pr.n;
    m[K::metric::kSolverIterations] = shown.iterations;
    m[K::metric::kResidualTrue] = s.pr.meanSquaredResidual(test.p, test.K, test.g, s.fd);
    m[K::metric::kResidualGenBaseline] = eb.residual;
    m[K::metric::kResidualGenRepa] = er.residual;
    m[K::metric::kErrorGenBaseline] = eb.rmse;
    m[K::metric::kErrorGenRepa] = er.rmse;
    packCurves(cb, K::kBaseline, doc);
    packCurves(cr, K::kRepa, doc);
    const double target = finalSmoothed(cb.data);
    m[K::metric::kTargetLoss] = target;
    m[K::metric::kItersBaseline] = firstReach(cb.data, target);
    m[K::metric::kItersRepa] = firstReach(cr.data, target);
    if (cond) {
        const std::vector<double> gx(gs.begin() + 1, gs.end());
        doc.series[K::series::kErrorVsGPrefix + std::string(K::kBaseline)] = seriesOf(
            gx, std::vector<double>(eb.errorVsG.begin() + 1, eb.errorVsG.end()), "g", "RMSE of generated p");
        doc.series[K::series::kErrorVsGPrefix + std::string(K::kRepa)] = seriesOf(
            gx, std::vector<double>(er.errorVsG.begin() + 1, er.errorVsG.end()), "g", "RMSE of generated p");
        doc.vectors[K::vector::kGValues] = gx;
    }
    packHeads(repa, s, sweep, root, doc);

    const int64_t macsB = denoiserMacs(base, s.pr, false), macsR = denoiserMacs(repa, s.pr, false);
    const int64_t macsTrain = denoiserMacs(repa, s.pr, true);
    m[K::metric::kMacsBaseline] = double(macsB);
    m[K::metric::kMacsRepa] = double(macsR);
    m[K::metric::kHeadMacs] = double(macsTrain - macsR);
    doc.claims.push_back(
        claimOf(K::claim::kEqualMacs,
                "With the heads removed, one REPA-P denoiser call costs exactly the baseline's "
                "multiply-accumulates (the heads are training-only).",
                macsB == macsR, double(macsR), double(macsB),
                std::to_string(macsR) + " vs " + std::to_string(macsB) + " MACs; the heads add " +
                    std::to_string(macsTrain - macsR) + " during training"));
    doc.claims.push_back(claimOf(
        K::claim::kLowerResidual,
        "Samples generated by REPA-P have a lower mean PDE residual R^2 than the baseline's.",
        er.residual < eb.residual, er.residual, eb.residual,
        "mean R^2 " + formatSignificant(er.residual, 4) + " (REPA-P) vs " +
            formatSignificant(eb.residual, 4) + " (baseline) over " + std::to_string(test.size()) +
            " generated fields; solver fields: " + formatSignificant(m[K::metric::kResidualTrue], 3)));
    ctx.progress(1.0, "done");
    return doc;
}

} // namespace pl::convimg
