#include "SpecExitDecoding.h"

#include "tinylm/MlpLm.h"
#include "tinylm/SpeculativeSampling.h"

#include <cmath>
#include <limits>

namespace pl::tinylm {

namespace {

/// The target at positions from .. from + count - 1 of \a seq (one batched call).
MlpOutput targetRows(const MlpLmModel& t, const std::vector<int>& seq, size_t from, int count) {
    std::vector<std::vector<int>> ctx;
    for (int i = 0; i < count; ++i)
        ctx.push_back(mlpContext(t, seq, int(from) + i));
    return mlpForward(t, ctx);
}

int argmaxOf(const Eigen::RowVectorXd& v) {
    Eigen::Index best = 0;
    for (Eigen::Index i = 1; i < v.size(); ++i)
        if (v[i] > v[best])
            best = i;
    return int(best);
}

struct State {
    const MlpLmModel& t;
    const ExitConfig& c;
    Rng& rng;
    std::vector<int> seq;
    size_t promptLen = 0;
    DecodeRun run;
    double smooth = 0;
    bool started = false;

    /// Appends a generated token; true when the run stops (eos or the length cap).
    bool push(int tok, int source, int rejected) {
        seq.push_back(tok);
        run.tokens.push_back(tok);
        run.source.push_back(source);
        run.rejected.push_back(rejected);
        run.smooth.push_back(std::numeric_limits<double>::quiet_NaN());
        return (c.stopAtEos && tok == c.eos) || int(run.tokens.size()) >= c.maxLen;
    }
    /// The target answers greedily after a forced `A` (answer, then its next token).
    void forceAnswer(int firstAnswer) {
        run.exitAt = int(run.tokens.size());
        push(c.answer, kFromExit, 0);
        int tok = firstAnswer;
        for (int i = 0; i < 2; ++i) {
            if (tok < 0) {
                tok = argmaxOf(targetRows(t, seq, seq.size(), 1).logits.row(0));
                run.cost += 1;
                ++run.targetCalls;
            }
            seq.push_back(tok);
            run.tokens.push_back(tok);
            run.source.push_back(kFromExit);
            run.rejected.push_back(0);
            run.smooth.push_back(std::numeric_limits<double>::quiet_NaN());
            if (tok == c.eos)
                break;
            tok = -1;
        }
    }
    /// The confidence of the last token (SpecExit); true when it exits there.
    bool signal(double conf) {
        smooth = started ? c.ewma * conf + (1 - c.ewma) * smooth : conf;
        started = true;
        run.smooth.back() = smooth;
        if (seq.back() == c.boundary && smooth > c.theta) {
            forceAnswer(-1);
            return true;
        }
        return false;
    }
    /// A probe at a boundary: force `A`, read the target's answer probability; true on exit.
    bool probe() {
        std::vector<int> forced = seq;
        forced.push_back(c.answer);
        const Eigen::VectorXd p =
            tempered(targetRows(t, forced, forced.size(), 1).logits.row(0).transpose(), 1.0);
        run.cost += 1;
        ++run.targetCalls;
        ++run.probes;
        Eigen::Index ans = 0;
        p.maxCoeff(&ans);
        if (p[ans] > c.theta) {
            forceAnswer(int(ans));
            return true;
        }
        return false;
    }
};

void decodeAr(State& st, bool probes) {
    for (;;) {
        const Eigen::VectorXd p =
            tempered(targetRows(st.t, st.seq, st.seq.size(), 1).logits.row(0).transpose(), st.c.temperature);
        st.run.cost += 1;
        ++st.run.targetCalls;
        const int tok = sampleFrom(p, st.rng);
        if (st.push(tok, kFromTarget, 0))
            return;
        if (probes && tok == st.c.boundary && st.probe())
            return;
    }
}

void decodeSd(State& st, const DraftModel& d, bool probes, bool exits) {
    const ExitConfig& c = st.c;
    Mat feature = targetRows(st.t, st.seq, st.seq.size() - 1, 1).hidden;
    for (;;) {
        Mat f = feature;
        int tok = st.seq.back();
        const int evals = exits ? c.gamma + 1 : c.gamma;
        std::vector<int> drafts;
        std::vector<Eigen::VectorXd> q, p;
        std::vector<double> conf;
        for (int k = 0; k < evals; ++k) {
            const DraftOutput o = draftForward(d, st.t, f, {tok});
            conf.push_back(o.conf[0]);
            if (k == c.gamma)
                break;
            q.push_back(tempered(o.logits.row(0).transpose(), c.temperature));
            drafts.push_back(sampleFrom(q.back(), st.rng));
            f = o.nextFeature;
            tok = drafts.back();
        }
        st.run.cost += evals * c.costDraft;
        st.run.draftSteps += evals;
        if (exits && st.seq.size() > st.promptLen && st.signal(conf[0]))
            return;
        std::vector<int> ext = st.seq;
        ext.insert(ext.end(), drafts.begin(), drafts.end());
        const MlpOutput out = targetRows(st.t, ext, st.seq.size(), c.gamma + 1);
        for (int i = 0; i <= c.gamma; ++i)
            p.push_back(tempered(out.logits.row(i).transpose(), c.temperature));
        st.run.cost += 1 + c.kappa * c.gamma;
        ++st.run.targetCalls;
        const SpecStepResult r = verifyDrafts(drafts, q, p, st.rng);
        st.run.acceptLens.push_back(r.accepted);
        feature = out.hidden.row(r.accepted);
        for (int j = 0; j < int(r.tokens.size()); ++j) {
            const bool fromDraft = j < r.accepted;
            const int x = r.tokens[size_t(j)];
            if (st.push(x, fromDraft ? kFromDraft : kFromTarget, fromDraft ? 0 : c.gamma - r.accepted))
                return;
            if (exits && fromDraft && st.signal(conf[size_t(j + 1)]))
                return;
            if (probes && x == c.boundary && st.probe())
                return;
        }
    }
}

} // namespace

DecodeRun decodeWithExit(const MlpLmModel& target, const DraftModel* draft, const std::vector<int>& prompt,
                         ExitMethod method, const ExitConfig& c, Rng& rng) {
    State st{target, c, rng, prompt, prompt.size(), {}, 0, false};
    if (c.maxLen > 0) {
        if (method == ExitMethod::Ar || method == ExitMethod::Probe || !draft)
            decodeAr(st, method == ExitMethod::Probe);
        else
            decodeSd(st, *draft, method == ExitMethod::SdProbe, method == ExitMethod::SpecExit);
    }
    const bool ended = !st.run.tokens.empty() && st.run.tokens.back() == c.eos;
    if (c.forceAtCap && st.run.exitAt < 0 && !ended) {
        // Budget forcing: finish the current step (greedy, at most 8 tokens) and force the answer.
        for (int i = 0; i < 8 && st.seq.back() != c.boundary; ++i) {
            const int tok = argmaxOf(targetRows(target, st.seq, st.seq.size(), 1).logits.row(0));
            st.run.cost += 1;
            ++st.run.targetCalls;
            st.push(tok, kFromTarget, 0);
        }
        st.forceAnswer(-1);
        st.run.exitAt = -1; // a budget cut, not an exit
    }
    if (method != ExitMethod::SpecExit)
        st.run.smooth.clear();
    else
        for (size_t i = 0; i < st.run.smooth.size(); ++i)
            if (std::isnan(st.run.smooth[i]))
                st.run.smooth[i] = i ? st.run.smooth[i - 1] : 0.0;
    return st.run;
}

SignalTrace signalsAlong(const MlpLmModel& target, const DraftModel& draft, const std::vector<int>& seq) {
    SignalTrace s;
    if (seq.empty())
        return s;
    const MlpOutput h = targetRows(target, seq, 0, int(seq.size()));
    const DraftOutput o = draftForward(draft, target, h.hidden, seq);
    for (Eigen::Index i = 0; i < o.conf.size(); ++i) {
        s.conf.push_back(o.conf[i]);
        s.prog.push_back(o.prog[i]);
        s.rem.push_back(o.rem[i]);
    }
    return s;
}

} // namespace pl::tinylm
