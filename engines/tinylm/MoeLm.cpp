#include "MoeLm.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace pl::tinylm {

std::vector<int> moeContext(const MoeLmModel& m, const std::vector<int>& seq, int t) {
    std::vector<int> c(size_t(m.window), m.padId);
    for (int i = 0; i < m.window; ++i) {
        const int s = t - m.window + i;
        if (s >= 0)
            c[size_t(i)] = seq[size_t(s)];
    }
    return c;
}

void moePairs(const MoeLmModel& m, const std::vector<std::vector<int>>& seqs,
              std::vector<std::vector<int>>& contexts, std::vector<int>& targets) {
    for (const auto& s : seqs)
        for (size_t t = 0; t < s.size(); ++t) {
            contexts.push_back(moeContext(m, s, int(t)));
            targets.push_back(s[t]);
        }
}

void routeTopK(const Mat& logits, int k, std::vector<ExpertSet>& chosen, Mat& gates) {
    const Eigen::Index R = logits.rows(), E = logits.cols();
    chosen.assign(size_t(R), {});
    gates = Mat::Zero(R, E);
    std::vector<int> order(static_cast<size_t>(E));
    for (Eigen::Index r = 0; r < R; ++r) {
        std::iota(order.begin(), order.end(), 0);
        std::stable_sort(order.begin(), order.end(),
                         [&](int a, int b) { return logits(r, a) > logits(r, b); });
        ExpertSet s(order.begin(), order.begin() + k);
        double mx = logits(r, s[0]), z = 0;
        for (int e : s)
            z += std::exp(logits(r, e) - mx);
        for (int e : s)
            gates(r, e) = std::exp(logits(r, e) - mx) / z;
        std::sort(s.begin(), s.end());
        chosen[size_t(r)] = std::move(s);
    }
}

namespace {

Mat embedWindow(const MoeLmModel& m, const std::vector<std::vector<int>>& contexts) {
    const auto R = Eigen::Index(contexts.size());
    const Eigen::Index e = m.tokEmb.cols();
    Mat x(R, e * m.window);
    for (Eigen::Index r = 0; r < R; ++r)
        for (int i = 0; i < m.window; ++i)
            x.block(r, i * e, 1, e) = m.tokEmb.row(contexts[size_t(r)][size_t(i)]);
    return x;
}

Mat softmaxRowsOf(const Mat& a) {
    Mat p = a;
    for (Eigen::Index r = 0; r < p.rows(); ++r) {
        const double mx = p.row(r).maxCoeff();
        p.row(r) = (p.row(r).array() - mx).exp().matrix();
        p.row(r) /= p.row(r).sum();
    }
    return p;
}

} // namespace

MoeOutput moeForward(const MoeLmModel& m, const std::vector<std::vector<int>>& contexts, bool keepInputs) {
    MoeOutput out;
    Mat h = embedWindow(m, contexts) * m.wIn;
    h.rowwise() += m.bIn;
    const Eigen::Index R = h.rows();
    for (const MoeLayer& layer : m.layers) {
        const Mat rl = h * layer.router;
        std::vector<ExpertSet> chosen;
        Mat gates;
        routeTopK(rl, m.topK, chosen, gates);
        if (keepInputs)
            out.inputs.push_back(h);
        Mat add = Mat::Zero(R, h.cols());
        std::vector<std::vector<int>> routed(layer.experts.size());
        for (Eigen::Index r = 0; r < R; ++r)
            for (int e : chosen[size_t(r)])
                routed[size_t(e)].push_back(int(r));
        for (size_t e = 0; e < layer.experts.size(); ++e) {
            const std::vector<int>& rows = routed[e];
            if (rows.empty())
                continue;
            const MoeExpert& x = layer.experts[e];
            Mat xe(Eigen::Index(rows.size()), h.cols());
            for (size_t i = 0; i < rows.size(); ++i)
                xe.row(Eigen::Index(i)) = h.row(rows[i]);
            Mat a = xe * x.w1;
            a.rowwise() += x.b1;
            Mat y = a.cwiseMax(0.0) * x.w2;
            y.rowwise() += x.b2;
            for (size_t i = 0; i < rows.size(); ++i)
                add.row(rows[i]) += gates(rows[i], Eigen::Index(e)) * y.row(Eigen::Index(i));
        }
        h += layer.scale * add;
        out.route.push_back(std::move(chosen));
        out.routerProbs.push_back(softmaxRowsOf(rl));
        out.gates.push_back(std::move(gates));
    }
    out.logits = h * m.head;
    out.logits.rowwise() += m.headBias;
    return out;
}

