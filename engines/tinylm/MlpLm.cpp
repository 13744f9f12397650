#include "MlpLm.h"

#include "TransformerForward.h"
#include "nn/Tape.h"

#include <numeric>

namespace pl::tinylm {

std::vector<int> mlpContext(const MlpLmModel& m, const std::vector<int>& seq, int t) {
    std::vector<int> c(size_t(m.window), m.padId);
    for (int i = 0; i < m.window; ++i) {
        const int s = t - m.window + i;
        if (s >= 0)
            c[size_t(i)] = seq[size_t(s)];
    }
    return c;
}

MlpOutput mlpForward(const MlpLmModel& m, const std::vector<std::vector<int>>& contexts) {
    const auto R = Eigen::Index(contexts.size());
    const Eigen::Index e = m.tokEmb.cols();
    Mat x(R, e * m.window);
    for (Eigen::Index r = 0; r < R; ++r)
        for (int i = 0; i < m.window; ++i)
            x.block(r, i * e, 1, e) = m.tokEmb.row(contexts[size_t(r)][size_t(i)]);
    Mat h1 = rowTimes(x, m.w1);
    h1.rowwise() += m.b1;
    applyAct(m.act, h1);
    MlpOutput out;
    out.hidden = rowTimes(h1, m.w2);
    out.hidden.rowwise() += m.b2;
    applyAct(m.act, out.hidden);
    out.logits = rowTimes(out.hidden, m.head);
    out.logits.rowwise() += m.headBias;
    return out;
}

namespace {

nn::Var actVar(Act a, nn::Var x) {
    return a == Act::Relu ? nn::relu(x) : nn::tanh(x);
}

} // namespace

MlpLmModel trainMlpLm(const std::vector<std::vector<int>>& sequences, int vocab, const MlpTrainConfig& c,
                      Rng rng, std::vector<double>* epochLoss, const std::function<void(double)>& tick) {
    using nn::Parameter;
    Parameter emb("tok_emb", nn::normalMatrix(vocab, c.embed, 0.3, rng));
    Parameter w1("w1", nn::glorotUniform(c.window * c.embed, c.hidden1, rng));
    Parameter b1("b1", Mat::Zero(1, c.hidden1));
    Parameter w2("w2", nn::glorotUniform(c.hidden1, c.hidden2, rng));
    Parameter b2("b2", Mat::Zero(1, c.hidden2));
    Parameter hd("head", nn::glorotUniform(c.hidden2, vocab, rng));
    Parameter hb("head_bias", Mat::Zero(1, vocab));
    const std::vector<Parameter*> params{&emb, &w1, &b1, &w2, &b2, &hd, &hb};
    MlpLmModel shape;
    shape.window = c.window;
    shape.padId = c.padId;
    std::vector<std::vector<int>> ctx;
    std::vector<int> target;
    for (const auto& s : sequences)
        for (size_t t = 0; t < s.size(); ++t) {
            ctx.push_back(mlpContext(shape, s, int(t)));
            target.push_back(s[t]);
        }
    nn::Adam adam(c.lr);
    std::vector<int> order(ctx.size());
    std::iota(order.begin(), order.end(), 0);
    const size_t nb = (ctx.size() + size_t(c.batch) - 1) / size_t(c.batch);
    for (int ep = 0; ep < c.epochs; ++ep) {
        for (size_t i = order.size(); i > 1; --i)
            std::swap(order[i - 1], order[size_t(rng.uniformInt(i))]);
        double total = 0;
        for (size_t b = 0; b < nb; ++b) {
            const size_t from = b * size_t(c.batch), to = std::min(order.size(), from + size_t(c.batch));
            nn::Tape tape;
            const nn::Var E = tape.param(emb);
            std::vector<nn::Var> parts;
            std::vector<int> y;
            for (int w = 0; w < c.window; ++w) {
                std::vector<int> idx;
                for (size_t k = from; k < to; ++k)
                    idx.push_back(ctx[size_t(order[k])][size_t(w)]);
                parts.push_back(nn::gatherRows(E, idx));
            }
            for (size_t k = from; k < to; ++k)
                y.push_back(target[size_t(order[k])]);
            nn::Var h =
                actVar(c.act, nn::add(nn::matmul(nn::concatCols(parts), tape.param(w1)), tape.param(b1)));
            h = actVar(c.act, nn::add(nn::matmul(h, tape.param(w2)), tape.param(b2)));
            const nn::Var logits = nn::add(nn::matmul(h, tape.param(hd)), tape.param(hb));
            const nn::Var loss = nn::mean(nn::softmaxCrossEntropy(logits, y));
            for (Parameter* p : params)
                p->zeroGrad();
            tape.backward(loss);
            adam.step(params);
            total += loss.scalar() * double(to - from);
            if (tick)
                tick((double(ep) + double(b + 1) / double(nb)) / double(c.epochs));
        }
        if (epochLoss)
            epochLoss->push_back(total / double(std::max<size_t>(1, ctx.size())));
    }
    MlpLmModel m = shape;
    m.act = c.act;
    m.tokEmb = emb.value;
    m.w1 = w1.value;
    m.b1 = b1.value.row(0);
    m.w2 = w2.value;
    m.b2 = b2.value.row(0);
    m.head = hd.value;
    m.headBias = hb.value.row(0);
    return m;
}

} // namespace pl::tinylm
