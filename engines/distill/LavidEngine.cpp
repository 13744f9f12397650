#include "LavidEngine.h"

#include "LavidKeys.h"
#include "core/Numeric.h"
#include "core/ResultBuilders.h"
#include "distill/LavidExperiment.h"

#include <chrono>
#include <cmath>
#include <tuple>

namespace pl::distill {

namespace P = lavid::keys::param;
namespace K = lavid::keys;

namespace {

const std::vector<double> kImagesGrid = {5, 10, 20, 40};
const std::vector<double> kNoiseGrid = {0, 0.5, 1, 2};

/// Counts trained students for the progress bar and polls for cancellation.
struct Progress {
    RunContext& ctx;
    int total = 1, done = 0;
    std::function<void(double)> poll(const std::string& what) {
        return [this, what](double f) {
            ctx.throwIfCancelled();
            ctx.progress(std::min(1.0, (done + f) / total), what);
        };
    }
};

LavidSettings settingsFrom(const ParamSet& p) {
    LavidSettings s;
    s.hidden = int(p.getInt(P::kHidden));
    s.epochs = int(p.getInt(P::kEpochs));
    s.lr = p.getDouble(P::kLr);
    s.gamma = p.getDouble(P::kGamma);
    s.beta = p.getDouble(P::kBeta);
    s.loss = p.getString(P::kSignatureLoss) == "kl" ? SignatureLoss::Kl : SignatureLoss::Mse;
    return s;
}

/// Stage "problem": the synthetic world and its renders, or the user's files.
LavidProblem buildProblem(const InputList& inputs, const ParamSet& p, const Rng& root) {
    LavidProblem pr;
    if (!inputs.empty()) {
        LavidFileData f = gatherLavidInputs(inputs);
        pr.classes = f.classes;
        pr.questionLabels = f.questionLabels;
        pr.questions = f.questions;
        pr.options = f.options;
        pr.signatures = f.signatures;
        pr.answers.resize(pr.signatures.rows(), pr.questions);
        for (Eigen::Index c = 0; c < pr.signatures.rows(); ++c)
            for (int q = 0; q < pr.questions; ++q)
                pr.signatures.row(c)
                    .segment(Eigen::Index(q) * pr.options, pr.options)
                    .maxCoeff(&pr.answers(c, q));
        pr.train = std::move(f.train);
        pr.test = std::move(f.test);
    } else {
        Rng wr = root.fork("world");
        LavidWorld w = makeLavidWorld(int(p.getInt(P::kClasses)), int(p.getInt(P::kQuestions)),
                                      int(p.getInt(P::kOptions)), wr);
        for (int c = 0; c < w.classes(); ++c)
            pr.classes.push_back(w.className(c));
        for (int q = 0; q < w.questions(); ++q)
            pr.questionLabels.push_back(w.questionText(q));
        pr.questions = w.questions();
        pr.options = w.options;
        pr.signatures = teacherSignatures(w, p.getDouble(P::kTeacherNoise), p.getDouble(P::kHallucination),
                                          p.getDouble(P::kTeacherMargin), root.fork("teacher"));
        pr.answers = w.answer;
        Rng tr = root.fork("train"), te = root.fork("test");
        pr.train = renderLavidImages(w, int(p.getInt(P::kImagesPerClass)), p.getDouble(P::kRhoSp), tr);
        pr.test = renderLavidImages(w, int(p.getInt(P::kTestPerClass)), 0.5, te);
        pr.world = std::move(w);
    }
    std::tie(pr.mean, pr.sd) = standardise(pr.train, pr.test);
    return pr;
}

Eigen::MatrixXd permutedRows(const Eigen::MatrixXd& S, const std::vector<int>& perm) {
    Eigen::MatrixXd R(S.rows(), S.cols());
    for (Eigen::Index c = 0; c < S.rows(); ++c)
        R.row(c) = S.row(perm[size_t(c)]);
    return R;
}

/// The targets of method \a m.
MethodTargets targetsOf(const std::string& m, const Eigen::MatrixXd& sig, const Eigen::MatrixXd& randomSig,
                        const Eigen::MatrixXd& teacher) {
    MethodTargets t;
    if (m == "lavid" || m == "kd_lavid")
        t.signatures = sig;
    if (m == "random_signature")
        t.signatures = randomSig;
    if (m == "kd" || m == "kd_lavid")
        t.teacherLogits = teacher;
    return t;
}

struct MethodRuns {
    double acc[K::kMethodCount] = {};
    double worst[K::kMethodCount] = {};
};

/// Stage "methods": every method over every init; predictions, losses, probe and similarity of init 0.
MethodRuns runMethods(const LavidProblem& pr, const LavidSettings& s, const Eigen::MatrixXd& randomSig,
                      const Eigen::MatrixXd& teacher, int inits, const Rng& root, Progress& prog,
                      ResultDocument& doc) {
    MethodRuns out;
    const int C = int(pr.classes.size());
    for (int i = 0; i < inits; ++i)
        for (int k = 0; k < K::kMethodCount; ++k) {
            const std::string m = K::kMethods[k];
            std::vector<double> losses;
            const Student st = trainStudent(pr, pr.train, targetsOf(m, pr.signatures, randomSig, teacher), s,
                                            root.fork("init/" + std::to_string(i)),
                                            root.fork("fit/" + m + "/" + std::to_string(i)),
                                            prog.poll("training " + m), &losses);
            ++prog.done;
            const std::vector<int> pred = st.predict(pr.test.X);
            out.acc[k] += accuracyOf(pred, pr.test.y) / inits;
            out.worst[k] += worstGroupAccuracy(pred, pr.test) / inits;
            if (i != 0)
                continue;
            doc.labels[K::label::kPredPrefix + m] = std::vector<int64_t>(pred.begin(), pred.end());
            Series ls = emptySeries("epoch", "mean training loss");
            for (size_t e = 0; e < losses.size(); ++e)
                addPoint(ls, double(e + 1), losses[e]);
            doc.series[K::series::kTrainLossPrefix + m] = ls;
            if (m == "lavid") {
                doc.vectors[K::vector::kProbeAcc] = probeAccuracy(st, pr.test, pr.answers, pr.options);
                doc.matrices[K::matrix::kFeatureSimilarity] =
                    matrixOf(cosineRows(classMeanFeatures(st, pr.test, C)), pr.classes, pr.classes);
            }
        }
    for (int k = 0; k < K::kMethodCount; ++k) {
        doc.metrics[K::metric::kTestAccPrefix + std::string(K::kMethods[k])] = out.acc[k];
        doc.metrics[K::metric::kWorstGroupAccPrefix + std::string(K::kMethods[k])] = out.worst[k];
    }
    doc.vectors[K::vector::kMethodAcc] = std::vector<double>(out.acc, out.acc + K::kMethodCount);
    doc.vectors[K::vector::kMethodWorstGroup] = std::vector<double>(out.worst, out.worst + K::kMethodCount);
    return out;
}

/// Mean test accuracy of one method over \a inits inits, trained on \a train.
double meanAccuracy(const LavidProblem& pr, const DistillData& train, const MethodTargets& t,
                    const LavidSettings& s, int inits, const Rng& root, const std::string& tag,
                    Progress& prog) {
    double acc = 0;
    for (int i = 0; i < inits; ++i) {
        const Student st =
            trainStudent(pr, train, t, s, root.fork("init/" + std::to_string(i)),
                         root.fork("sweep/" + tag + "/" + std::to_string(i)), prog.poll("sweep " + tag));
        ++prog.done;
        acc += accuracyOf(st.predict(pr.test.X), pr.test.y) / inits;
    }
    return acc;
}

/// Stage "sweeps" (synthetic runs): accuracy vs images per class, LaViD's gain vs sigma_T.
void runSweeps(const LavidProblem& pr, const LavidSettings& s, const Eigen::MatrixXd& randomSig,
               const ParamSet& p, int inits, double ceAcc, const Rng& root, Progress& prog,
               ResultDocument& doc) {
    const LavidWorld& w = *pr.world;
    const char* ms[] = {"ce", "lavid", "random_signature"};
    for (const char* m : ms) {
        Series sr = emptySeries("training images per class", "test accuracy (mean over inits)");
        for (double n : kImagesGrid) {
            // the same render stream as the run's training set, standardised with its moments
            Rng tr = root.fork("train");
            DistillData train = renderLavidImages(w, int(n), p.getDouble(P::kRhoSp), tr);
            train.X = standardised(train.X, pr.mean, pr.sd);
            addPoint(sr, n,
                     meanAccuracy(pr, train, targetsOf(m, pr.signatures, randomSig, {}), s, inits, root,
                                  std::string(m) + "/n" + std::to_string(int(n)), prog));
        }
        doc.series[K::series::kAccVsImagesPrefix + std::string(m)] = sr;
    }
    Series g = emptySeries("teacher noise sigma_T", "LaViD test accuracy - CE (points)");
    for (double sigma : kNoiseGrid) {
        const Eigen::MatrixXd sig = teacherSignatures(w, sigma, p.getDouble(P::kHallucination),
                                                      p.getDouble(P::kTeacherMargin), root.fork("teacher"));
        const double a = meanAccuracy(pr, pr.train, targetsOf("lavid", sig, sig, {}), s, inits, root,
                                      "noise/" + formatSignificant(sigma, 2), prog);
        addPoint(g, sigma, 100.0 * (a - ceAcc));
    }
    doc.series[K::series::kGainVsNoise] = g;
}

void checkClaims(const MethodRuns& r, const ParamSet& p, ResultDocument& doc) {
    const double gain = r.acc[2] - r.acc[0], rnd = r.acc[4] - r.acc[0], wg = r.worst[2] - r.worst[0];
    const std::string at = "images_per_class = " + std::to_string(p.getInt(P::kImagesPerClass)) +
                           ", mean over " + std::to_string(p.getInt(P::kStudentInits)) + " inits";
    doc.claims.push_back(claimOf(
        K::claim::kLavidBeatsCe,
        "At 20 images per class, LaViD's test accuracy is at least 3 points above CE's.", gain >= 0.03, gain,
        0.03, "LaViD " + formatFixed(r.acc[2], 3) + ", CE " + formatFixed(r.acc[0], 3) + " (" + at + ")"));
    doc.claims.push_back(
        claimOf(K::claim::kRandomSignature,
                "The random-signature control (signatures permuted across classes) is at most 1 "
                "point above CE.",
                rnd <= 0.01, rnd, 0.01,
                "random signature " + formatFixed(r.acc[4], 3) + ", CE " + formatFixed(r.acc[0], 3)));
    doc.claims.push_back(
        claimOf(K::claim::kWorstGroup,
                "At rho_sp = 0.95, LaViD's worst-group accuracy is at least 5 points above CE's.", wg >= 0.05,
                wg, 0.05,
                "worst group: LaViD " + formatFixed(r.worst[2], 3) + ", CE " + formatFixed(r.worst[0], 3) +
                    " (rho_sp = " + formatSignificant(p.getDouble(P::kRhoSp), 3) + ")"));
    const Series* g =
        doc.series.count(K::series::kGainVsNoise) ? &doc.series.at(K::series::kGainVsNoise) : nullptr;
    if (g && g->y.size() >= 2) {
        const double drop = g->y.front() - g->y.back();
        doc.claims.push_back(
            claimOf(K::claim::kGainShrinks,
                    "LaViD's gain over CE shrinks as the teacher noise sigma_T grows (gain at sigma_T = 0 "
                    "above the gain at sigma_T = 2; first init, against the mean CE).",
                    drop > 0, drop, 0,
                    "gain " + formatFixed(g->y.front(), 1) + " points at sigma_T = 0, " +
                        formatFixed(g->y.back(), 1) + " at sigma_T = 2"));
    }
}

} // namespace

std::vector<ParamSpec> LavidEngine::params() const {
    auto grp = [](ParamSpec s, const char* g) {
        s.group = g;
        return s;
    };
    return {
        grp(ParamSpec::integer(P::kClasses, "classes C", 4, 100, 20, "fine-grained classes (synthetic)"),
            "data"),
        grp(ParamSpec::integer(P::kImagesPerClass, "images per class", 5, 500, 20,
                               "training renders per class"),
            "data"),
        grp(ParamSpec::integer(P::kTestPerClass, "test images per class", 10, 200, 30,
                               "test renders per class (background 50/50)"),
            "data"),
        grp(ParamSpec::real(P::kRhoSp, "rho_sp", 0.5, 0.99, 0.95,
                            "fraction of training images on the background of their class group"),
            "data"),
        grp(ParamSpec::integer(P::kQuestions, "questions Q", 5, 200, 50,
                               "multiple-choice questions per class"),
            "teacher"),
        grp(ParamSpec::integer(P::kOptions, "options O", 2, 8, 5, "options per question"), "teacher"),
        grp(ParamSpec::real(P::kTeacherNoise, "teacher noise sigma_T", 0, 2, 0.5,
                            "sd of the noise on the option logits"),
            "teacher"),
        grp(ParamSpec::real(P::kHallucination, "hallucination h", 0, 0.5, 0.1,
                            "probability that the teacher's answer is replaced by another option"),
            "teacher"),
        grp(ParamSpec::real(P::kTeacherMargin, "teacher margin beta_T", 0.5, 10, 3,
                            "logit added to the option the teacher believes"),
            "teacher"),
        grp(ParamSpec::real(P::kGamma, "gamma", 0, 10, 1, "weight of the class cross-entropy"), "loss"),
        grp(ParamSpec::real(P::kBeta, "beta", 0, 10, 1, "weight of the signature term"), "loss"),
        grp(ParamSpec::choice(P::kSignatureLoss, "signature loss", {"mse", "kl"}, "mse",
                              "mse over the Q*O entries (LaViD) or per-question KL of the softmaxes"),
            "loss"),
        grp(ParamSpec::integer(P::kStudentInits, "student inits", 1, 5, 3,
                               "initialisations averaged per method"),
            "student"),
        grp(ParamSpec::integer(P::kHidden, "hidden units", 8, 256, 32,
                               "backbone width (features = hidden / 2)"),
            "student"),
        grp(ParamSpec::integer(P::kEpochs, "epochs", 1, 200, 30,
                               "passes over the training rows (Adam, batch 32)"),
            "student"),
        grp(ParamSpec::real(P::kLr, "learning rate", 1e-4, 0.1, 3e-3, "Adam step size", {}, true), "student"),
        grp(ParamSpec::boolean(P::kSweeps, "sweeps", true,
                               "accuracy vs images per class and LaViD's gain vs sigma_T (synthetic runs)"),
            "student"),
    };
}

std::shared_ptr<const LoadedInput> LavidEngine::load(const std::string& path) const {
    return loadLavidInput(path);
}

ResultDocument LavidEngine::run(const InputList& inputs, const ParamSet& p, RunContext& ctx) const {
    ResultDocument doc;
    const Rng root(ctx.seed());
    const LavidProblem pr = buildProblem(inputs, p, root);
    LavidSettings s = settingsFrom(p);
    s.features = std::max(4, s.hidden / 2);
    const int inits = int(p.getInt(P::kStudentInits));
    const bool sweeps = pr.world && p.getBool(P::kSweeps);
    Progress prog{ctx};
    prog.total = 1 + inits * K::kMethodCount + (sweeps ? int(3 * kImagesGrid.size() + kNoiseGrid.size()) : 0);
    Rng dr = root.fork("derange");
    const Eigen::MatrixXd randomSig = permutedRows(pr.signatures, derangement(int(pr.classes.size()), dr));
    LavidSettings wide = s;
    wide.hidden = 4 * s.hidden;
    wide.features = 2 * s.hidden;
    const Student teacher = trainStudent(pr, pr.train, {}, wide, root.fork("kd/init"), root.fork("kd/fit"),
                                         prog.poll("training the vision teacher"));
    ++prog.done;
    doc.metrics[K::metric::kTeacherAcc] = accuracyOf(teacher.predict(pr.test.X), pr.test.y);
    const auto t0 = std::chrono::steady_clock::now();
    const MethodRuns r = runMethods(pr, s, randomSig, teacher.logits(pr.train.X), inits, root, prog, doc);
    doc.metrics[K::metric::kMsPerStudent] =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count() /
        (inits * K::kMethodCount);
    if (sweeps)
        runSweeps(pr, s, randomSig, p, 1, r.acc[0], root, prog, doc); // first init only (cost)
    std::vector<std::string> cols;
    for (int q = 0; q < pr.questions; ++q)
        for (int o = 0; o < pr.options; ++o)
            cols.push_back("q" + std::to_string(q + 1) + ":o" + std::to_string(o + 1));
    doc.matrices[K::matrix::kSignatures] = matrixOf(pr.signatures, pr.classes, cols);
    doc.matrices[K::matrix::kSignatureSimilarity] =
        matrixOf(cosineRows(pr.signatures), pr.classes, pr.classes);
    if (pr.world) {
        int agree = 0;
        for (Eigen::Index c = 0; c < pr.signatures.rows(); ++c)
            for (int q = 0; q < pr.questions; ++q) {
                Eigen::Index best = 0;
                pr.signatures.row(c).segment(Eigen::Index(q) * pr.options, pr.options).maxCoeff(&best);
                agree += int(best) == pr.answers(c, q);
            }
        doc.metrics[K::metric::kSignatureAgreement] =
            double(agree) / double(pr.signatures.rows() * pr.questions);
    } else
        doc.notes.push_back("user files: " + std::to_string(pr.classes.size()) + " classes, " +
                            std::to_string(pr.train.rows()) + " training and " +
                            std::to_string(pr.test.rows()) +
                            " test rows; probe targets are the signatures' argmax options; no sweeps");
    checkClaims(r, p, doc);
    ctx.progress(1.0, "done");
    return doc;
}

} // namespace pl::distill
