#include "SaeStandIn.h"

#include "nn/Parameter.h"
#include "nn/Tape.h"

#include <algorithm>
#include <cmath>

namespace pl::hiddenstate {

namespace {

constexpr int kWindow = 6;
constexpr int kFunction = 60; // shared function words, ids 0..59

/// Zipf(1) draw from {0..n-1}.
int zipf(int n, Rng& rng) {
    double total = 0;
    for (int i = 1; i <= n; ++i)
        total += 1.0 / i;
    double u = rng.uniform() * total;
    for (int i = 1; i <= n; ++i) {
        u -= 1.0 / i;
        if (u <= 0)
            return i - 1;
    }
    return n - 1;
}

struct Grammar {
    int domains, vocab, slice;
    std::vector<int> successor; ///< per domain and content rank: a domain-specific next word
    int word(int g, int rank) const { return kFunction + ((g * slice + rank) % (vocab - kFunction)); }
};

std::vector<int> sampleText(const Grammar& G, int g, Rng& rng) {
    const int len = 20 + int(rng.uniformInt(21));
    std::vector<int> t;
    bool content = rng.uniform() < 0.5;
    int last = -1;
    while (int(t.size()) < len) {
        if (!content) {
            t.push_back(zipf(kFunction, rng));
            content = rng.uniform() < 0.7;
            continue;
        }
        int rank;
        if (last >= 0 && rng.uniform() < 0.5)
            rank = G.successor[size_t(g * G.slice + last)];
        else
            rank = zipf(G.slice, rng);
        const int dom = rng.uniform() < 0.75 ? g : (g + 1) % G.domains; // near-OOD: borrowed vocabulary
        t.push_back(G.word(dom, rank));
        last = dom == g ? rank : -1;
        content = rng.uniform() < 0.4;
    }
    return t;
}

struct Lm {
    std::vector<nn::Parameter> emb, w1, w2;
    nn::Parameter out;
    std::vector<nn::Parameter*> all() {
        std::vector<nn::Parameter*> p{&out};
        for (auto* v : {&emb, &w1, &w2})
            for (auto& q : *v)
                p.push_back(&q);
        return p;
    }
};

nn::Var layerNorm(nn::Var x) {
    const double inv = 1.0 / double(x.cols());
    const nn::Var xc = nn::sub(x, nn::scale(nn::rowSum(x), inv));
    const nn::Var var = nn::scale(nn::rowSum(nn::square(xc)), inv);
    return nn::mul(xc, nn::exp(nn::scale(nn::log(nn::addScalar(var, 1e-5)), -0.5)));
}

/// Residual stream per layer (1..L) for windows \a win (rows x kWindow token ids, BOS = vocab).
std::vector<nn::Var> lmForward(nn::Tape& t, Lm& m, const std::vector<std::vector<int>>& win, bool train) {
    auto P = [&](nn::Parameter& p) { return train ? t.param(p) : t.constant(p.value); };
    nn::Var x;
    for (int p = 0; p < kWindow; ++p) {
        std::vector<int> ids;
        for (const auto& w : win)
            ids.push_back(w[size_t(p)]);
        const nn::Var e = nn::gatherRows(P(m.emb[size_t(p)]), ids);
        x = p == 0 ? e : nn::add(x, e);
    }
    std::vector<nn::Var> states;
    for (size_t l = 0; l < m.w1.size(); ++l) {
        x = nn::add(x, nn::matmul(nn::relu(nn::matmul(layerNorm(x), P(m.w1[l]))), P(m.w2[l])));
        states.push_back(x);
    }
    return states;
}

std::vector<int> windowAt(const std::vector<int>& text, int pos, int bos) {
    std::vector<int> w(kWindow, bos);
    for (int p = 0; p < kWindow; ++p)
        if (pos - p >= 0)
            w[size_t(p)] = text[size_t(pos - p)];
    return w;
}

} // namespace

SaeCorpus makeSaeCorpus(const SaeCorpusConfig& c, const Rng& root, const std::function<void(double)>& poll) {
    Rng rng = root.fork("corpus");
    Grammar G{c.domains, c.vocab, std::max(8, (c.vocab - kFunction) / c.domains), {}};
    for (int i = 0; i < c.domains * G.slice; ++i)
        G.successor.push_back(int(rng.uniformInt(uint64_t(G.slice))));
    SaeCorpus out;
    const int nTrain = int(std::round(c.trainFraction * c.textsPerDomain));
    for (int g = 0; g < c.domains; ++g)
        for (int n = 0; n < c.textsPerDomain; ++n) {
            out.tokens.push_back(sampleText(G, g, rng));
            out.domain.push_back("topic" + std::to_string(g + 1));
            out.split.push_back(n < nTrain ? "train" : "test");
        }
    for (int n = 0; n < c.textsPerDomain - nTrain; ++n) { // far-OOD token salad, test only
        std::vector<int> t(size_t(20 + rng.uniformInt(21)));
        for (int& v : t)
            v = int(rng.uniformInt(uint64_t(c.vocab)));
        out.tokens.push_back(t);
        out.domain.push_back("salad");
        out.split.push_back("test");
    }
    for (size_t i = 0; i < out.tokens.size(); ++i)
        out.ids.push_back("t" + std::to_string(i + 1));
    // The LM, trained on next-token prediction over every train text.
    Rng lmRng = root.fork("lm");
    Lm m;
    for (int p = 0; p < kWindow; ++p)
        m.emb.emplace_back("e" + std::to_string(p), nn::normalMatrix(c.vocab + 1, c.width, 0.3, lmRng));
    for (int l = 0; l < c.layers; ++l) {
        m.w1.emplace_back("a" + std::to_string(l), nn::glorotUniform(c.width, 2 * c.width, lmRng));
        m.w2.emplace_back("b" + std::to_string(l), 0.5 * nn::glorotUniform(2 * c.width, c.width, lmRng));
    }
    m.out = nn::Parameter("out", nn::glorotUniform(c.width, c.vocab, lmRng));
    std::vector<std::pair<int, int>> positions; // (text, position of the predicted token)
    for (size_t i = 0; i < out.tokens.size(); ++i)
        if (out.split[i] == "train")
            for (int p = 1; p < int(out.tokens[i].size()); ++p)
                positions.emplace_back(int(i), p);
    nn::Adam adam(3e-3);
    double lossSum = 0;
    for (int s = 0; s < c.lmSteps; ++s) {
        std::vector<std::vector<int>> win;
        std::vector<int> target;
        for (int b = 0; b < 128; ++b) {
            const auto [i, p] = positions[size_t(lmRng.uniformInt(positions.size()))];
            win.push_back(windowAt(out.tokens[size_t(i)], p - 1, c.vocab));
            target.push_back(out.tokens[size_t(i)][size_t(p)]);
        }
        nn::Tape t;
        const nn::Var loss = nn::mean(
            nn::softmaxCrossEntropy(nn::matmul(lmForward(t, m, win, true).back(), t.param(m.out)), target));
        for (nn::Parameter* p : m.all())
            p->zeroGrad();
        t.backward(loss);
        adam.step(m.all());
        lossSum += loss.scalar();
        if ((s + 1) % 10 == 0) {
            out.lmLoss.push_back(lossSum / 10);
            lossSum = 0;
        }
        if (poll)
            poll(0.7 * double(s + 1) / c.lmSteps);
    }
    const int N = int(out.tokens.size());
    out.activations.assign(size_t(c.layers), Eigen::MatrixXd::Zero(N, c.width));
    for (int i = 0; i < N; ++i) {
        const std::vector<int>& text = out.tokens[size_t(i)];
        std::vector<std::vector<int>> win;
        for (int p = 0; p < int(text.size()); ++p)
            win.push_back(windowAt(text, p, c.vocab));
        nn::Tape t;
        const std::vector<nn::Var> st = lmForward(t, m, win, false);
        for (int l = 0; l < c.layers; ++l)
            out.activations[size_t(l)].row(i) =
                c.lastToken ? Eigen::RowVectorXd(st[size_t(l)].value().bottomRows(1))
                            : Eigen::RowVectorXd(st[size_t(l)].value().colwise().mean());
        if (poll && i % 64 == 0)
            poll(0.7 + 0.3 * double(i + 1) / N);
    }
    return out;
}

SaeLayer trainTopKSae(const Eigen::MatrixXd& A, const std::vector<int>& rows, int m, int k, int steps,
                      Rng rng) {
    const int d = int(A.cols());
    Eigen::RowVectorXd mean = Eigen::RowVectorXd::Zero(d);
    for (int r : rows)
        mean += A.row(r);
    mean /= double(std::max<size_t>(1, rows.size()));
    Eigen::MatrixXd dec = nn::normalMatrix(m, d, 1.0, rng);
    dec = dec.array().colwise() / dec.rowwise().norm().array();
    nn::Parameter We("W_enc", dec.transpose()), be("b_enc", Eigen::MatrixXd::Zero(1, m)), Wd("W_dec", dec),
        bd("b_dec", mean);
    nn::Adam adam(2e-3);
    for (int s = 0; s < steps && !rows.empty(); ++s) {
        Eigen::MatrixXd X(128, d);
        for (int b = 0; b < 128; ++b)
            X.row(b) = A.row(rows[size_t(rng.uniformInt(rows.size()))]);
        nn::Tape t;
        const nn::Var pre =
            nn::add(nn::matmul(nn::sub(t.constant(X), t.param(bd)), t.param(We)), t.param(be));
        Eigen::MatrixXd mask = Eigen::MatrixXd::Zero(128, m);
        for (int b = 0; b < 128; ++b)
            for (int i : topKCode(pre.value().row(b), k).index)
                mask(b, i) = 1;
        const nn::Var z = nn::mul(nn::relu(pre), t.constant(mask));
        const nn::Var rec = nn::add(nn::matmul(z, t.param(Wd)), t.param(bd));
        const nn::Var loss = nn::mean(nn::square(nn::sub(rec, t.constant(X))));
        for (nn::Parameter* p : {&We, &be, &Wd, &bd})
            p->zeroGrad();
        t.backward(loss);
        adam.step({&We, &be, &Wd, &bd});
    }
    SaeLayer s;
    s.encoder = We.value;
    s.encoderBias = be.value.row(0);
    s.decoder = Wd.value;
    s.decoderBias = bd.value.row(0);
    return s;
}

} // namespace pl::hiddenstate
