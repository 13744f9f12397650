#include "SpecExitDraft.h"

#include "TransformerForward.h"
#include "nn/Tape.h"

#include <cmath>
#include <numeric>

namespace pl::tinylm {

namespace {

Mat inputOf(const MlpLmModel& target, const Mat& features, const std::vector<int>& tokens) {
    const Eigen::Index e = target.tokEmb.cols(), h = features.cols();
    Mat x(features.rows(), h + e);
    x.leftCols(h) = features;
    for (Eigen::Index r = 0; r < x.rows(); ++r)
        x.block(r, h, 1, e) = target.tokEmb.row(tokens[size_t(r)]);
    return x;
}

double softplus(double z) {
    return z > 30 ? z : std::log1p(std::exp(z));
}

} // namespace

DraftOutput draftForward(const DraftModel& d, const MlpLmModel& target, const Mat& features,
                         const std::vector<int>& tokens) {
    Mat g = rowTimes(inputOf(target, features, tokens), d.wg);
    g.rowwise() += d.bg;
    g = g.array().tanh().matrix();
    DraftOutput o;
    o.logits = rowTimes(g, d.wt);
    o.logits.rowwise() += d.bt;
    const auto rows = g.rows();
    o.conf.resize(rows);
    o.prog.resize(rows);
    o.rem.resize(rows);
    const Mat c = rowTimes(g, d.wc), p = rowTimes(g, d.wp), r = rowTimes(g, d.wr);
    for (Eigen::Index i = 0; i < rows; ++i) {
        o.conf[i] = 1 / (1 + std::exp(-(c(i, 0) + d.bc[0])));
        o.prog[i] = 1 / (1 + std::exp(-(p(i, 0) + d.bp[0])));
        o.rem[i] = d.remScale * softplus(r(i, 0) + d.br[0]);
    }
    o.nextFeature = rowTimes(g, d.wf);
    o.nextFeature.rowwise() += d.bf;
    return o;
}

DraftModel trainDraft(const MlpLmModel& target, const std::vector<DraftExample>& ex,
                      const DraftTrainConfig& c, Rng rng, std::vector<double>* epochLoss,
                      const std::function<void(double)>& tick) {
    using nn::Parameter;
    const int h = target.hidden(), e = int(target.tokEmb.cols()), V = target.vocab(), G = c.hidden;
    Parameter wg("wg", nn::glorotUniform(h + e, G, rng)), bg("bg", Mat::Zero(1, G));
    Parameter wt("wt", nn::glorotUniform(G, V, rng)), bt("bt", Mat::Zero(1, V));
    Parameter wc("wc", nn::glorotUniform(G, 1, rng)), bc("bc", Mat::Zero(1, 1));
    Parameter wp("wp", nn::glorotUniform(G, 1, rng)), bp("bp", Mat::Zero(1, 1));
    Parameter wr("wr", nn::glorotUniform(G, 1, rng)), br("br", Mat::Zero(1, 1));
    Parameter wf("wf", nn::glorotUniform(G, h, rng)), bf("bf", Mat::Zero(1, h));
    const std::vector<Parameter*> params{&wg, &bg, &wt, &bt, &wc, &bc, &wp, &bp, &wr, &br, &wf, &bf};
    DraftModel d;
    nn::Adam adam(c.lr);
    std::vector<int> order(ex.size());
    std::iota(order.begin(), order.end(), 0);
    const size_t nb = (ex.size() + size_t(c.batch) - 1) / size_t(c.batch);
    for (int ep = 0; ep < c.epochs; ++ep) {
        for (size_t i = order.size(); i > 1; --i)
            std::swap(order[i - 1], order[size_t(rng.uniformInt(i))]);
        double total = 0;
        for (size_t b = 0; b < nb; ++b) {
            const size_t from = b * size_t(c.batch), to = std::min(order.size(), from + size_t(c.batch));
            const auto n = Eigen::Index(to - from);
            Mat feat(n, h), next(n, h), yc(n, 1), yp(n, 1), yr(n, 1);
            std::vector<int> tok, y;
            for (Eigen::Index k = 0; k < n; ++k) {
                const DraftExample& x = ex[size_t(order[from + size_t(k)])];
                feat.row(k) = x.feature;
                next.row(k) = x.nextFeature;
                tok.push_back(x.token);
                y.push_back(x.next);
                yc(k, 0) = x.conf;
                yp(k, 0) = x.prog;
                yr(k, 0) = x.rem / d.remScale;
            }
            nn::Tape tape;
            const nn::Var in = tape.constant(inputOf(target, feat, tok));
            const nn::Var g = nn::tanh(nn::add(nn::matmul(in, tape.param(wg)), tape.param(bg)));
            const nn::Var lt = nn::add(nn::matmul(g, tape.param(wt)), tape.param(bt));
            const nn::Var zc = nn::add(nn::matmul(g, tape.param(wc)), tape.param(bc));
            const nn::Var zp = nn::add(nn::matmul(g, tape.param(wp)), tape.param(bp));
            const nn::Var zr = nn::add(nn::matmul(g, tape.param(wr)), tape.param(br));
            const nn::Var zf = nn::add(nn::matmul(g, tape.param(wf)), tape.param(bf));
            const nn::Var ce = nn::mean(nn::softmaxCrossEntropy(lt, y));
            // BCE with logits: softplus(z) - y z.
            const nn::Var bce = nn::mean(nn::sub(nn::softplus(zc), nn::mul(zc, tape.constant(yc))));
            const nn::Var mse = nn::mean(nn::square(nn::sub(nn::sigmoid(zp), tape.constant(yp))));
            // log-cosh(u) = softplus(2u) - u - log 2 (quadratic near 0, linear far: Huber-like).
            const nn::Var u = nn::sub(nn::softplus(zr), tape.constant(yr));
            const nn::Var hub =
                nn::mean(nn::addScalar(nn::sub(nn::softplus(nn::scale(u, 2)), u), -std::log(2.0)));
            const nn::Var fe = nn::mean(nn::square(nn::sub(zf, tape.constant(next))));
            const nn::Var loss =
                nn::add(nn::add(nn::add(ce, nn::scale(bce, c.wConf)), nn::scale(mse, c.wProg)),
                        nn::add(nn::scale(hub, c.wRem), nn::scale(fe, c.wFeature)));
            for (Parameter* p : params)
                p->zeroGrad();
            tape.backward(loss);
            adam.step(params);
            total += loss.scalar() * double(n);
            if (tick)
                tick((double(ep) + double(b + 1) / double(nb)) / double(c.epochs));
        }
        if (epochLoss)
            epochLoss->push_back(total / double(std::max<size_t>(1, ex.size())));
    }
    d.wg = wg.value, d.bg = bg.value.row(0), d.wt = wt.value, d.bt = bt.value.row(0);
    d.wc = wc.value, d.bc = bc.value.row(0), d.wp = wp.value, d.bp = bp.value.row(0);
    d.wr = wr.value, d.br = br.value.row(0), d.wf = wf.value, d.bf = bf.value.row(0);
    return d;
}

} // namespace pl::tinylm
