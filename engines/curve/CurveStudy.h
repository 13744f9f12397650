#pragma once
/// One complete CURVE-SG experiment: data (synthetic environments or a loaded scene set), the
/// baseline and CURVE trained on the training environments, evaluation in distribution, out of
/// distribution and on the shifted target ("real") domain, the low-data adaptation curve and
/// risk-coverage curves. Deterministic in (settings, scenes, rng); polls `poll` every step.
#include "curve/CurveTrainer.h"
#include "curve/SceneGenerator.h"

#include <functional>

namespace pl::curve {

struct StudySettings {
    // Synthetic workload (ignored when scenes are given).
    int trainScenes = 600;
    int testScenes = 300;
    int agentsMin = 3;
    int agentsMax = 6;
    double strength = 1.0; ///< spurious strength s in [0, 1]
    double rhoA = 0.9, rhoB = 0.75, rhoOod = 0.1;
    double oodSpeedShift = 5.0; ///< m/s added to car speeds in the OOD and target domains
    int backgroundMax = 6;
    double sensorNoise = 0.3; ///< m and m/s observation noise (sd) in every environment
    double positionNoise = 0.5, velocityNoise = 0.5, missRate = 0.1; ///< target ("real") domain
    int targetScenes = 50; ///< labelled target scenes available for adaptation
    // Model and training.
    ModelConfig model;
    TrainConfig train;
    int samples = 10; ///< test-time edge samples T
    int adaptSteps = 30;
};

struct AdaptPoint {
    int n = 0;
    double baseline = 0, curve = 0; ///< balanced accuracy on the target test scenes
};

struct StudyResult {
    std::vector<std::string> envNames;
    int trainEnvs = 0;
    TrainLog logBase, logCurve;
    Evaluation idBase, idCurve, oodBase, oodCurve;
    std::vector<AdaptPoint> adaptation;
    std::vector<Scene> oodScenes; ///< the OOD test scenes (for the scene views)
    size_t trainCount = 0, idCount = 0, oodCount = 0, targetCount = 0;
    std::vector<std::string> notes;
};

using Poll = std::function<void()>;
using Progress = std::function<void(double fraction, const std::string& status)>;

/// The synthetic scene set of spec §2.3 at these settings (train envs A, B; ID test from A and
/// B; OOD test env with flipped cue and faster cars; target domain with sim-to-real noise).
SceneSet makeSyntheticScenes(const StudySettings& s, Rng rng);

/// Runs the experiment on `scenes` (splits as stored in each scene).
StudyResult runStudy(const SceneSet& scenes, const StudySettings& s, Rng rng, const Poll& poll,
                     const Progress& progress);

} // namespace pl::curve
