#pragma once
/// Parameters of the ftrl-potential-games engine: the published ParamSpec list and the parsed,
/// typed settings of one run. No Qt; pure functions.

#include "FictitiousPlay.h"
#include "FtrlDynamics.h"
#include "core/ParamSpec.h"

#include <string>
#include <vector>

namespace pl::games {

/// Built-in game families (the `game` parameter).
enum class FtrlGameFamily { SnakeLinear, SnakeGeometric, RandomPotential, RandomIdentical };

struct FtrlEngineSettings {
    FtrlDynamicsKind dynamics = FtrlDynamicsKind::Entropic;
    std::string dynamicsName = "ftrl_entropic";
    FtrlUpdate update = FtrlUpdate::Simultaneous;
    FtrlSchedule schedule = FtrlSchedule::Constant;
    double eta = 3.0;
    FtrlGameFamily family = FtrlGameFamily::SnakeLinear;
    std::string familyName = "snake_linear";
    int n = 4;
    double ratio = 2.0;
    int64_t maxSteps = 1000000;
    double epsilon = 0.01;
    double tau = 0.01;
    int nMaxSweep = 7;
    int nMaxSweepFtrl = 4;
    TieBreak tieBreak = TieBreak::Lowest;
    bool startPure = true;
};

/// Default learning rate of the panel (the "paper defaults" preset).
inline constexpr double kFtrlDefaultEta = 3.0;

/// The engine's parameter list (keys are part of the CLI contract).
std::vector<ParamSpec> ftrlEngineParams();

/// Reads a validated ParamSet. Throws pl::UsageError for unknown choices.
FtrlEngineSettings readFtrlEngineSettings(const ParamSet& params);

/// FtrlConfig of the main run (recording on; seed for random tie-breaking).
FtrlConfig mainFtrlConfig(const FtrlEngineSettings& s, uint64_t seed);

} // namespace pl::games
