// TorusGraphEngine::params(): the panel's parameter list (keys, ranges, defaults, units, help).
#include "TorusGraphEngine.h"
#include "TorusGraphKeys.h"

namespace pl::torusgraph {

namespace {
namespace P = torusgraph::keys::param;
} // namespace

namespace {

void add(std::vector<ParamSpec>& s, ParamSpec p, const char* group) {
    p.group = group;
    s.push_back(std::move(p));
}

/// Synthetic data and the input interpretation.
void addDataParams(std::vector<ParamSpec>& s) {
    const char* D = "Data";
    add(s, ParamSpec::integer(P::kD, "Nodes d", 2, 64, 16, "Phase variables of the synthetic torus graph."),
        D);
    add(s,
        ParamSpec::integer(P::kN, "Samples n", 100, 100000, 2000,
                           "Gibbs samples of the synthetic torus graph."),
        D);
    add(s,
        ParamSpec::choice(P::kGraph, "Planted graph", {"erdos_renyi", "ring", "chain", "regions"},
                          "erdos_renyi",
                          "Edge pattern of the synthetic torus graph (regions: 4-block model)."),
        D);
    add(s,
        ParamSpec::real(P::kEdgeProb, "Edge probability p", 0.01, 1, 0.15,
                        "Erdős–Rényi p (regions: within-region 3p, between p/6)."),
        D);
    add(s,
        ParamSpec::real(P::kCouplingMin, "Min coupling ‖φ_e‖", 0, 5, 0.2,
                        "Edge coupling norms are drawn uniformly in [min, max]."),
        D);
    add(s,
        ParamSpec::real(P::kCouplingMax, "Max coupling ‖φ_e‖", 0.01, 5, 1.5,
                        "Upper end of the coupling norms."),
        D);
    add(s,
        ParamSpec::boolean(P::kDifferenceOnly, "Phase-difference couplings only", false,
                           "Plant only cos/sin(x_j − x_k) terms (the phase-sum terms stay zero)."),
        D);
    add(s,
        ParamSpec::integer(P::kBurnIn, "Gibbs burn-in", 0, 100000, 500, "Sweeps discarded before sampling.",
                           "sweeps"),
        D);
    add(s,
        ParamSpec::integer(P::kThin, "Gibbs thinning", 1, 100, 5, "Sweeps between kept samples.", "sweeps"),
        D);
    add(s,
        ParamSpec::choice(P::kInputKind, "Input file holds", {"phase", "signal"}, "phase",
                          "phase: radians (samples × channels); signal: raw real signals, turned into phases "
                          "by band-pass filtering and the analytic signal."),
        D);
    add(s,
        ParamSpec::real(P::kSamplingRate, "Sampling rate", 1, 1e6, 250,
                        "Of the input signals (input_kind = signal).", "Hz", true),
        D);
    add(s,
        ParamSpec::real(P::kBandLow, "Band low edge", 0.01, 5e5, 4,
                        "Band-pass lower edge (input_kind = signal).", "Hz", true),
        D);
    add(s,
        ParamSpec::real(P::kBandHigh, "Band high edge", 0.02, 5e5, 8,
                        "Band-pass upper edge (input_kind = signal).", "Hz", true),
        D);
}

/// Estimation: closed form, stochastic score matching, tests.
void addFitParams(std::vector<ParamSpec>& s) {
    const char* F = "Fit";
    add(s,
        ParamSpec::choice(P::kMethod, "Reported estimate", {"closed_form", "stochastic"}, "closed_form",
                          "Which estimate fills coupling_strength, phi and eta_single: the closed form "
                          "(Γ + λI)⁻¹H or stochastic score matching."),
        F);
    add(s,
        ParamSpec::real(P::kLambda, "L2 penalty λ", 0, 10, 0,
                        "Ridge penalty ½λ‖η‖² of both estimators (needed when n is small)."),
        F);
    add(s,
        ParamSpec::real(P::kAlpha, "Edge test level α", 1e-6, 0.5, 0.05,
                        "Wald-test level for significant edges.", "", true),
        F);
    add(s,
        ParamSpec::integer(P::kSsmIterations, "SSM iterations", 10, 200000, 3000,
                           "Adam steps of stochastic SM."),
        F);
    add(s,
        ParamSpec::integer(P::kBatch, "SSM minibatch b", 1, 4096, 64,
                           "Samples per SSM step (with replacement)."),
        F);
    add(s,
        ParamSpec::real(P::kLearningRate, "SSM step size", 1e-5, 1, 0.03, "Adam step at the first iteration.",
                        "", true),
        F);
    add(s,
        ParamSpec::real(P::kLrFinalRatio, "Final step ratio", 1e-4, 1, 0.003,
                        "The step decays geometrically to this fraction of the first step.", "", true),
        F);
    add(s,
        ParamSpec::real(P::kTailAverage, "Tail averaging", 0, 0.9, 0.2,
                        "Fraction of the last SSM iterates averaged into the estimate (0 = last iterate)."),
        F);
    add(s,
        ParamSpec::real(P::kSsmTolerance, "Early-stop tolerance", 0, 0.1, 0,
                        "Stop when the EMA of the loss improves by less than this (relative) over 200 steps; "
                        "0 = run all iterations."),
        F);
}

/// Views, TG-HMM, AR-TG and the scaling study.
void addStudyParams(std::vector<ParamSpec>& s) {
    const char* V = "Views";
    add(s,
        ParamSpec::integer(P::kPairI, "Torus pair: node i", 0, 64, 0,
                           "First node of the 3D torus view (1-based; 0 = the most strongly coupled pair)."),
        V);
    add(s,
        ParamSpec::integer(P::kPairJ, "Torus pair: node j", 0, 64, 0,
                           "Second node of the 3D torus view (1-based; 0 = the most strongly coupled pair)."),
        V);
    const char* H = "TG-HMM";
    add(s, ParamSpec::integer(P::kHmmStates, "HMM states K", 0, 4, 2, "Hidden coupling states (0 = no HMM)."),
        H);
    add(s,
        ParamSpec::integer(P::kHmmD, "HMM nodes", 2, 16, 6, "Nodes of the synthetic switching torus graph."),
        H);
    add(s,
        ParamSpec::integer(P::kHmmT, "HMM time points", 200, 50000, 3000, "Length of the switching series."),
        H);
    add(s,
        ParamSpec::real(P::kHmmDwell, "Mean dwell", 5, 5000, 200, "Mean state duration (geometric).",
                        "samples", true),
        H);
    add(s, ParamSpec::integer(P::kHmmEmIterations, "EM rounds", 1, 100, 12, "EM iterations."), H);
    add(s,
        ParamSpec::integer(P::kHmmMstepIterations, "M-step SSM steps", 10, 10000, 300,
                           "Weighted SSM steps per state and EM round."),
        H);
    const char* A = "AR-TG";
    add(s, ParamSpec::integer(P::kArD, "AR channels", 2, 8, 3, "Channels of the synthetic AR torus graph."),
        A);
    add(s,
        ParamSpec::integer(P::kArT, "AR training length T", 64, 65536, 2048,
                           "Training time points (a held-out T/4 follows)."),
        A);
    add(s,
        ParamSpec::integer(P::kArLag, "Lag L", 1, 10, 1, "Lags in the AR features and of the planted drive."),
        A);
    add(s,
        ParamSpec::real(P::kArCoupling, "Planted drive 1→2", 0, 5, 0.8,
                        "Concentration with which channel 1 pulls channel 2 at lag L."),
        A);
    add(s,
        ParamSpec::integer(P::kArShifts, "Shift-null draws", 0, 200, 19,
                           "Circular shifts of the source per directed pair for the null (0 = none)."),
        A);
    add(s,
        ParamSpec::integer(
            P::kArClaimSeeds, "Claim seeds", 0, 20, 5,
            "Seeds of a unidirectional pair for the direction claim (0 = judge this run only)."),
        A);
    const char* S = "Scaling";
    add(s,
        ParamSpec::choice(P::kScaling, "Scaling study", {"timed", "off"}, "timed",
                          "timed: measure wall time per closed-form build/solve and per SSM iteration over d "
                          "(these numbers vary run to run); off: skip."),
        S);
    add(s,
        ParamSpec::integer(P::kScalingMaxDCf, "Largest d (closed form)", 8, 48, 20,
                           "Closed-form sweep d = 4 … this."),
        S);
    add(s,
        ParamSpec::integer(P::kScalingMaxDSsm, "Largest d (SSM)", 32, 2048, 256,
                           "SSM per-iteration sweep d = 16 … this (doubling)."),
        S);
}

} // namespace

std::vector<ParamSpec> TorusGraphEngine::params() const {
    std::vector<ParamSpec> s;
    addDataParams(s);
    addFitParams(s);
    addStudyParams(s);
    return s;
}

} // namespace pl::torusgraph
