#include "EarlyExitEngine.h"

#include "EarlyExitKeys.h"
#include "core/Errors.h"
#include "core/NpyReader.h"
#include "core/Numeric.h"
#include "core/ResultBuilders.h"
#include "smallnets/ExitAnalysis.h"
#include "smallnets/ExitManifest.h"

#include <algorithm>
#include <cmath>
#include <filesystem>

namespace pl::smallnets {

namespace P = eefp::keys::param;
namespace K = eefp::keys;

namespace {

std::string canonical(const std::string& p) {
    std::error_code ec;
    const auto c = std::filesystem::weakly_canonical(p, ec);
    return ec ? p : c.string();
}

bool endsWith(const std::string& s, const std::string& e) {
    return s.size() >= e.size() && std::equal(e.rbegin(), e.rend(), s.rbegin(), [](char a, char b) {
               return std::tolower(a) == std::tolower(b);
           });
}

AnalysisSettings analysisFrom(const ParamSet& p) {
    AnalysisSettings s;
    const std::string c = p.getString(P::kConfidence);
    s.confidence = c == "margin"    ? ConfidenceKind::Margin
                   : c == "entropy" ? ConfidenceKind::Entropy
                                    : ConfidenceKind::MaxProb;
    s.eceBins = int(p.getInt(P::kEceBins));
    s.thresholds = int(p.getInt(P::kThresholds));
    s.calibFraction = p.getDouble(P::kCalibFraction);
    s.budget = p.getDouble(P::kBudget);
    return s;
}

/// Stage "logits": the manifest's arrays, or train the early-exit MLP on the mixture.
ExitLogits logitsFor(const InputList& inputs, const ParamSet& p, RunContext& ctx, ResultDocument& doc) {
    if (!inputs.empty()) {
        const ExitLogitsInput* man = nullptr;
        for (const auto& in : inputs)
            if (const auto* m = dynamic_cast<const ExitLogitsInput*>(in.get())) {
                if (man)
                    throw InputError(in->path, "only one .eenn.json manifest per run");
                man = m;
            }
        if (!man)
            throw InputError(inputs[0]->path, "the .npy arrays need their .eenn.json manifest as an input");
        for (const auto& in : inputs)
            if (const auto* a = dynamic_cast<const ExitArrayInput*>(in.get()))
                if (std::find(man->files.begin(), man->files.end(), a->canonical) == man->files.end())
                    throw InputError(in->path, "not one of the arrays named by " + man->path);
        doc.notes.push_back("logits from " + man->path + "; the training parameters are ignored");
        return man->data;
    }
    MixtureSpec ms;
    ms.classes = int(p.getInt(P::kClasses));
    ms.dim = int(p.getInt(P::kDim));
    ms.separation = p.getDouble(P::kSeparation);
    EarlyExitConfig c;
    c.exits = int(p.getInt(P::kExits));
    c.width = int(p.getInt(P::kWidth));
    c.epochs = int(p.getInt(P::kEpochs));
    c.lr = p.getDouble(P::kLr);
    const Rng root(ctx.seed());
    const MixtureData train =
        sampleMixture(ms, int(p.getInt(P::kSamples)), root.fork("centres"), root.fork("train"));
    const MixtureData eval =
        sampleMixture(ms, int(p.getInt(P::kEvalSamples)), root.fork("centres"), root.fork("eval"));
    std::vector<double> loss;
    ExitLogits e = trainEarlyExit(train, eval, ms.classes, c, root.fork("init"), &loss, [&](double f) {
        ctx.throwIfCancelled();
        ctx.progress(0.8 * f, "training");
    });
    Series s = emptySeries("epoch", "joint loss (sum of the exits' mean cross-entropies)");
    for (size_t i = 0; i < loss.size(); ++i)
        addPoint(s, double(i + 1), loss[i]);
    doc.series[K::series::kTrainLoss] = s;
    return e;
}

void packVectors(const ExitAnalysis& a, const ExitLogits& e, ResultDocument& doc) {
    auto& v = doc.vectors;
    v[K::vector::kAccuracy] = a.accuracy;
    v[K::vector::kEce] = a.ece;
    v[K::vector::kFpAuroc] = a.fpAuroc;
    v[K::vector::kEefp] = a.eefp;
    v[K::vector::kTemperature] = a.temperature;
    v[K::vector::kEceTs] = a.eceTs;
    v[K::vector::kFlops] = e.flops;
    v[K::vector::kPerturbEce] = a.pertEce;
    v[K::vector::kPerturbEefp] = a.pertEefp;
    v[K::vector::kPerturbArea] = a.pertArea;
    const auto Kx = Eigen::Index(a.accuracy.size());
    Eigen::MatrixXd t(Kx, 5);
    for (Eigen::Index k = 0; k < Kx; ++k)
        t.row(k) << a.accuracy[size_t(k)], a.ece[size_t(k)], a.eceTs[size_t(k)], a.fpAuroc[size_t(k)],
            k + 1 < Kx ? a.eefp[size_t(k)] : kNaN;
    doc.matrices[K::matrix::kExitTable] =
        matrixOf(t, numberedLabels("exit ", Kx), {"accuracy", "ECE", "ECE (TS)", "FP-AUROC", "EEFP"});
}

void packCurves(const ExitAnalysis& a, ResultDocument& doc) {
    for (int p = 0; p < 4; ++p) {
        doc.series[K::series::kAccVsFlopsPrefix + std::string(kPolicies[p])] =
            seriesOf(a.curves[p].cost, a.curves[p].accuracy, "mean FLOPs / last exit's", "accuracy");
        doc.metrics[K::metric::kAccAtBudgetPrefix + std::string(kPolicies[p])] = a.accAtBudget[p];
        doc.metrics[K::metric::kAreaPrefix + std::string(kPolicies[p])] = a.area[p];
    }
    for (size_t k = 0; k < a.reliability.size(); ++k) {
        doc.series[K::series::kReliabilityPrefix + std::to_string(k + 1)] = seriesOf(
            a.reliability[k].meanConf, a.reliability[k].accuracy, "mean max-prob in bin", "accuracy in bin");
        doc.series[K::series::kReliabilityTsPrefix + std::to_string(k + 1)] =
            seriesOf(a.reliabilityTs[k].meanConf, a.reliabilityTs[k].accuracy, "mean max-prob in bin",
                     "accuracy in bin");
    }
}

void checkClaims(const ExitAnalysis& a, const AnalysisSettings& s, ResultDocument& doc) {
    doc.metrics[K::metric::kEefp] = a.eefpWeighted;
    doc.metrics[K::metric::kSpearmanEefpArea] = a.spearmanEefpArea;
    doc.metrics[K::metric::kSpearmanEceArea] = a.spearmanNegEceArea;
    doc.metrics[K::metric::kCalibrationRows] = a.calibrationRows;
    doc.metrics[K::metric::kEvaluationRows] = a.evaluationRows;
    const bool c1 = a.ceEceUniform < 1e-3 && a.ceAreaUniform < a.ceAreaSquared;
    doc.claims.push_back(claimOf(
        K::claim::kCounterExample,
        "A perfectly calibrated but uninformative confidence (each sample gets its exit's accuracy) has ECE "
        "~ 0 "
        "and still a worse accuracy-FLOPs area than a miscalibrated but well-ranked one (squared max-prob).",
        c1, a.ceAreaSquared - a.ceAreaUniform, 0,
        "max ECE " + formatSignificant(a.ceEceUniform, 3) + " vs " + formatSignificant(a.ceEceSquared, 3) +
            "; area " + formatFixed(a.ceAreaUniform, 4) + " vs " + formatFixed(a.ceAreaSquared, 4)));
    const double rE = a.spearmanEefpArea, rC = std::abs(a.spearmanNegEceArea);
    doc.claims.push_back(claimOf(K::claim::kEefpTracksArea,
                                 "Over perturbed confidences, EEFP ranks them like the accuracy-FLOPs area "
                                 "(Spearman >= 0.8) and clearly "
                                 "better than -ECE does (by more than 0.2).",
                                 rE >= 0.8 && rE > rC + 0.2, rE, std::max(0.8, rC + 0.2),
                                 "Spearman(EEFP, area) = " + formatFixed(rE, 3) +
                                     ", |Spearman(-ECE, area)| = " + formatFixed(rC, 3) + " over " +
                                     std::to_string(a.pertArea.size()) + " confidences (1 - l) p^g + l u"));
    const double eefpAcc = a.accAtBudget[2], tsAcc = a.accAtBudget[1];
    doc.claims.push_back(claimOf(
        K::claim::kProcedure,
        "The EEFP exit models reach at least temperature scaling's accuracy at the FLOPs budget (0.5 point "
        "tolerance).",
        eefpAcc >= tsAcc - 0.005, eefpAcc - tsAcc, -0.005,
        "accuracy at " + formatFixed(s.budget, 2) + " of the FLOPs: EEFP models " + formatFixed(eefpAcc, 4) +
            ", temperature scaling " + formatFixed(tsAcc, 4)));
}

} // namespace

std::vector<ParamSpec> EarlyExitEngine::params() const {
    auto grp = [](ParamSpec s, const char* g) {
        s.group = g;
        return s;
    };
    return {
        grp(ParamSpec::integer(P::kSamples, "training samples", 500, 100000, 20000,
                               "samples the network is trained on"),
            "data"),
        grp(ParamSpec::integer(
                P::kEvalSamples, "evaluation samples", 200, 100000, 10000,
                "fresh samples whose logits are analysed (the first calib_fraction calibrate)"),
            "data"),
        grp(ParamSpec::integer(P::kClasses, "classes C", 2, 50, 10, "classes of the Gaussian mixture"),
            "data"),
        grp(ParamSpec::integer(P::kDim, "dimension", 2, 256, 32, "input dimension"), "data"),
        grp(ParamSpec::real(P::kSeparation, "separation", 0.5, 10, 3, "norm of the sub-cluster centres"),
            "data"),
        grp(ParamSpec::integer(P::kExits, "exits K", 2, 6, 4, "blocks, one exit head after each"), "network"),
        grp(ParamSpec::integer(P::kWidth, "width", 4, 256, 32, "hidden units per block"), "network"),
        grp(ParamSpec::integer(P::kEpochs, "epochs", 1, 100, 10,
                               "passes over the training samples (Adam, batch 256)"),
            "network"),
        grp(ParamSpec::real(P::kLr, "learning rate", 1e-4, 1, 0.01, "Adam step size", {}, true), "network"),
        grp(ParamSpec::real(P::kCalibFraction, "calibration fraction", 0.01, 0.9, 0.1,
                            "share of the rows (the first ones) that calibrate, without a mask"),
            "analysis"),
        grp(ParamSpec::choice(P::kConfidence, "confidence", {"max_prob", "margin", "entropy"}, "max_prob",
                              "exit score: max p, p1 - p2 or 1 - H/ln C"),
            "analysis"),
        grp(ParamSpec::integer(P::kEceBins, "ECE bins", 2, 100, 15, "equal-width confidence bins"),
            "analysis"),
        grp(ParamSpec::integer(P::kThresholds, "thresholds", 10, 10000, 100,
                               "threshold sweep t_i = i / thresholds"),
            "analysis"),
        grp(ParamSpec::real(P::kBudget, "FLOPs budget", 0.05, 1, 0.5, "FLOPs fraction for acc_at_budget_*"),
            "analysis"),
    };
}

std::shared_ptr<const LoadedInput> EarlyExitEngine::load(const std::string& path) const {
    if (endsWith(path, ".npy")) {
        auto in = std::make_shared<ExitArrayInput>();
        const NpyArray a = NpyReader::readFile(path); // validates the file itself
        in->path = path;
        in->kind = "npy";
        in->canonical = canonical(path);
        in->summary = "array of " + std::to_string(a.size()) + " values (data of a manifest)";
        return in;
    }
    auto in = std::make_shared<ExitLogitsInput>();
    ExitManifest m;
    in->data = readExitManifest(path, &m);
    for (const std::string& f : {m.logits, m.labels, m.calibration})
        if (!f.empty())
            in->files.push_back(canonical(f));
    in->path = path;
    in->kind = "eenn.json";
    in->summary = std::to_string(in->data.rows()) + " samples, " + std::to_string(in->data.logits.size()) +
                  " exits, " + std::to_string(in->data.classes()) + " classes";
    return in;
}

ResultDocument EarlyExitEngine::run(const InputList& inputs, const ParamSet& p, RunContext& ctx) const {
    ResultDocument doc;
    const ExitLogits e = logitsFor(inputs, p, ctx, doc);
    const AnalysisSettings s = analysisFrom(p);
    const double from = inputs.empty() ? 0.8 : 0.0;
    const ExitAnalysis a = analyseExits(e, s, Rng(ctx.seed()).fork("perturb"), [&](double f) {
        ctx.throwIfCancelled();
        ctx.progress(from + (1 - from) * f, "analysis");
    });
    packVectors(a, e, doc);
    packCurves(a, doc);
    checkClaims(a, s, doc);
    ctx.progress(1.0, "done");
    return doc;
}

} // namespace pl::smallnets
