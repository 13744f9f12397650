#include "curve/CurveStudy.h"

#include "core/Errors.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

namespace pl::curve {

SceneSet makeSyntheticScenes(const StudySettings& s, Rng rng) {
    SceneSet set;
    EnvironmentSpec a;
    a.name = "train-A";
    a.agentsMin = s.agentsMin;
    a.agentsMax = s.agentsMax;
    a.rho = effectiveRho(s.rhoA, s.strength);
    a.backgroundMax = s.backgroundMax;
    a.positionNoise = a.velocityNoise = s.sensorNoise;
    EnvironmentSpec b = a;
    b.name = "train-B";
    b.rho = effectiveRho(s.rhoB, s.strength);
    b.agentsMax = std::min(15, s.agentsMax + 1); // covariate shift: busier, more vulnerable users
    b.pedestrianShare = 0.3;
    EnvironmentSpec ood = a;
    ood.name = "ood";
    ood.rho = effectiveRho(s.rhoOod, s.strength);
    ood.carSpeedMin += s.oodSpeedShift;
    ood.carSpeedMax += s.oodSpeedShift;
    ood.cyclistShare = 0.3;
    EnvironmentSpec real = ood;
    real.name = "target-real";
    real.positionNoise = std::hypot(s.sensorNoise, s.positionNoise);
    real.velocityNoise = std::hypot(s.sensorNoise, s.velocityNoise);
    real.missRate = s.missRate;
    real.pedestrianShare = 0.3;
    real.cyclistShare = 0.1;
    set.envNames = {a.name, b.name, ood.name, real.name};
    Rng g = rng.fork("scenes");
    for (int i = 0; i < s.trainScenes; ++i)
        set.scenes.push_back(generateScene(i % 2 ? b : a, i % 2, Split::Train, g));
    for (int i = 0; i < s.testScenes; ++i)
        set.scenes.push_back(generateScene(i % 2 ? b : a, i % 2, Split::TestId, g));
    for (int i = 0; i < s.testScenes; ++i)
        set.scenes.push_back(generateScene(ood, 2, Split::TestOod, g));
    for (int i = 0; i < s.targetScenes; ++i)
        set.scenes.push_back(generateScene(real, 3, Split::Target, g));
    for (int i = 0; i < s.testScenes; ++i) // target test scenes: split Target beyond the labelled ones
        set.scenes.push_back(generateScene(real, 3, Split::Target, g));
    return set;
}

namespace {

/// Training environments first (ids 0..k-1), then the others, so the trainer's groups are dense.
/// Fills r.envNames and r.trainEnvs; returns the scenes with remapped environment ids.
std::vector<Scene> remapEnvironments(const SceneSet& in, StudyResult& r) {
    std::set<int> trainEnvSet;
    for (const Scene& sc : in.scenes)
        if (sc.split == Split::Train)
            trainEnvSet.insert(sc.env);
    if (trainEnvSet.empty())
        throw InputError("<scenes>", "no scene has split \"train\"");
    std::map<int, int> remap;
    for (int e : trainEnvSet)
        remap[e] = int(remap.size());
    for (const Scene& sc : in.scenes)
        if (!remap.count(sc.env))
            remap[sc.env] = int(remap.size());
    r.envNames.resize(remap.size());
    for (auto [old, now] : remap)
        r.envNames[size_t(now)] =
            old < int(in.envNames.size()) ? in.envNames[size_t(old)] : std::to_string(old);
    r.trainEnvs = int(trainEnvSet.size());
    std::vector<Scene> scenes = in.scenes;
    for (Scene& sc : scenes)
        sc.env = remap[sc.env];
    return scenes;
}

/// The scenes of each split (pointers into the remapped scenes).
struct Splits {
    std::vector<const Scene*> train, idTest, oodTest, target;
};

Splits splitScenes(const std::vector<Scene>& scenes, StudyResult& r) {
    Splits sp;
    for (const Scene& sc : scenes) {
        switch (sc.split) {
        case Split::Train:
            sp.train.push_back(&sc);
            break;
        case Split::TestId:
            sp.idTest.push_back(&sc);
            break;
        case Split::TestOod:
            sp.oodTest.push_back(&sc);
            break;
        case Split::Target:
            sp.target.push_back(&sc);
            break;
        }
    }
    if (r.trainEnvs < 2)
        r.notes.push_back("only one training environment: the invariance terms (V-REx, environment variance, "
                          "prototypes) are disabled; CURVE keeps its variational edges and sparsity prior");
    if (sp.idTest.empty())
        r.notes.push_back(
            "no \"test_id\" scenes: in-distribution accuracy is measured on the training scenes");
    if (sp.oodTest.empty())
        throw InputError("<scenes>", "no scene has split \"test_ood\"");
    if (sp.idTest.empty())
        sp.idTest = sp.train;
    r.trainCount = sp.train.size();
    r.idCount = sp.idTest.size();
    r.oodCount = sp.oodTest.size();
    r.targetCount = sp.target.size();
    for (const Scene* sc : sp.oodTest)
        r.oodScenes.push_back(*sc);
    return sp;
}

constexpr double kTrainShare = 0.8;

/// Trains the baseline (curve = false) or CURVE on the training scenes, with per-epoch accuracy on
/// the first 50 ID and OOD scenes; progress runs from \a lo over half the training share.
RelationModel trainOne(bool curve, double lo, TrainLog* log, const Splits& sp, int trainEnvs,
                       const StudySettings& s, const Rng& rng, const Poll& poll, const Progress& progress) {
    // Monitor sets for the per-epoch curves (at most 100 scenes each).
    const std::vector<const Scene*> idMon(sp.idTest.begin(),
                                          sp.idTest.begin() + long(std::min<size_t>(50, sp.idTest.size())));
    const std::vector<const Scene*> oodMon(
        sp.oodTest.begin(), sp.oodTest.begin() + long(std::min<size_t>(50, sp.oodTest.size())));
    ModelConfig mc = s.model;
    mc.variational = curve;
    mc.prototypes = curve && trainEnvs > 1;
    mc.prototypeCount = trainEnvs;
    TrainConfig tc = s.train;
    tc.curve = curve;
    tc.environments = trainEnvs;
    if (trainEnvs < 2) {
        tc.w.lambdaEnv = 0;
        tc.w.lambdaVrex = 0;
        tc.w.lambdaProto = 0;
    }
    RelationModel m(mc, rng.fork(curve ? "init-curve" : "init-base"));
    const char* name = curve ? "CURVE" : "baseline";
    *log = trainModel(
        m, sp.train, tc, rng.fork(curve ? "train-curve" : "train-base"),
        [&](int step, int steps, double loss) {
            poll();
            progress(lo + kTrainShare * 0.5 * double(step + 1) / double(steps),
                     std::string("training ") + name + ": step " + std::to_string(step + 1) + "/" +
                         std::to_string(steps) + ", loss " + std::to_string(loss));
        },
        [&](int, RelationModel& mm, TrainLog& lg) {
            lg.epochIdAcc.push_back(
                evaluateModel(mm, idMon, 1, tc.tauEnd, rng.fork("mon"), poll).balancedAccuracy);
            lg.epochOodAcc.push_back(
                evaluateModel(mm, oodMon, 1, tc.tauEnd, rng.fork("mon"), poll).balancedAccuracy);
            poll();
        });
    return m;
}

/// Low-data adaptation: fine-tune copies on the first n labelled target scenes, test on the rest.
void adaptToTarget(const RelationModel& base, const RelationModel& cur, const Splits& sp,
                   const StudySettings& s, const Rng& rng, const Poll& poll, const Progress& progress,
                   StudyResult& r) {
    const std::vector<const Scene*>& target = sp.target;
    const double tau = s.train.tauEnd;
    const size_t labelled = std::min<size_t>(size_t(s.targetScenes), target.size() / 2);
    const std::vector<const Scene*> tTrain(target.begin(), target.begin() + long(labelled));
    const std::vector<const Scene*> tTest(target.begin() + long(labelled), target.end());
    std::vector<int> ns{0};
    for (int n : {10, 25, 50, 100, 200, 500})
        if (size_t(n) < labelled)
            ns.push_back(n);
    if (labelled > 0 && ns.back() != int(labelled))
        ns.push_back(int(labelled));
    for (size_t k = 0; k < ns.size(); ++k) {
        AdaptPoint ap;
        ap.n = ns[k];
        for (bool curve : {false, true}) {
            RelationModel m = curve ? cur : base;
            if (ap.n > 0) {
                TrainConfig tc = s.train;
                tc.curve = curve;
                tc.environments = 1;
                tc.w.lambdaEnv = tc.w.lambdaVrex = tc.w.lambdaProto = 0;
                tc.tauStart = tc.tauEnd;
                tc.warmup = 0;
                tc.learningRate = 0.3 * s.train.learningRate;
                tc.batchScenes = ap.n;
                tc.epochs = s.adaptSteps;
                const std::vector<const Scene*> sub(tTrain.begin(), tTrain.begin() + ap.n);
                trainModel(m, sub, tc, rng.fork("adapt"), [&](int, int, double) { poll(); });
            }
            const double acc = evaluateModel(m, tTest, curve ? s.samples : 1, curve ? tau : 1.0,
                                             rng.fork("eval-target"), poll)
                                   .balancedAccuracy;
            (curve ? ap.curve : ap.baseline) = acc;
        }
        r.adaptation.push_back(ap);
        progress(kTrainShare + (1 - kTrainShare) * double(k + 1) / double(ns.size()), "low-data adaptation");
    }
}

} // namespace

StudyResult runStudy(const SceneSet& in, const StudySettings& s, Rng rng, const Poll& poll,
                     const Progress& progress) {
    StudyResult r;
    const std::vector<Scene> scenes = remapEnvironments(in, r);
    const Splits sp = splitScenes(scenes, r);
    RelationModel base = trainOne(false, 0.0, &r.logBase, sp, r.trainEnvs, s, rng, poll, progress);
    RelationModel cur =
        trainOne(true, kTrainShare * 0.5, &r.logCurve, sp, r.trainEnvs, s, rng, poll, progress);
    const double tau = s.train.tauEnd;
    progress(kTrainShare, "evaluating");
    r.idBase = evaluateModel(base, sp.idTest, 1, 1.0, rng.fork("eval-id"), poll);
    r.idCurve = evaluateModel(cur, sp.idTest, s.samples, tau, rng.fork("eval-id"), poll);
    poll();
    r.oodBase = evaluateModel(base, sp.oodTest, 1, 1.0, rng.fork("eval-ood"), poll);
    r.oodCurve = evaluateModel(cur, sp.oodTest, s.samples, tau, rng.fork("eval-ood"), poll);
    poll();
    if (sp.target.size() >= 2)
        adaptToTarget(base, cur, sp, s, rng, poll, progress, r);
    return r;
}

} // namespace pl::curve
