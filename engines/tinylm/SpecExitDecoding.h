#pragma once
/// The decoding methods of specexit-decoding (specs-004 §17) over an mlp_lm target and the
/// feature-level draft (SpecExitDraft.h): autoregressive (AR), speculative decoding (SD: gamma
/// drafts fed forward on the draft's own feature, one verification of gamma + 1 positions, accept
/// min(1, p/q), residual, bonus; temperature 0: accept iff argmax), probe exit (AR; at every
/// boundary after the prompt "A" is forced and the target's answer probability is the
/// confidence), SD + probe, and SpecExit (SD whose draft pass also yields confidence; its EWMA
/// above theta at a boundary appends "A" and the target answers greedily). Cost model: a target
/// call 1, a verification 1 + kappa gamma, a draft step cost_draft. Pure functions; randomness
/// only from the Rng passed in.
#include "core/Rng.h"
#include "tinylm/SpecExitDraft.h"
#include "tinylm/TinyModel.h"

#include <vector>

namespace pl::tinylm {

enum class ExitMethod { Ar, Sd, Probe, SdProbe, SpecExit };

struct ExitConfig {
    int gamma = 4;
    double temperature = 0;
    double theta = 0.9, ewma = 0.5; ///< exit threshold and EWMA weight of the newest confidence
    int maxLen = 64;                ///< generated tokens at most (before the forced answer)
    bool stopAtEos = true;
    bool forceAtCap = false; ///< at maxLen without `<eos>`, append `A` and let the target answer
    double kappa = 0.1, costDraft = 0.05;
    int boundary = 0, answer = 0, eos = 0; ///< token ids (`;`, `A`, `<eos>`)
};

/// Token sources in DecodeRun::source.
inline constexpr int kFromTarget = 0, kFromDraft = 1, kFromExit = 2;

struct DecodeRun {
    std::vector<int> tokens;    ///< generated (after the prompt), including a forced `A ans`
    std::vector<int> source;    ///< per token: kFromTarget | kFromDraft | kFromExit
    std::vector<int> rejected;  ///< per token: drafts rejected in the step that produced it
    std::vector<double> smooth; ///< per token: EWMA of the confidence (SpecExit; else empty)
    std::vector<int> acceptLens;
    int exitAt = -1; ///< index of the forced `A` in tokens, -1 without an exit
    int targetCalls = 0, draftSteps = 0, probes = 0;
    double cost = 0; ///< modelled latency (target-call units)
};

/// Decodes one prompt with \a method (\a draft may be null for Ar and Probe).
DecodeRun decodeWithExit(const MlpLmModel& target, const DraftModel* draft, const std::vector<int>& prompt,
                         ExitMethod method, const ExitConfig& c, Rng& rng);

/// The target's hidden state before each of positions 0..seq.size()-1 and the draft's signals at
/// every position (teacher-forced, true features): conf, prog, rem per token of \a seq.
struct SignalTrace {
    std::vector<double> conf, prog, rem;
};
SignalTrace signalsAlong(const MlpLmModel& target, const DraftModel& draft, const std::vector<int>& seq);

} // namespace pl::tinylm