double moeLoss(const MoeLmModel& m, const std::vector<std::vector<int>>& contexts,
               const std::vector<int>& targets) {
    if (contexts.empty())
        return 0;
    const Mat z = moeForward(m, contexts).logits;
    double total = 0;
    for (Eigen::Index r = 0; r < z.rows(); ++r) {
        const double mx = z.row(r).maxCoeff();
        const double lse = mx + std::log((z.row(r).array() - mx).exp().sum());
        total += lse - z(r, targets[size_t(r)]);
    }
    return total / double(z.rows());
}

MoeVars moeConstants(nn::Tape& tape, const MoeLmModel& m) {
    MoeVars v;
    v.tokEmb = tape.constant(m.tokEmb);
    v.wIn = tape.constant(m.wIn);
    v.bIn = tape.constant(m.bIn);
    v.head = tape.constant(m.head);
    v.headBias = tape.constant(m.headBias);
    for (const MoeLayer& layer : m.layers) {
        v.router.push_back(tape.constant(layer.router));
        std::vector<MoeExpertVars> ex;
        for (const MoeExpert& x : layer.experts)
            ex.push_back(
                {tape.constant(x.w1), tape.constant(x.b1), tape.constant(x.w2), tape.constant(x.b2)});
        v.expert.push_back(std::move(ex));
    }
    return v;
}

MoeTapeOutput moeTapeForward(nn::Tape& tape, const MoeVars& v, const MoeLmModel& shape,
                             const std::vector<std::vector<int>>& contexts) {
    const int R = int(contexts.size());
    std::vector<nn::Var> parts;
    for (int w = 0; w < shape.window; ++w) {
        std::vector<int> idx;
        for (const auto& c : contexts)
            idx.push_back(c[size_t(w)]);
        parts.push_back(nn::gatherRows(v.tokEmb, idx));
    }
    nn::Var h = nn::add(nn::matmul(nn::concatCols(parts), v.wIn), v.bIn);
    MoeTapeOutput out;
    for (size_t l = 0; l < v.router.size(); ++l) {
        const nn::Var rl = nn::matmul(h, v.router[l]);
        out.routerLogits.push_back(rl);
        out.blockInputs.push_back(h);
        const Eigen::Index E = rl.cols();
        std::vector<ExpertSet> chosen;
        Mat gates;
        routeTopK(rl.value(), shape.topK, chosen, gates);
        Mat mask = Mat::Constant(R, E, -1e30);
        Mat frac = Mat::Zero(1, E);
        for (int r = 0; r < R; ++r)
            for (int e : chosen[size_t(r)]) {
                mask(r, e) = 0;
                frac(0, e) += 1.0 / (double(R) * shape.topK);
            }
        const nn::Var g = nn::softmaxRows(nn::add(rl, tape.constant(mask)));
        const nn::Var bal =
            nn::scale(nn::sum(nn::mul(nn::colMean(nn::softmaxRows(rl)), tape.constant(frac))), double(E));
        out.balance = l == 0 ? bal : nn::add(out.balance, bal);
        std::vector<ExpertNodes> nodes(static_cast<size_t>(E));
        nn::Var sum;
        for (Eigen::Index e = 0; e < E; ++e) {
            ExpertNodes& n = nodes[size_t(e)];
            for (int r = 0; r < R; ++r)
                if (mask(r, e) == 0)
                    n.rows.push_back(r);
            if (n.rows.empty())
                continue;
            const MoeExpertVars& x = v.expert[l][size_t(e)];
            n.x = nn::gatherRows(h, n.rows);
            n.a = nn::add(nn::matmul(n.x, x.w1), x.b1);
            n.hidden = nn::relu(n.a);
            n.y = nn::add(nn::matmul(n.hidden, x.w2), x.b2);
            const nn::Var ge = nn::gatherRows(nn::sliceCols(g, int(e), 1), n.rows);
            const nn::Var c = nn::scatterSumRows(nn::mul(n.y, ge), n.rows, R);
            sum = sum.tape ? nn::add(sum, c) : c;
        }
        const double s = shape.layers.empty() ? 1.0 : shape.layers[l].scale;
        h = nn::add(h, nn::scale(sum, s));
        out.nodes.push_back(std::move(nodes));
    }
    out.logits = nn::add(nn::matmul(h, v.head), v.headBias);
    return out;
}

