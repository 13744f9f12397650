#include "InductionModel.h"

#include <cmath>

namespace pl::tinylm {

namespace {

constexpr double kFreq[8] = {2.2167, 1.3266, 1.3164, 1.1323, 0.5979, 0.0311, 0.0041, 0.0028};

Mat tokenCodes(int vocab, int e) {
    Rng rng(0x1d0c7105ULL);
    Mat c(vocab, e);
    for (int v = 0; v < vocab; ++v) {
        for (int i = 0; i < e; ++i)
            c(v, i) = rng.normal();
        c.row(v).normalize();
    }
    return c;
}

} // namespace

std::vector<int> inductionSuccessors(int vocab) {
    Rng rng(0x5ecc05507ULL);
    std::vector<int> s(static_cast<size_t>(vocab));
    for (int v = 0; v < vocab; ++v)
        s[size_t(v)] = int(rng.uniformInt(uint64_t(vocab)));
    return s;
}

TransformerModel makeInductionModel(const InductionSpec& s) {
    const int e = s.code, V = s.vocab, d = 4 * e + 16;
    const int TOK = 0, PREV = e, PREV2 = 2 * e, OUT = 3 * e, POS = 4 * e, half = d / 2;
    const double rootDh = std::sqrt(double(half));
    const Mat C = tokenCodes(V, e);
    TransformerModel m;
    m.nHeads = 2;
    m.norm = Norm::None;
    m.act = Act::Relu;
    m.tokEmb = Mat::Zero(V, d);
    m.tokEmb.block(0, TOK, V, e) = C;
    m.posEmb = Mat::Zero(s.positions, d);
    for (int t = 0; t < s.positions; ++t)
        for (int f = 0; f < 8; ++f) {
            m.posEmb(t, POS + 2 * f) = std::cos(kFreq[f] * t);
            m.posEmb(t, POS + 2 * f + 1) = std::sin(kFreq[f] * t);
        }
    const Mat I = Mat::Identity(e, e);
    // Layer 0: head 0 looks at t-1, head 1 at t-2 (query rotated back by 1 or 2 steps).
    TransformerLayer l0;
    l0.wq = l0.wk = l0.wv = l0.wo = Mat::Zero(d, d);
    for (int h = 0; h < 2; ++h) {
        const int qoff = h * half;
        for (int f = 0; f < 8; ++f) {
            const double w = kFreq[f] * (h + 1), c = std::cos(w), sn = std::sin(w);
            const int r = POS + 2 * f, q = qoff + 2 * f;
            l0.wq(r, q) = c * s.prevSharpness * rootDh;
            l0.wq(r + 1, q) = sn * s.prevSharpness * rootDh;
            l0.wq(r, q + 1) = -sn * s.prevSharpness * rootDh;
            l0.wq(r + 1, q + 1) = c * s.prevSharpness * rootDh;
            l0.wk(r, q) = 1;
            l0.wk(r + 1, q + 1) = 1;
        }
        l0.wv.block(TOK, qoff, e, e) = I;
        l0.wo.block(qoff, h == 0 ? PREV : PREV2, e, e) = I;
    }
    // Layer 1: head 0 is the induction head; head 1 is idle. MLP: the n-gram prior.
    TransformerLayer l1;
    l1.wq = l1.wk = l1.wv = l1.wo = Mat::Zero(d, d);
    l1.wq.block(TOK, 0, e, e) = I * (s.matchSharpness * rootDh);
    l1.wq.block(PREV, e, e, e) = I * (s.matchSharpness * rootDh);
    l1.wk.block(PREV, 0, e, e) = I;
    l1.wk.block(PREV2, e, e, e) = I;
    l1.wv.block(TOK, 0, e, e) = I;
    l1.wo.block(0, OUT, e, e) = I;
    const std::vector<int> succ = inductionSuccessors(V);
    l1.hasMlp = true;
    l1.w1 = Mat::Zero(d, V);
    l1.w1.block(TOK, 0, e, V) = C.transpose();
    l1.b1 = RowVec::Constant(V, -0.5);
    l1.w2 = Mat::Zero(V, d);
    for (int v = 0; v < V; ++v)
        l1.w2.block(v, OUT, 1, e) = C.row(succ[size_t(v)]);
    l1.b2 = RowVec::Zero(d);
    m.layers = {l0, l1};
    m.head = Mat::Zero(d, V);
    m.head.block(OUT, 0, e, V) = C.transpose() * s.logitScale;
    return m;
}

std::vector<CopyPrompt> makeCopyPrompts(int n, int vocab, int dmin, int dmax, double markov, Rng rng) {
    const std::vector<int> succ = inductionSuccessors(vocab);
    std::vector<CopyPrompt> out;
    for (int p = 0; p < n; ++p) {
        CopyPrompt c;
        c.distance = dmin + int(rng.uniformInt(uint64_t(dmax - dmin + 1)));
        int tok = int(rng.uniformInt(uint64_t(vocab)));
        const int total = 32 + c.distance;
        for (int i = 0; i < total; ++i) {
            c.tokens.push_back(tok);
            tok = rng.uniform() < markov ? succ[size_t(tok)] : int(rng.uniformInt(uint64_t(vocab)));
        }
        for (int i = 0; i < 8; ++i)
            c.tokens.push_back(c.tokens[size_t(32 + i)]);
        out.push_back(std::move(c));
    }
    return out;
}

} // namespace pl::tinylm
