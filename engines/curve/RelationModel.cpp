#include "curve/RelationModel.h"

namespace pl::curve {

using nn::Mat;
using nn::Parameter;
using nn::Var;

namespace {

Parameter weight(const std::string& name, int rows, int cols, Rng& rng) {
    return Parameter(name, nn::glorotUniform(rows, cols, rng));
}

Parameter bias(const std::string& name, int cols, double v = 0.0) {
    return Parameter(name, Mat::Constant(1, cols, v));
}

} // namespace

RelationModel::RelationModel(const ModelConfig& cfg, Rng rng) : m_cfg(cfg) {
    const int H = cfg.hidden;
    m_wn = weight("node.w", kNodeFeatures, H, rng);
    m_bn = bias("node.b", H);
    m_we1 = weight("edge.w1", 2 * H + kEdgeFeatures, H, rng);
    m_be1 = bias("edge.b1", H);
    m_we2 = weight("edge.w2", H, 2, rng);
    m_be2 = Parameter("edge.b2", (Mat(1, 2) << 0.0, -2.0).finished()); // start fairly certain
    for (int l = 0; l < cfg.layers; ++l) {
        m_wm.push_back(weight("mp" + std::to_string(l) + ".wm", H + kEdgeFeatures, H, rng));
        m_bm.push_back(bias("mp" + std::to_string(l) + ".bm", H));
        m_wu.push_back(weight("mp" + std::to_string(l) + ".wu", 2 * H, H, rng));
        m_bu.push_back(bias("mp" + std::to_string(l) + ".bu", H));
    }
    m_wr = weight("rel.w", 2 * H + kEdgeFeatures, H, rng);
    m_br = bias("rel.b", H);
    m_wo = weight("rel.wo", H, kRelations - 1, rng);
    m_bo = bias("rel.bo", kRelations - 1);
    m_proto = Parameter("proto", nn::normalMatrix(std::max(1, cfg.prototypeCount), H, 0.1, rng));
}

std::vector<Parameter*> RelationModel::parameters() {
    std::vector<Parameter*> p{&m_wn, &m_bn, &m_we1, &m_be1, &m_we2, &m_be2, &m_wr, &m_br, &m_wo, &m_bo};
    for (size_t l = 0; l < m_wm.size(); ++l) {
        p.push_back(&m_wm[l]);
        p.push_back(&m_bm[l]);
        p.push_back(&m_wu[l]);
        p.push_back(&m_bu[l]);
    }
    if (m_cfg.prototypes)
        p.push_back(&m_proto);
    return p;
}

RelationModel::Forward RelationModel::forward(nn::Tape& t, const GraphBatch& b, const Mat* eps, double tau) {
    using namespace nn;
    Forward f;
    const Var X = t.constant(b.nodeX), E = t.constant(b.edgeX);
    const Var h0 = tanh(add(matmul(X, t.param(m_wn)), t.param(m_bn)));
    // Variational edges.
    const Var hs = gatherRows(h0, b.src), hd = gatherRows(h0, b.dst);
    const Var g = tanh(add(matmul(concatCols({hs, hd, E}), t.param(m_we1)), t.param(m_be1)));
    const Var out = add(matmul(g, t.param(m_we2)), t.param(m_be2));
    f.mu = sliceCols(out, 0, 1);
    f.logvar = scale(tanh(scale(sliceCols(out, 1, 1), 1.0 / 4.0)), 4.0); // log s2 in (-4, 4)
    f.z = (m_cfg.variational && eps) ? reparam(f.mu, f.logvar, *eps) : f.mu;
    f.a = sigmoid(scale(f.z, 1.0 / tau));
    // Message passing.
    Var h = h0;
    for (size_t l = 0; l < m_wm.size(); ++l) {
        const Var msg =
            add(matmul(concatCols({gatherRows(h, b.src), E}), t.param(m_wm[l])), t.param(m_bm[l]));
        const Var m = scatterSumRows(mul(msg, f.a), b.dst, b.nodes);
        h = tanh(add(h, add(matmul(concatCols({h, m}), t.param(m_wu[l])), t.param(m_bu[l]))));
    }
    // Relation head on agent pairs.
    std::vector<int> ps, pd;
    ps.reserve(b.pairEdge.size());
    pd.reserve(b.pairEdge.size());
    for (int e : b.pairEdge) {
        ps.push_back(b.src[size_t(e)]);
        pd.push_back(b.dst[size_t(e)]);
    }
    const Var ep = gatherRows(E, b.pairEdge);
    Var u = tanh(
        add(matmul(concatCols({gatherRows(h, ps), gatherRows(h, pd), ep}), t.param(m_wr)), t.param(m_br)));
    if (m_cfg.prototypes) {
        const Var P = t.param(m_proto);
        const Var PT = transpose(P);
        f.protoLogits = scale(matmul(u, PT), 1.0 / m_cfg.prototypeTemperature);
        const Var pi = softmaxRows(f.protoLogits);
        u = sub(u, matmul(pi, P));
    }
    f.pairRep = u;
    const Var tl = add(matmul(u, t.param(m_wo)), t.param(m_bo));
    const Var zp = gatherRows(f.z, b.pairEdge);
    f.logits = concatCols({t.constant(Mat::Zero(Eigen::Index(b.pairEdge.size()), 1)), add(tl, zp)});
    return f;
}

} // namespace pl::curve
