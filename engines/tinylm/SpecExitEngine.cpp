#include "SpecExitEngine.h"

#include "SpecExitKeys.h"
#include "core/Errors.h"
#include "tinylm/MlpLm.h"
#include "tinylm/ReasoningTraces.h"
#include "tinylm/SpecExitRuns.h"
#include "tinylm/TinyLmInputs.h"

#include <algorithm>

namespace pl::tinylm {

namespace P = specexit::keys::param;
namespace T = traces;

namespace {

/// The truth of a user prompt `Q a1 .. an ;` for the built-in target, else -1.
int truthOf(const std::vector<int>& p, int modulus) {
    if (p.size() < 3 || p.front() != T::kQ || p.back() != T::kSemi)
        return -1;
    int s = 0;
    for (size_t i = 1; i + 1 < p.size(); ++i) {
        if (p[i] >= modulus)
            return -1;
        s = (s + p[i]) % modulus;
    }
    return s;
}

/// Draft examples along \a seq (teacher-forced target features) from position \a from on.
void examplesAlong(const MlpLmModel& m, const std::vector<int>& seq, int from, int determinedAt,
                   std::vector<DraftExample>& out) {
    std::vector<std::vector<int>> ctx;
    for (size_t j = 0; j < seq.size(); ++j)
        ctx.push_back(mlpContext(m, seq, int(j)));
    const Mat h = mlpForward(m, ctx).hidden;
    const int n = int(seq.size());
    for (int j = std::max(0, from); j + 1 < n; ++j) {
        DraftExample e;
        e.feature = h.row(j);
        e.nextFeature = h.row(j + 1);
        e.token = seq[size_t(j)];
        e.next = seq[size_t(j + 1)];
        e.conf = determinedAt >= 0 && j >= determinedAt ? 1.0 : 0.0;
        e.prog = double(j) / double(n - 1);
        e.rem = double(n - 1 - j);
        out.push_back(std::move(e));
    }
}

DraftTrainConfig draftConfig(const ParamSet& p) {
    DraftTrainConfig dc;
    dc.hidden = int(p.getInt(P::kDraftHidden));
    dc.epochs = int(p.getInt(P::kDraftEpochs));
    return dc;
}

/// Stage "setup" + "train" for the built-in target: traces, target, draft, test problems.
void setupBuiltin(const ParamSet& p, const PromptsInput* pi, const Rng& root, RunContext& ctx, SpecSetup& u,
                  std::vector<DraftExample>* keepExamples = nullptr) {
    const int n = int(p.getInt(P::kNumbers)), mod = int(p.getInt(P::kModulus));
    const double pOver = p.getDouble(P::kPOver);
    const std::vector<T::Trace> train = T::makeTraces(int(p.getInt(P::kTraces)), n, pOver,
                                                      p.getDouble(P::kCorrupt), root.fork("traces"), mod);
    std::vector<std::vector<int>> seqs;
    for (const T::Trace& t : train)
        seqs.push_back(t.tokens);
    MlpTrainConfig tc;
    tc.hidden1 = tc.hidden2 = int(p.getInt(P::kTargetHidden));
    tc.window = 2 * n + 6;
    tc.embed = 8;
    tc.padId = T::kPad;
    tc.epochs = int(p.getInt(P::kEpochs));
    tc.batch = 256;
    tc.lr = 1e-2;
    std::vector<double> loss;
    u.target = trainMlpLm(seqs, T::kVocab, tc, root.fork("target"), &loss, [&](double f) {
        ctx.throwIfCancelled();
        ctx.progress(0.4 * f, "training the target");
    });
    u.targetLoss = loss.empty() ? 0.0 : loss.back();
    std::vector<DraftExample> ex;
    for (const T::Trace& t : train) {
        examplesAlong(u.target, t.tokens, 0, t.determinedAt, ex);
        ctx.throwIfCancelled();
    }
    loss.clear();
    u.draft = trainDraft(u.target, ex, draftConfig(p), root.fork("draft"), &loss, [&](double f) {
        ctx.throwIfCancelled();
        ctx.progress(0.4 + 0.2 * f, "training the draft");
    });
    u.draftLoss = loss.empty() ? 0.0 : loss.back();
    if (keepExamples)
        *keepExamples = std::move(ex);
    u.numbers = n;
    if (pi) {
        checkPromptIds(pi->prompts, T::kVocab);
        for (const auto& s : pi->prompts.seqs)
            u.problems.push_back({s, truthOf(s, mod)});
        if (!u.problems.empty())
            u.lawPrompt = u.problems.front().prompt;
        return;
    }
    for (const T::Trace& t :
         T::makeTraces(int(p.getInt(P::kProblems)), n, pOver, 0.0, root.fork("problems"), mod))
        u.problems.push_back(
            {std::vector<int>(t.tokens.begin(), t.tokens.begin() + t.promptLength), t.answer});
    u.lawPrompt = u.problems.front().prompt;
    u.lawPrompt.resize(u.lawPrompt.size() - 2); // the first sampled token is a free operand
}

/// A user mlp_lm: its prompts, and a draft distilled from its own samples (temperature 1).
void setupUser(const ParamSet& p, const ModelInput& mi, const PromptsInput* pi, const Rng& root,
               RunContext& ctx, SpecSetup& u) {
    if (mi.model.arch != "mlp_lm")
        throw InputError(mi.path, "specexit-decoding needs an mlp_lm target (__metadata__ arch), not " +
                                      mi.model.arch);
    if (!pi)
        throw UsageError("a user target needs a prompt file (token ids, one prompt per line)");
    u.target = mi.model.mlp;
    checkPromptIds(pi->prompts, u.target.vocab());
    u.builtin = false;
    for (const auto& s : pi->prompts.seqs)
        u.problems.push_back({s, -1});
    u.lawPrompt = u.problems.front().prompt;
    ExitConfig c;
    c.temperature = 1;
    c.stopAtEos = false;
    c.boundary = c.answer = c.eos = -1;
    c.maxLen = int(p.getInt(P::kGenLen));
    Rng rng = root.fork("distill");
    std::vector<DraftExample> ex;
    const int count = int(p.getInt(P::kDistillSamples));
    for (int i = 0; i < count; ++i) {
        std::vector<int> seq = u.problems[size_t(i) % u.problems.size()].prompt;
        const DecodeRun r = decodeWithExit(u.target, nullptr, seq, ExitMethod::Ar, c, rng);
        const int from = int(seq.size()) - 1;
        seq.insert(seq.end(), r.tokens.begin(), r.tokens.end());
        examplesAlong(u.target, seq, from, -1, ex);
        ctx.throwIfCancelled();
        ctx.progress(0.3 * double(i + 1) / double(count), "sampling the target");
    }
    DraftTrainConfig dc = draftConfig(p);
    dc.wConf = 0; // no exit labels without traces
    std::vector<double> loss;
    u.draft = trainDraft(u.target, ex, dc, root.fork("draft"), &loss, [&](double f) {
        ctx.throwIfCancelled();
        ctx.progress(0.3 + 0.3 * f, "distilling the draft");
    });
    u.draftLoss = loss.empty() ? 0.0 : loss.back();
}

} // namespace

SpecSetup builtinSpecSetup(const ParamSet& p, RunContext& ctx, std::vector<DraftExample>* draftExamples) {
    SpecSetup u;
    setupBuiltin(p, nullptr, Rng(ctx.seed()), ctx, u, draftExamples);
    return u;
}

std::vector<ParamSpec> SpecExitEngine::params() const {
    auto g = [](ParamSpec s, const char* grp) {
        s.group = grp;
        return s;
    };
    return {
        g(ParamSpec::integer(P::kNumbers, "numbers n", 3, 10, 3, "operands per problem"), "task"),
        g(ParamSpec::integer(
              P::kModulus, "modulus", 2, 100, 10,
              "operands and running sums mod this (the spec's 100 is too hard for a tiny target "
              "trained in seconds)"),
          "task"),
        g(ParamSpec::real(P::kPOver, "overthinking p_over", 0.1, 0.9, 0.8,
                          "probability of one more verification loop (m ~ Geometric)"),
          "task"),
        g(ParamSpec::real(P::kCorrupt, "corrupted steps", 0, 0.2, 0.02,
                          "share of wrong steps in training traces"),
          "task"),
        g(ParamSpec::integer(P::kTraces, "training traces", 100, 50000, 1500,
                             "traces the target is trained on"),
          "training"),
        g(ParamSpec::integer(P::kTargetHidden, "target hidden", 16, 512, 64, "width of both target layers"),
          "training"),
        g(ParamSpec::integer(P::kDraftHidden, "draft hidden", 8, 128, 32, "width of the draft's layer"),
          "training"),
        g(ParamSpec::integer(P::kEpochs, "target epochs", 1, 100, 6, "passes over the traces"), "training"),
        g(ParamSpec::integer(P::kDraftEpochs, "draft epochs", 1, 100, 3, "passes over the draft examples"),
          "training"),
        g(ParamSpec::integer(P::kProblems, "test problems", 5, 1000, 60, "problems decoded by every method"),
          "decoding"),
        g(ParamSpec::integer(P::kGamma, "gamma", 1, 8, 4, "draft tokens per verification"), "decoding"),
        g(ParamSpec::real(P::kTemperature, "temperature", 0, 1.5, 0, "0: greedy (accept iff argmax)"),
          "decoding"),
        g(ParamSpec::choice(P::kExit, "exit", {"on", "off"}, "on",
                            "early exit of probe and SpecExit methods"),
          "exit"),
        g(ParamSpec::real(P::kThetaExit, "theta_exit", 0.5, 0.99, 0.9, "exit when the signal exceeds this"),
          "exit"),
        g(ParamSpec::real(P::kEwma, "EWMA eta", 0.1, 0.9, 0.5, "weight of the newest confidence"), "exit"),
        g(ParamSpec::real(P::kKappa, "kappa", 0, 1, 0.1, "extra cost of each verified draft position",
                          "target calls"),
          "cost model"),
        g(ParamSpec::real(P::kCostDraft, "cost_draft", 0, 1, 0.05, "cost of one draft step", "target calls"),
          "cost model"),
        g(ParamSpec::integer(P::kGenLen, "generation cap", 8, 512, 64,
                             "tokens at most (then `A` is forced); greedy labels have exactly this many",
                             "tokens"),
          "decoding"),
        g(ParamSpec::integer(P::kSampleRuns, "law samples", 0, 50000, 2000,
                             "runs of AR and SD (exit off) for the chi-square law test"),
          "exactness"),
        g(ParamSpec::integer(P::kSampleTokens, "sampled tokens", 1, 3, 2, "first tokens compared", "tokens"),
          "exactness"),
        g(ParamSpec::boolean(P::kSweep, "theta sweep", true, "the Pareto sweep over theta_exit"), "exit"),
        g(ParamSpec::integer(P::kDistillSamples, "distill samples", 10, 5000, 200,
                             "user target: samples the draft is distilled from"),
          "training"),
    };
}

std::shared_ptr<const LoadedInput> SpecExitEngine::load(const std::string& path) const {
    return loadTinyLmInput(path);
}

ResultDocument SpecExitEngine::run(const InputList& inputs, const ParamSet& p, RunContext& ctx) const {
    ResultDocument doc;
    const Rng root(ctx.seed());
    const ModelInput* mi = findModel(inputs);
    const PromptsInput* pi = findPrompts(inputs);
    SpecSetup u;
    if (mi)
        setupUser(p, *mi, pi, root, ctx, u);
    else
        setupBuiltin(p, pi, root, ctx, u);
    if (u.problems.empty())
        throw UsageError("no prompts to decode");
    if (mi)
        doc.notes.push_back("target from " + mi->path + "; draft distilled from its samples; exit off");
    if (pi)
        doc.notes.push_back("prompts from " + pi->path);
    runSpecExit(u, p, root, ctx, doc);
    ctx.progress(1.0, "done");
    return doc;
}

} // namespace pl::tinylm
