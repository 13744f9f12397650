#include "InsLenToy.h"

#include "nn/Parameter.h"
#include "nn/Tape.h"

#include <algorithm>
#include <cmath>

namespace pl::hiddenstate {

namespace {

constexpr int kInstr = 4;     // instruction tokens
constexpr int kGroup = 5;     // objects per co-occurrence group
constexpr int kMaxAnswer = 7; // objects named at most (then EOS)

struct Scene {
    std::vector<int> present, listed; ///< present: has patches; listed: the training caption
    Eigen::MatrixXd patches;          ///< P x d patch features
};

Scene sampleScene(const ToyMultimodalConfig& c, const Eigen::MatrixXd& emb, Rng& rng, bool train) {
    Scene s;
    const int groups = std::max(1, c.objects / kGroup);
    const int g = int(rng.uniformInt(uint64_t(groups)));
    const int n = 2 + int(rng.uniformInt(3));
    std::vector<int> objs;
    while (int(objs.size()) < n) {
        const int o = rng.uniform() < 0.85 ? std::min(c.objects - 1, g * kGroup + int(rng.uniformInt(kGroup)))
                                           : int(rng.uniformInt(uint64_t(c.objects)));
        if (std::find(objs.begin(), objs.end(), o) == objs.end())
            objs.push_back(o);
    }
    std::sort(objs.begin(), objs.end());
    s.listed = objs;
    for (int o : objs)
        if (!(train && rng.uniform() < 0.2))
            s.present.push_back(o); // occluded in training: listed without patches
    s.patches = 0.6 * nn::normalMatrix(c.patches, c.dim, 1.0, rng);
    int slot = 0;
    for (int o : s.present)
        for (int r = 0; r < 2 && slot < c.patches; ++r, ++slot)
            s.patches.row(slot) += emb.row(o);
    if (rng.uniform() < 0.4 && slot < c.patches) { // a misleading patch of an absent group object
        const int o = std::min(c.objects - 1, g * kGroup + int(rng.uniformInt(kGroup)));
        if (std::find(objs.begin(), objs.end(), o) == objs.end())
            s.patches.row(slot++) += 0.8 * emb.row(o);
    }
    return s;
}

struct Model {
    nn::Parameter img, tok, pos, head;
    std::vector<nn::Parameter> wq, wk, wv, wo, w1, w2;
    std::vector<nn::Parameter*> all() {
        std::vector<nn::Parameter*> p{&img, &tok, &pos, &head};
        for (auto* v : {&wq, &wk, &wv, &wo, &w1, &w2})
            for (auto& q : *v)
                p.push_back(&q);
        return p;
    }
};

Model makeModel(const ToyMultimodalConfig& c, int vocab, int maxLen, Rng& rng) {
    Model m;
    m.img = nn::Parameter("img", nn::glorotUniform(c.dim, c.dim, rng));
    m.tok = nn::Parameter("tok", nn::normalMatrix(vocab, c.dim, 0.5, rng));
    m.pos = nn::Parameter("pos", nn::normalMatrix(maxLen, c.dim, 0.1, rng));
    m.head = nn::Parameter("head", nn::normalMatrix(vocab, c.dim, 0.2, rng));
    for (int l = 0; l < c.layers; ++l) {
        const std::string s = std::to_string(l);
        m.wq.emplace_back("q" + s, nn::glorotUniform(c.dim, c.dim, rng));
        m.wk.emplace_back("k" + s, nn::glorotUniform(c.dim, c.dim, rng));
        m.wv.emplace_back("v" + s, nn::glorotUniform(c.dim, c.dim, rng));
        m.wo.emplace_back("o" + s, 0.5 * nn::glorotUniform(c.dim, c.dim, rng));
        m.w1.emplace_back("a" + s, nn::glorotUniform(c.dim, 2 * c.dim, rng));
        m.w2.emplace_back("b" + s, 0.5 * nn::glorotUniform(2 * c.dim, c.dim, rng));
    }
    return m;
}

struct Forward {
    std::vector<nn::Var> states; ///< per layer, T x d
    std::vector<Eigen::MatrixXd> attention;
};

/// The residual stream of one sequence [patches][text ids].
Forward forward(nn::Tape& t, Model& m, const Eigen::MatrixXd& patches, const std::vector<int>& text,
                bool train) {
    auto P = [&](nn::Parameter& p) { return train ? t.param(p) : t.constant(p.value); };
    const int Pn = int(patches.rows()), T = Pn + int(text.size()), d = int(patches.cols());
    std::vector<int> pIdx(static_cast<size_t>(Pn)), tIdx(text.size()), all(static_cast<size_t>(T));
    for (int i = 0; i < T; ++i)
        (i < Pn ? pIdx[size_t(i)] : tIdx[size_t(i - Pn)]) = all[size_t(i)] = i;
    nn::Var x = nn::add(nn::scatterSumRows(nn::matmul(t.constant(patches), P(m.img)), pIdx, T),
                        nn::scatterSumRows(nn::gatherRows(P(m.tok), text), tIdx, T));
    x = nn::add(x, nn::gatherRows(P(m.pos), all));
    Eigen::MatrixXd mask = Eigen::MatrixXd::Zero(T, T);
    for (int i = 0; i < T; ++i)
        for (int j = i + 1; j < T; ++j)
            mask(i, j) = -1e9;
    Forward f;
    f.states.push_back(x);
    for (size_t l = 0; l < m.wq.size(); ++l) {
        const nn::Var q = nn::matmul(x, P(m.wq[l])), k = nn::matmul(x, P(m.wk[l])),
                      v = nn::matmul(x, P(m.wv[l]));
        const nn::Var a = nn::softmaxRows(nn::add(
            nn::scale(nn::matmul(q, nn::transpose(k)), 1.0 / std::sqrt(double(d))), t.constant(mask)));
        x = nn::add(x, nn::matmul(nn::matmul(a, v), P(m.wo[l])));
        x = nn::add(x, nn::matmul(nn::relu(nn::matmul(x, P(m.w1[l]))), P(m.w2[l])));
        f.states.push_back(x);
        f.attention.push_back(a.value());
    }
    return f;
}

/// The instruction block, then the answer's opening token ("there are"), id objects + kInstr + 1.
std::vector<int> prompt(int objects) {
    std::vector<int> ids;
    for (int i = 0; i < kInstr; ++i)
        ids.push_back(objects + i);
    ids.push_back(objects + kInstr + 1);
    return ids;
}

/// Greedy caption: objects in increasing id order (the training order) until EOS.
std::vector<int> generate(Model& m, const Eigen::MatrixXd& patches, int objects) {
    std::vector<int> text = prompt(objects);
    const int eos = objects + kInstr;
    for (int step = 0; step < kMaxAnswer; ++step) {
        nn::Tape t;
        const Forward f = forward(t, m, patches, text, false);
        const Eigen::RowVectorXd h = f.states.back().value().row(f.states.back().rows() - 1);
        Eigen::RowVectorXd z = h * m.head.value.transpose();
        const int last = step == 0 ? -1 : text.back();
        for (int v = 0; v < z.size(); ++v)
            if ((v < objects && v <= last) || (v >= objects && v != eos))
                z(v) = -1e300; // only increasing object ids or EOS
        Eigen::Index best = 0;
        z.maxCoeff(&best);
        if (int(best) == eos)
            break;
        text.push_back(int(best));
    }
    text.push_back(eos);
    return text;
}

} // namespace

ToyMultimodalRun runToyMultimodal(const ToyMultimodalConfig& c, const Rng& root,
                                  const std::function<void(double)>& poll) {
    const int vocab = c.objects + kInstr + 2, maxLen = c.patches + kInstr + kMaxAnswer + 2;
    Rng embRng = root.fork("embeddings"), sceneRng = root.fork("scenes"), initRng = root.fork("init");
    const Eigen::MatrixXd emb = 1.5 * nn::normalMatrix(c.objects, c.dim, 1.0, embRng);
    Model m = makeModel(c, vocab, maxLen, initRng);
    nn::Adam adam(c.lr);
    adam.setClipNorm(1.0);
    ToyMultimodalRun run;
    double lossSum = 0;
    for (int step = 0; step < c.steps; ++step) {
        nn::Tape t;
        nn::Var total;
        for (int b = 0; b < c.batch; ++b) {
            const Scene s = sampleScene(c, emb, sceneRng, true);
            std::vector<int> text = prompt(c.objects);
            text.insert(text.end(), s.listed.begin(), s.listed.end());
            text.push_back(c.objects + kInstr);
            const Forward f = forward(t, m, s.patches, text, true);
            std::vector<int> rows, targets;
            for (size_t i = kInstr; i + 1 < text.size(); ++i) {
                rows.push_back(c.patches + int(i));
                targets.push_back(text[i + 1]);
            }
            const nn::Var logits =
                nn::matmul(nn::gatherRows(f.states.back(), rows), nn::transpose(t.param(m.head)));
            const nn::Var l = nn::mean(nn::softmaxCrossEntropy(logits, targets));
            total = b == 0 ? l : nn::add(total, l);
        }
        total = nn::scale(total, 1.0 / c.batch);
        for (nn::Parameter* p : m.all())
            p->zeroGrad();
        t.backward(total);
        adam.step(m.all());
        lossSum += total.scalar();
        if ((step + 1) % 10 == 0) {
            run.loss.push_back(lossSum / 10);
            lossSum = 0;
        }
        if (poll)
            poll(0.8 * double(step + 1) / c.steps);
    }
    Rng testRng = root.fork("test");
    for (int n = 0; n < c.captions; ++n) {
        const Scene s = sampleScene(c, emb, testRng, false);
        const std::vector<int> text = generate(m, s.patches, c.objects);
        nn::Tape t;
        const Forward f = forward(t, m, s.patches, text, false);
        InsLenCaption cap;
        cap.source = "toy caption " + std::to_string(n + 1);
        const int A = int(text.size()) - kInstr;
        for (const nn::Var& x : f.states) {
            cap.image.push_back(x.value().topRows(c.patches));
            cap.instr.push_back(x.value().middleRows(c.patches, kInstr));
            cap.answer.push_back(x.value().bottomRows(A));
        }
        cap.answerIds.assign(text.begin() + kInstr, text.end());
        for (int a = 0; a < A; ++a) { // SVAR: attention mass of the predicting position on the patches
            const int q = c.patches + kInstr + a - 1;
            double mass = 0;
            for (const Eigen::MatrixXd& att : f.attention)
                mass += att.row(q).head(c.patches).sum() / double(f.attention.size());
            cap.svar.push_back(mass);
        }
        for (int a = 1; a + 1 < A; ++a) {
            cap.objects.push_back(cap.answerIds[size_t(a)]);
            cap.labels.push_back(std::find(s.present.begin(), s.present.end(), cap.answerIds[size_t(a)]) !=
                                         s.present.end()
                                     ? 1
                                     : 0);
        }
        run.captions.push_back(std::move(cap));
        if (poll)
            poll(0.8 + 0.2 * double(n + 1) / c.captions);
    }
    run.lmHead = m.head.value;
    return run;
}

} // namespace pl::hiddenstate
