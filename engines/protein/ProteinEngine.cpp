#include "ProteinEngine.h"

#include "EnsembleAnalysis.h"
#include "ResidueMatching.h"
#include "StructureReader.h"
#include "SyntheticStudy.h"
#include "TmScore.h"

#include "ProteinKeys.h"
#include "core/Errors.h"
#include "core/PathUtil.h"

#include <algorithm>
#include <cmath>

namespace pl::protein {

namespace {
namespace P = protein::keys::param;
namespace M = protein::keys::metric;
namespace S = protein::keys::series;
namespace X = protein::keys::matrix;
namespace V = protein::keys::vector;
} // namespace

std::vector<ParamSpec> ProteinEngine::params() const {
    std::vector<ParamSpec> s;
    auto add = [&s](ParamSpec p, const char* group) {
        p.group = group;
        s.push_back(std::move(p));
    };
    const char* V = "View";
    add(ParamSpec::choice(P::kColorBy, "Colour by", {"deviation", "state", "rmsf"}, "state",
                          "3D colouring: per-residue deviation between the two main states (or of the model "
                          "against the reference), the model's state, or the ensemble RMSF."),
        V);
    add(ParamSpec::choice(
            P::kStyle, "3D style", {"tube", "ball-and-stick"}, "tube",
            "C-alpha trace as tubes, or C-alpha spheres with bonds between consecutive residues."),
        V);
    add(ParamSpec::integer(P::kMaxModelsShown, "Models shown in 3D", 1, 60, 12,
                           "Superposed models drawn in the 3D view (state medoids first)."),
        V);
    const char* C = "States";
    add(ParamSpec::choice(P::kClusterMethod, "Clustering", {"kmedoids", "average"}, "kmedoids",
                          "k-medoids (PAM) or average-linkage clustering of the RMSD matrix; the number of "
                          "states maximises the mean silhouette."),
        C);
    add(ParamSpec::integer(P::kMaxStates, "Max states", 2, 10, 6, "Largest number of states tried."), C);
    add(ParamSpec::real(P::kMinSilhouette, "Min silhouette", 0, 1, 0.25,
                        "Below this mean silhouette the ensemble counts as one state."),
        C);
    add(ParamSpec::real(P::kRMax, "r_max", 0.5, 5, 2.5,
                        "A sample is assigned to its closest reference state only within this RMSD.", "A"),
        C);
    add(ParamSpec::real(P::kMargin, "Margin", 0, 2, 0.5,
                        "... and only when it is closer to that state than to any other by this margin.",
                        "A"),
        C);
    const char* G = "Synthetic protein (no input)";
    add(ParamSpec::integer(P::kResiduesPerDomain, "Residues per domain", 30, 200, 60,
                           "C-alphas in each helix-bundle domain."),
        G);
    add(ParamSpec::integer(P::kHelicesPerDomain, "Helices per domain", 2, 6, 3, "Helices in each bundle."),
        G);
    add(ParamSpec::integer(P::kHingeLength, "Hinge length", 2, 8, 4, "Linker residues between the domains."),
        G);
    add(ParamSpec::real(P::kHingeAngle, "Hinge angle theta", 0, 90, 35,
                        "Rotation of domain 2 between state A and state B (shrunk on a clash).", "deg"),
        G);
    add(ParamSpec::real(P::kRmsf, "Ensemble RMSF", 0, 3, 0.8, "Thermal fluctuation of the ANM ensembles.",
                        "A"),
        G);
    add(ParamSpec::real(P::kAnmCutoff, "ANM cutoff", 8, 20, 15, "Spring cutoff of the elastic network.", "A"),
        G);
    add(ParamSpec::integer(P::kAnmModes, "ANM modes", 1, 50, 10,
                           "Lowest non-trivial modes used for sampling."),
        G);
    add(ParamSpec::integer(P::kSamples, "Samples N", 4, 2000, 50,
                           "Conformations per sampler, and models in the mixed ensemble."),
        G);
    const char* S = "Toy samplers (illustrative)";
    add(ParamSpec::real(P::kWDom, "w_dom", 0.5, 1, 0.9,
                        "Weight of the dominant state A in the biased sampler (training-exposure bias)."),
        S);
    add(ParamSpec::real(P::kTDec, "T_dec", 0.5, 5, 1,
                        "Decoding temperature of the biased sampler: pi_s ~ pi_s^(1/T); T > 1 flattens."),
        S);
    add(ParamSpec::real(P::kContextResponse, "Context response c", 0, 1, 0,
                        "Fraction of the mass moved to the induced state B when the context is on "
                        "(c = 0: context-insensitive)."),
        S);
    return s;
}

std::shared_ptr<const LoadedInput> ProteinEngine::load(const std::string& path) const {
    return StructureReader::readFile(path);
}

namespace {

const ProteinStructure& asStructure(const std::shared_ptr<const LoadedInput>& in) {
    const auto* s = dynamic_cast<const ProteinStructure*>(in.get());
    if (!s)
        throw InputError(in ? in->path : std::string(), "not a structure loaded by promise-protein-states");
    return *s;
}

std::vector<std::string> residueLabels(const std::vector<ResidueKey>& keys,
                                       const std::vector<std::string>& names) {
    std::vector<std::string> out;
    for (size_t i = 0; i < keys.size(); ++i)
        out.push_back(keys[i].text() + " " + (i < names.size() ? names[i] : std::string()));
    return out;
}

void checkSuperposable(const Eigen::Matrix3Xd& x, const std::string& file, const std::string& what) {
    if (x.cols() < 3)
        throw InputError(file, "superposition refused: only " + std::to_string(x.cols()) + " " + what +
                                   " (at least 3 needed)");
    if (!wellConditioned(x))
        throw InputError(file, "superposition refused: the " + what + " are colinear (degenerate)");
}

void runPair(ResultDocument& doc, const ProteinStructure& mob, const ProteinStructure& ref, const ParamSet& p,
             RunContext& ctx) {
    const ProteinModel& a = mob.models.front();
    const ProteinModel& b = ref.models.front();
    const auto pairs = matchResidues(a, b);
    Eigen::Matrix3Xd x(3, Eigen::Index(pairs.size())), y(3, Eigen::Index(pairs.size()));
    std::vector<ResidueKey> keys;
    std::vector<std::string> names;
    for (size_t i = 0; i < pairs.size(); ++i) {
        x.col(Eigen::Index(i)) = a.ca.col(pairs[i].first);
        y.col(Eigen::Index(i)) = b.ca.col(pairs[i].second);
        keys.push_back(b.keys[size_t(pairs[i].second)]);
        names.push_back(b.resNames[size_t(pairs[i].second)]);
    }
    checkSuperposable(y, ref.path, "residues in common with " + baseName(mob.path));
    checkSuperposable(x, mob.path, "residues in common with " + baseName(ref.path));
    ctx.progress(0.1, "TM-score search");
    const TmResult r = tmScore(x, y, int(b.keys.size()), [&] { ctx.throwIfCancelled(); });
    doc.metrics[M::kTmScore] = r.tmScore;
    doc.metrics[M::kRmsdCommon] = r.rmsdCommon;
    doc.metrics[M::kGdtTs] = r.gdtTs;
    doc.metrics[M::kCommonResidues] = r.common;
    doc.metrics[M::kD0] = r.d0;
    doc.metrics[M::kLengthReference] = double(b.keys.size());
    doc.metrics[M::kLengthMobile] = double(a.keys.size());
    // Every model of the first file against the reference (an ensemble of predictions).
    std::vector<double> tmPer, rmsdPer;
    const size_t maxModels = std::min<size_t>(mob.models.size(), 200);
    for (size_t m = 0; m < maxModels; ++m) {
        ctx.throwIfCancelled();
        ctx.progress(0.2 + 0.7 * double(m) / double(maxModels), "models against the reference");
        const auto pm = matchResidues(mob.models[m], b);
        if (pm.size() < 3) {
            tmPer.push_back(std::nan(""));
            rmsdPer.push_back(std::nan(""));
            continue;
        }
        Eigen::Matrix3Xd xm(3, Eigen::Index(pm.size())), ym(3, Eigen::Index(pm.size()));
        for (size_t i = 0; i < pm.size(); ++i) {
            xm.col(Eigen::Index(i)) = mob.models[m].ca.col(pm[i].first);
            ym.col(Eigen::Index(i)) = b.ca.col(pm[i].second);
        }
        const TmResult rm = m == 0 ? r : tmScore(xm, ym, int(b.keys.size()), [&] { ctx.throwIfCancelled(); });
        tmPer.push_back(rm.tmScore);
        rmsdPer.push_back(rm.rmsdCommon);
    }
    doc.vectors[V::kTmPerModel] = tmPer;
    doc.vectors[V::kRmsdPerModel] = rmsdPer;
    Eigen::MatrixXd pr(r.common, 2);
    for (int i = 0; i < r.common; ++i) {
        pr(i, 0) = std::nan("");
        pr(i, 1) = r.deviation[size_t(i)];
    }
    doc.matrices[X::kPerResidue] = toMatrix(pr, residueLabels(keys, names), {"rmsf", "deviation"});
    Series dev;
    for (int i = 0; i < r.common; ++i) {
        dev.x.push_back(keys[size_t(i)].number);
        dev.y.push_back(r.deviation[size_t(i)]);
    }
    dev.xlabel = "residue number";
    dev.ylabel = "deviation after TM superposition (A)";
    doc.series[S::kDeviation] = dev;
    writeDisplay(doc, {r.best.apply(x), y}, {0, 1}, {0, 1},
                 {baseName(mob.path) + " (model " + a.name + ")", baseName(ref.path) + " (reference)"});
    doc.notes.push_back("TM-score normalised by the reference " + baseName(ref.path) + " (" +
                        std::to_string(b.keys.size()) + " residues); " + std::to_string(r.common) +
                        " residues matched by chain, number and insertion code.");
    (void)p;
}

void runEnsemble(ResultDocument& doc, const ProteinStructure& s, const ParamSet& p, RunContext& ctx) {
    const EnsembleMatch m = matchEnsemble(s.models);
    if (m.keys.empty())
        throw InputError(s.path, "no residue is present in every model");
    checkSuperposable(m.coords.front(), s.path, "residues common to every model");
    std::vector<std::string> modelNames;
    for (const auto& mod : s.models)
        modelNames.push_back("model " + mod.name);
    const EnsembleAnalysis a = analyseEnsemble(m.coords, p, ctx, 0.05, 0.95);
    writeEnsemble(doc, a, modelNames, residueLabels(m.keys, m.resNames), int(p.getInt(P::kMaxModelsShown)));
    doc.metrics[M::kDroppedResidues] = m.droppedResidues;
    if (m.droppedResidues > 0)
        doc.notes.push_back(std::to_string(m.droppedResidues) +
                            " residue(s) of model 1 are missing in some model and were left out.");
    for (const auto& w : s.warnings)
        doc.notes.push_back(baseName(s.path) + ": " + w);
}

} // namespace

ResultDocument ProteinEngine::run(const InputList& inputs, const ParamSet& p, RunContext& ctx) const {
    ResultDocument doc;
    if (inputs.size() > 2)
        throw UsageError("promise-protein-states takes at most two structure files");
    if (inputs.size() == 2) {
        runPair(doc, asStructure(inputs[0]), asStructure(inputs[1]), p, ctx);
    } else if (inputs.size() == 1) {
        runEnsemble(doc, asStructure(inputs[0]), p, ctx);
    } else {
        runSyntheticStudy(doc, p, ctx);
    }
    ctx.progress(1.0, "done");
    return doc;
}

} // namespace pl::protein