MoeLmModel trainMoeLm(const std::vector<std::vector<int>>& sequences, int vocab, const MoeTrainConfig& c,
                      Rng rng, std::vector<double>* epochLoss, const std::function<void(double)>& tick) {
    using nn::Parameter;
    Parameter emb("tok_emb", nn::normalMatrix(vocab, c.embed, 0.3, rng));
    Parameter wIn("w_in", nn::glorotUniform(c.window * c.embed, c.dModel, rng));
    Parameter bIn("b_in", Mat::Zero(1, c.dModel));
    std::vector<Parameter> router;
    std::vector<Parameter> ex; // [l][e][w1 b1 w2 b2] flattened
    router.reserve(size_t(c.layers));
    ex.reserve(size_t(c.layers * c.experts * 4));
    for (int l = 0; l < c.layers; ++l) {
        router.emplace_back("router", nn::normalMatrix(c.dModel, c.experts, 0.1, rng));
        for (int e = 0; e < c.experts; ++e) {
            ex.emplace_back("w1", nn::glorotUniform(c.dModel, c.hidden, rng));
            ex.emplace_back("b1", Mat::Zero(1, c.hidden));
            ex.emplace_back("w2", nn::glorotUniform(c.hidden, c.dModel, rng));
            ex.emplace_back("b2", Mat::Zero(1, c.dModel));
        }
    }
    Parameter hd("head", nn::glorotUniform(c.dModel, vocab, rng));
    Parameter hb("head_bias", Mat::Zero(1, vocab));
    std::vector<Parameter*> params{&emb, &wIn, &bIn, &hd, &hb};
    for (auto& p : router)
        params.push_back(&p);
    for (auto& p : ex)
        params.push_back(&p);
    MoeLmModel shape;
    shape.window = c.window;
    shape.padId = c.padId;
    shape.topK = c.topK;
    shape.layers.resize(size_t(c.layers));
    for (int l = 0; l < c.layers; ++l)
        shape.layers[size_t(l)].scale = c.layerScales.empty() ? 1.0 : c.layerScales[size_t(l)];
    std::vector<std::vector<int>> ctx;
    std::vector<int> target;
    moePairs(shape, sequences, ctx, target);
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
            std::vector<std::vector<int>> bc;
            std::vector<int> y;
            for (size_t k = from; k < to; ++k) {
                bc.push_back(ctx[size_t(order[k])]);
                y.push_back(target[size_t(order[k])]);
            }
            nn::Tape tape;
            MoeVars v;
            v.tokEmb = tape.param(emb);
            v.wIn = tape.param(wIn);
            v.bIn = tape.param(bIn);
            v.head = tape.param(hd);
            v.headBias = tape.param(hb);
            for (int l = 0; l < c.layers; ++l) {
                v.router.push_back(tape.param(router[size_t(l)]));
                std::vector<MoeExpertVars> xs;
                for (int e = 0; e < c.experts; ++e) {
                    Parameter* q = &ex[size_t((l * c.experts + e) * 4)];
                    xs.push_back({tape.param(q[0]), tape.param(q[1]), tape.param(q[2]), tape.param(q[3])});
                }
                v.expert.push_back(std::move(xs));
            }
            const MoeTapeOutput o = moeTapeForward(tape, v, shape, bc);
            const nn::Var ce = nn::mean(nn::softmaxCrossEntropy(o.logits, y));
            const nn::Var loss = nn::add(ce, nn::scale(o.balance, c.balanceWeight));
            for (Parameter* p : params)
                p->zeroGrad();
            tape.backward(loss);
            adam.step(params);
            total += ce.scalar() * double(to - from);
            if (tick)
                tick((double(ep) + double(b + 1) / double(nb)) / double(c.epochs));
        }
        if (epochLoss)
            epochLoss->push_back(total / double(std::max<size_t>(1, ctx.size())));
    }
    MoeLmModel m = shape;
    m.tokEmb = emb.value;
    m.wIn = wIn.value;
    m.bIn = bIn.value.row(0);
    m.head = hd.value;
    m.headBias = hb.value.row(0);
    for (int l = 0; l < c.layers; ++l) {
        MoeLayer& y = m.layers[size_t(l)];
        y.router = router[size_t(l)].value;
        for (int e = 0; e < c.experts; ++e) {
            const Parameter* q = &ex[size_t((l * c.experts + e) * 4)];
            y.experts.push_back({q[0].value, q[1].value.row(0), q[2].value, q[3].value.row(0)});
        }
    }
    return m;
}

} // namespace pl::tinylm
