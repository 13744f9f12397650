#include "ProtovarEngine.h"

#include "ProtovarKeys.h"
#include "core/Errors.h"
#include "core/Numeric.h"
#include "core/ResultBuilders.h"
#include "distill/GlyphRenderer.h"
#include "distill/KMeans.h"
#include "distill/ProtovarExperiment.h"

#include <array>
#include <chrono>
#include <cmath>
#include <map>
#include <optional>
#include <set>

namespace pl::distill {

namespace P = protovar::keys::param;
namespace K = protovar::keys;

namespace {

constexpr int kShownPool = 20; ///< pool members shown per class in pool_grid

ProtovarSettings settingsFrom(const ParamSet& p) {
    ProtovarSettings s;
    s.codebook = int(p.getInt(P::kCodebook));
    s.prototypes = int(p.getInt(P::kPrototypes));
    s.beta = p.getDouble(P::kBeta);
    s.cfg = p.getDouble(P::kCfg);
    s.temperature = p.getDouble(P::kTemperature);
    s.poolFactor = int(p.getInt(P::kPoolFactor));
    s.tau = p.getDouble(P::kTau);
    s.selector = p.getString(P::kSelector) == "kcenter" ? Selector::KCenter : Selector::Herding;
    s.pixelSpace = p.getString(P::kFeatureSpace) == "pixels";
    s.studentInits = int(p.getInt(P::kStudentInits));
    s.generatorSteps = int(p.getInt(P::kGenSteps));
    s.studentSteps = int(p.getInt(P::kStudentSteps));
    return s;
}

/// Stage "data": procedural glyphs, or the user's IDX pairs / PNG folders.
void buildData(const InputList& inputs, const ParamSet& p, const Rng& root, ImageSet& train, ImageSet& test) {
    if (!inputs.empty()) {
        gatherProtovarInputs(inputs, train, test);
        return;
    }
    Rng tr = root.fork("train"), te = root.fork("test");
    train.X = renderGlyphSet(int(p.getInt(P::kImagesPerClass)), tr, train.y);
    test.X = renderGlyphSet(int(p.getInt(P::kTestPerClass)), te, test.y);
    train.classes = test.classes = glyphClassNames();
    train.side = test.side = kGlyphSide;
}

std::vector<std::vector<int>> rowsByClass(const ImageSet& s) {
    std::vector<std::vector<int>> out(s.classes.size());
    for (size_t i = 0; i < s.y.size(); ++i)
        out[size_t(s.y[i])].push_back(int(i));
    return out;
}

/// What one IPC gives: accuracy per method and, for the display, the pools and selections.
struct IpcOutcome {
    double acc[K::kMethodCount] = {};
    std::vector<ClassPool> guided;
    std::vector<std::vector<int>> protovarPick; ///< per class, into the guided pool
    std::vector<int64_t> selectedReal;          ///< train indices, class by class
    std::vector<double> entropyGuided, entropyUnguided;
    double sampleMs = 0;
    int sampled = 0, passed = 0, filledUp = 0;
};

struct Context {
    const ImageSet& train;
    const ImageSet& test;
    const ProtovarModels& models;
    const ProtovarSettings& s;
    const Rng& root;
    RunContext& ctx;
};

void addEntropy(std::vector<double>& acc, const std::vector<double>& e, double w) {
    acc.resize(e.size(), 0.0);
    for (size_t k = 0; k < e.size(); ++k)
        acc[k] += w * e[k];
}

/// Stage "methods at one IPC": pools, filter, selectors, students.
IpcOutcome runIpc(const Context& c, int ipc, const std::function<void(double, const std::string&)>& poll) {
    IpcOutcome o;
    const int C = int(c.train.classes.size()), count = c.s.poolFactor * ipc;
    const std::vector<std::vector<int>> realRows = rowsByClass(c.train);
    const std::string tag = std::to_string(ipc);
    std::vector<Eigen::MatrixXd> X(K::kMethodCount, Eigen::MatrixXd(0, c.train.X.cols()));
    std::vector<std::vector<int>> y(K::kMethodCount);
    auto append = [&](int m, const Eigen::MatrixXd& imgs, const std::vector<int>& idx, int cls) {
        const Eigen::MatrixXd R = rowsOf(imgs, idx);
        X[size_t(m)].conservativeResize(X[size_t(m)].rows() + R.rows(), Eigen::NoChange);
        X[size_t(m)].bottomRows(R.rows()) = R;
        y[size_t(m)].insert(y[size_t(m)].end(), idx.size(), cls);
    };
    for (int cls = 0; cls < C; ++cls) {
        c.ctx.throwIfCancelled();
        const std::string cs = std::to_string(cls);
        const auto t0 = std::chrono::steady_clock::now();
        ClassPool g =
            generatePool(c.models, c.s, cls, count, c.s.beta, c.root.fork("pool/" + tag + "/guided/" + cs));
        o.sampleMs +=
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
        o.sampled += count;
        ClassPool u =
            generatePool(c.models, c.s, cls, count, 0.0, c.root.fork("pool/" + tag + "/unguided/" + cs));
        addEntropy(o.entropyGuided, g.sampled.entropyBits, 1.0 / C);
        addEntropy(o.entropyUnguided, u.sampled.entropyBits, 1.0 / C);
        const Eigen::RowVectorXd mu = c.models.classMeans.row(cls);
        int passed = 0, filled = 0;
        const std::vector<int> pv = filterAndSelect(g, mu, ipc, c.s, &passed, &filled);
        o.passed += passed;
        o.filledUp += filled;
        append(0, g.images, pv, cls);
        const std::vector<int>& rr = realRows[size_t(cls)];
        Rng r1 = c.root.fork("random/" + tag + "/random_real/" + cs);
        std::vector<int> rnd = randomSubset(int(rr.size()), ipc, r1), real;
        for (int i : rnd)
            real.push_back(rr[size_t(i)]);
        append(1, c.train.X, real, cls);
        const std::vector<int> sl = selectWith(c.s.selector, rowsOf(c.models.realFeatures, rr), mu, ipc);
        std::vector<int> selReal;
        for (int i : sl) {
            selReal.push_back(rr[size_t(i)]);
            o.selectedReal.push_back(rr[size_t(i)]);
        }
        append(2, c.train.X, selReal, cls);
        Rng r3 = c.root.fork("random/" + tag + "/var_unguided/" + cs);
        append(3, u.images, randomSubset(count, ipc, r3), cls);
        Rng r4 = c.root.fork("random/" + tag + "/guided_random/" + cs);
        append(4, g.images, randomSubset(count, ipc, r4), cls);
        append(5, u.images, filterAndSelect(u, mu, ipc, c.s), cls);
        o.protovarPick.push_back(pv);
        o.guided.push_back(std::move(g));
        poll(0.3 * (cls + 1) / C, "pools for IPC " + tag);
    }
    for (int m = 0; m < K::kMethodCount; ++m)
        o.acc[m] = studentAccuracy(X[size_t(m)], y[size_t(m)], c.test, c.train.side, C, c.s, c.root,
                                   tag + "/" + K::kMethods[m], [&](double f) {
                                       c.ctx.throwIfCancelled();
                                       poll(0.3 + 0.7 * (m + f) / K::kMethodCount,
                                            "students for IPC " + tag + ": " + K::kMethods[m]);
                                   });
    return o;
}

/// Stage "variance vs beta": pools at every beta of the grid from the same random numbers.
Series poolVarianceVsBeta(const Context& c, int ipc) {
    Series s = emptySeries("beta_1 (prototype bias at the coarsest scale)",
                           "mean intra-class variance of phi in the pool");
    const int C = int(c.train.classes.size()), count = std::max(2, c.s.poolFactor * ipc);
    for (double b : K::kBetaGrid) {
        double v = 0;
        for (int cls = 0; cls < C; ++cls) {
            c.ctx.throwIfCancelled();
            const ClassPool g =
                generatePool(c.models, c.s, cls, count, b, c.root.fork("variance/" + std::to_string(cls)));
            v += meanSquaredSpread(g.phi) / C;
        }
        addPoint(s, b, v);
    }
    return s;
}

/// Stage "display": image grids and the PCA of phi.
void displays(const Context& c, const IpcOutcome& o, ResultDocument& doc) {
    const MultiScaleQuantiser& q = *c.models.quantiser;
    const int C = int(c.train.classes.size()), side = c.train.side;
    const std::vector<std::vector<int>> realRows = rowsByClass(c.train), testRows = rowsByClass(c.test);
    std::vector<std::vector<Eigen::VectorXd>> real(static_cast<size_t>(C)), ladder(static_cast<size_t>(C)),
        pool(static_cast<size_t>(C)), partial(static_cast<size_t>(C));
    std::vector<std::vector<char>> framed(static_cast<size_t>(C));
    for (int cls = 0; cls < C; ++cls) {
        for (size_t i = 0; i < realRows[size_t(cls)].size() && i < 8; ++i)
            real[size_t(cls)].push_back(c.train.X.row(realRows[size_t(cls)][i]).transpose());
        const auto& protos = c.models.prototypes[size_t(cls)];
        for (size_t m = 0; m < protos.front().size(); ++m)
            for (int k = 0; k < q.scaleCount(); ++k)
                ladder[size_t(cls)].push_back(q.image(protos[size_t(k)][m]).cwiseMax(0.0).cwiseMin(1.0));
        if (!testRows[size_t(cls)].empty()) {
            const Eigen::VectorXd img = c.test.X.row(testRows[size_t(cls)].front()).transpose();
            std::vector<Eigen::MatrixXd> cum;
            q.encode(q.latent(img), &cum);
            for (const Eigen::MatrixXd& f : cum)
                partial[size_t(cls)].push_back(q.image(f).cwiseMax(0.0).cwiseMin(1.0));
            partial[size_t(cls)].push_back(img);
        }
        const ClassPool& g = o.guided[size_t(cls)];
        const std::set<int> sel(o.protovarPick[size_t(cls)].begin(), o.protovarPick[size_t(cls)].end());
        int unselectedRoom = kShownPool - int(sel.size());
        for (Eigen::Index i = 0; i < g.images.rows(); ++i) {
            const bool chosen = sel.count(int(i)) > 0;
            if (!chosen && unselectedRoom <= 0)
                continue;
            unselectedRoom -= !chosen;
            pool[size_t(cls)].push_back(g.images.row(i).transpose());
            framed[size_t(cls)].push_back(chosen);
        }
    }
    doc.matrices[K::matrix::kRealGrid] = matrixOf(imageGrid(real, side));
    doc.matrices[K::matrix::kPrototypeLadder] = matrixOf(imageGrid(ladder, side));
    doc.matrices[K::matrix::kPoolGrid] = matrixOf(imageGrid(pool, side, framed));
    doc.matrices[K::matrix::kPartialReconstructions] = matrixOf(imageGrid(partial, side));
    // PCA of phi, fitted on the real training images
    Series sr = emptySeries("PC 1 of phi", "PC 2 of phi"), sp = sr, ss = sr;
    for (int cls = 0; cls < C; ++cls) {
        std::vector<int> shown(realRows[size_t(cls)].begin(),
                               realRows[size_t(cls)].begin() +
                                   std::min<size_t>(30, realRows[size_t(cls)].size()));
        const Eigen::MatrixXd pr = pca2(c.models.realPhi, rowsOf(c.models.realPhi, shown));
        for (Eigen::Index i = 0; i < pr.rows(); ++i)
            addPoint(sr, pr(i, 0), pr(i, 1));
        const ClassPool& g = o.guided[size_t(cls)];
        const Eigen::MatrixXd pp = pca2(c.models.realPhi, g.phi);
        const std::set<int> sel(o.protovarPick[size_t(cls)].begin(), o.protovarPick[size_t(cls)].end());
        for (Eigen::Index i = 0; i < pp.rows(); ++i)
            addPoint(sel.count(int(i)) ? ss : sp, pp(i, 0), pp(i, 1));
    }
    doc.series[K::series::kPcaReal] = sr;
    doc.series[K::series::kPcaPool] = sp;
    doc.series[K::series::kPcaSelected] = ss;
}

void checkClaims(const Series& var, const std::map<int, std::array<double, K::kMethodCount>>& acc,
                 ResultDocument& doc) {
    bool mono = true;
    double worstStep = 0;
    for (size_t i = 1; i < var.y.size(); ++i) {
        const double rel = var.y[i - 1] > 0 ? var.y[i] / var.y[i - 1] - 1 : 0;
        worstStep = std::max(worstStep, rel);
        mono = mono && rel <= 0.05;
    }
    const double drop = var.y.front() > 0 ? 1 - var.y.back() / var.y.front() : 0;
    doc.claims.push_back(claimOf(
        K::claim::kVarianceFalls,
        "Raising beta lowers the pool's intra-class phi-variance: no step of the beta grid raises it by more "
        "than 5 %, and at beta = 10 it is at least 20 % lower than at beta = 0.",
        mono && drop >= 0.2, drop, 0.2,
        "drop at beta = 10: " + formatFixed(100 * drop, 1) +
            " %, largest step up: " + formatFixed(100 * worstStep, 1) + " %"));
    if (acc.count(1) && acc.count(10)) {
        const double g1 = acc.at(1)[0] - acc.at(1)[3], g10 = acc.at(10)[0] - acc.at(10)[3];
        doc.claims.push_back(claimOf(
            K::claim::kBeatsUnguided,
            "At IPC 1 and at IPC 10, ProtoVAR's student accuracy is at least 5 points above unguided VAR's "
            "(random picks from a beta = 0 pool).",
            g1 >= 0.05 && g10 >= 0.05, std::min(g1, g10), 0.05,
            "gain " + formatFixed(100 * g1, 1) + " points at IPC 1, " + formatFixed(100 * g10, 1) +
                " at IPC 10"));
    }
    if (acc.count(1)) {
        const double d = acc.at(1)[0] - acc.at(1)[1];
        doc.claims.push_back(claimOf(
            K::claim::kBeatsRandomReal,
            "At IPC 1, ProtoVAR's student accuracy is at least that of a random real "
            "subset.",
            d >= 0, d, 0,
            "ProtoVAR " + formatFixed(acc.at(1)[0], 3) + ", random real " + formatFixed(acc.at(1)[1], 3)));
    }
}

} // namespace

std::vector<ParamSpec> ProtovarEngine::params() const {
    auto grp = [](ParamSpec s, const char* g) {
        s.group = g;
        return s;
    };
    return {
        grp(ParamSpec::integer(P::kImagesPerClass, "images per class", 20, 6000, 200,
                               "procedural training glyphs per class (no input files)"),
            "data"),
        grp(ParamSpec::integer(P::kTestPerClass, "test images per class", 10, 1000, 50,
                               "procedural test glyphs per class (no input files)"),
            "data"),
        grp(ParamSpec::integer(P::kCodebook, "codebook V", 32, 1024, 128, "codewords shared by all scales"),
            "generator"),
        grp(ParamSpec::integer(P::kGenSteps, "generator steps", 20, 5000, 250,
                               "Adam updates (batch 128) per scale on the real tokens"),
            "generator"),
        grp(ParamSpec::real(P::kCfg, "CFG w", 0, 5, 1, "classifier-free guidance: (1 + w) l_c - w l_null"),
            "generator"),
        grp(ParamSpec::real(P::kTemperature, "temperature", 0.3, 2, 1,
                            "logits divided by it before sampling"),
            "generator"),
        grp(ParamSpec::integer(P::kPrototypes, "prototypes M_c", 1, 5, 3,
                               "k-means++ prototypes per class and scale"),
            "prototypes"),
        grp(ParamSpec::real(P::kBeta, "beta_1", 0, 10, 3,
                            "prototype bias at the coarsest scale; beta_k = beta_1 0.5^(k-1)"),
            "prototypes"),
        grp(ParamSpec::integer(P::kIpc, "IPC", 1, 50, 10, "images per class in the distilled set"),
            "selection"),
        grp(ParamSpec::integer(P::kPoolFactor, "pool factor", 2, 20, 5, "pool = pool factor x IPC per class"),
            "selection"),
        grp(ParamSpec::real(P::kTau, "filter tau", 0, 0.99, 0.5,
                            "keep pool images whose classifier probability of their class is >= tau"),
            "selection"),
        grp(ParamSpec::choice(P::kSelector, "selector", {"herding", "kcenter"}, "herding",
                              "herding: match the class mean; kcenter: cover the class"),
            "selection"),
        grp(ParamSpec::choice(P::kFeatureSpace, "feature space", {"classifier", "pixels"}, "classifier",
                              "selector features: the classifier's penultimate layer or raw pixels"),
            "selection"),
        grp(ParamSpec::boolean(P::kIpcSweep, "IPC 1 and 10 too", true,
                               "also run IPC 1 and 10 (the claims need them)"),
            "selection"),
        grp(ParamSpec::integer(P::kStudentInits, "student inits", 1, 5, 3,
                               "initialisations averaged per method"),
            "student"),
        grp(ParamSpec::integer(P::kStudentSteps, "student steps", 20, 2000, 200,
                               "Adam minibatch updates per student (batch 32, +-1 px shifts)"),
            "student"),
    };
}

std::shared_ptr<const LoadedInput> ProtovarEngine::load(const std::string& path) const {
    return loadProtovarInput(path);
}

ResultDocument ProtovarEngine::run(const InputList& inputs, const ParamSet& p, RunContext& ctx) const {
    ResultDocument doc;
    const Rng root(ctx.seed());
    ImageSet train, test;
    buildData(inputs, p, root, train, test);
    const ProtovarSettings s = settingsFrom(p);
    const int ipc = int(p.getInt(P::kIpc)), C = int(train.classes.size());
    const std::vector<std::vector<int>> realRows = rowsByClass(train);
    size_t smallest = realRows.front().size();
    std::vector<std::string> small;
    for (int c = 0; c < C; ++c) {
        smallest = std::min(smallest, realRows[size_t(c)].size());
        if (int(realRows[size_t(c)].size()) < ipc)
            small.push_back(train.classes[size_t(c)] + " (" + std::to_string(realRows[size_t(c)].size()) +
                            ")");
    }
    if (!small.empty()) {
        std::string list;
        for (const std::string& x : small)
            list += (list.empty() ? "" : ", ") + x;
        throw InputError(inputs.empty() ? std::string("synthetic data") : inputs.front()->path,
                         "classes with fewer training images than ipc = " + std::to_string(ipc) + ": " +
                             list);
    }
    std::set<int> ipcs = {ipc};
    if (p.getBool(P::kIpcSweep))
        for (int v : {1, 10})
            if (size_t(v) <= smallest)
                ipcs.insert(v);
    for (const std::string& n : train.notices)
        doc.notes.push_back(n);
    const double nIpc = double(ipcs.size());
    const ProtovarModels models = buildModels(train, test, s, root, [&](double f, const std::string& what) {
        ctx.throwIfCancelled();
        ctx.progress(0.3 * f / 0.7, what);
    });
    const Context c{train, test, models, s, root, ctx};
    doc.metrics[K::metric::kClassifierAcc] = accuracyOf(models.classifier->predict(test.X), test.y);
    doc.metrics[K::metric::kReconstructionMse] = models.reconstructionMse;
    std::map<int, std::array<double, K::kMethodCount>> acc;
    std::optional<IpcOutcome> at;
    int done = 0;
    for (int v : ipcs) {
        IpcOutcome o = runIpc(c, v, [&](double f, const std::string& what) {
            ctx.progress(0.3 + 0.6 * (done + f) / nIpc, what);
        });
        std::copy(o.acc, o.acc + K::kMethodCount, acc[v].begin());
        if (v == ipc)
            at = std::move(o);
        ++done;
    }
    for (int m = 0; m < K::kMethodCount; ++m) {
        doc.metrics[K::metric::kAccPrefix + std::string(K::kMethods[m])] = acc[ipc][size_t(m)];
        Series sr = emptySeries("IPC (images per class)", "student test accuracy (mean over inits)");
        for (const auto& [v, a] : acc)
            addPoint(sr, v, a[size_t(m)]);
        doc.series[K::series::kAccVsIpcPrefix + std::string(K::kMethods[m])] = sr;
    }
    doc.vectors[K::vector::kMethodAcc] = std::vector<double>(acc[ipc].begin(), acc[ipc].end());
    doc.vectors[K::vector::kIpcValues] = std::vector<double>(ipcs.begin(), ipcs.end());
    doc.labels[K::label::kSelectedReal] = at->selectedReal;
    doc.metrics[K::metric::kMsPerGeneratedImage] = at->sampleMs / std::max(1, at->sampled);
    doc.metrics[K::metric::kFilterPassRate] = double(at->passed) / std::max(1, at->sampled);
    if (at->filledUp > 0)
        doc.notes.push_back(std::to_string(at->filledUp) + " protovar pick(s) at IPC " + std::to_string(ipc) +
                            " came from below the filter threshold (too few pool images passed)");
    Series eg = emptySeries("scale k", "mean token entropy (bits)"), eu = eg;
    for (size_t k = 0; k < at->entropyGuided.size(); ++k) {
        addPoint(eg, double(k + 1), at->entropyGuided[k]);
        addPoint(eu, double(k + 1), at->entropyUnguided[k]);
    }
    doc.series[K::series::kTokenEntropyVsScale] = eg;
    doc.series[K::series::kTokenEntropyUnguided] = eu;
    ctx.progress(0.9, "pool variance vs beta");
    const Series var = poolVarianceVsBeta(c, ipc);
    doc.series[K::series::kPoolVarianceVsBeta] = var;
    displays(c, *at, doc);
    checkClaims(var, acc, doc);
    ctx.progress(1.0, "done");
    return doc;
}

} // namespace pl::distill
