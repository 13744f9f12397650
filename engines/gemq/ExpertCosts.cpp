#include "ExpertCosts.h"

#include "gemq/Quantiser.h"
#include "nn/Tape.h"
#include "tinylm/MoeLm.h"

#include <stdexcept>

namespace pl::gemq {

using tinylm::Mat;
using tinylm::MoeLmModel;

Importance importanceFromName(const std::string& s) {
    if (s == "fisher")
        return Importance::Fisher;
    if (s == "output")
        return Importance::Output;
    if (s == "weight_error")
        return Importance::WeightError;
    throw std::invalid_argument("importance '" + s + "' (fisher, output or weight_error)");
}

namespace {

void fisherBatch(const MoeLmModel& m, const std::vector<std::vector<int>>& ctx, const std::vector<int>& y,
                 Sensitivity& s) {
    nn::Tape tape;
    tinylm::MoeVars v = tinylm::moeConstants(tape, m);
    for (size_t l = 0; l < m.layers.size(); ++l)
        for (size_t e = 0; e < m.layers[l].experts.size(); ++e) {
            v.expert[l][e].w1 = tape.variable(m.layers[l].experts[e].w1);
            v.expert[l][e].w2 = tape.variable(m.layers[l].experts[e].w2);
        }
    const tinylm::MoeTapeOutput o = tinylm::moeTapeForward(tape, v, m, ctx);
    tape.backward(nn::sum(nn::softmaxCrossEntropy(o.logits, y)));
    const size_t E = size_t(m.nExperts());
    for (size_t l = 0; l < o.nodes.size(); ++l)
        for (size_t e = 0; e < E; ++e) {
            const tinylm::ExpertNodes& n = o.nodes[l][e];
            if (n.rows.empty())
                continue;
            const size_t i = l * E + e;
            s.a1[i] += n.x.value().cwiseAbs2().transpose() * n.a.grad().cwiseAbs2();
            s.a2[i] += n.hidden.value().cwiseAbs2().transpose() * n.y.grad().cwiseAbs2();
        }
}

void outputBatch(const MoeLmModel& m, const std::vector<std::vector<int>>& ctx, Sensitivity& s) {
    const tinylm::MoeOutput o = tinylm::moeForward(m, ctx, true);
    const size_t E = size_t(m.nExperts());
    for (size_t l = 0; l < m.layers.size(); ++l) {
        const Mat& h = o.inputs[l];
        for (size_t e = 0; e < E; ++e) {
            std::vector<int> rows;
            for (Eigen::Index r = 0; r < h.rows(); ++r)
                for (int k : o.route[l][size_t(r)])
                    if (k == int(e))
                        rows.push_back(int(r));
            if (rows.empty())
                continue;
            Mat x(Eigen::Index(rows.size()), h.cols());
            Eigen::VectorXd g(Eigen::Index(rows.size()));
            for (size_t i = 0; i < rows.size(); ++i) {
                x.row(Eigen::Index(i)) = h.row(rows[i]);
                g(Eigen::Index(i)) = o.gates[l](rows[i], Eigen::Index(e));
            }
            const tinylm::MoeExpert& ex = m.layers[l].experts[e];
            Mat a = x * ex.w1;
            a.rowwise() += ex.b1;
            const Mat hid = a.cwiseMax(0.0);
            const Eigen::VectorXd g2 = g.cwiseAbs2();
            s.a1[l * E + e] += x.transpose() * g2.asDiagonal() * x;
            s.a2[l * E + e] += hid.transpose() * g2.asDiagonal() * hid;
        }
    }
}

} // namespace

Sensitivity measureSensitivity(const MoeLmModel& m, Importance kind,
                               const std::vector<std::vector<int>>& contexts, const std::vector<int>& targets,
                               const std::function<void(double)>& tick) {
    Sensitivity s;
    s.kind = kind;
    if (kind == Importance::WeightError)
        return s;
    for (const tinylm::MoeLayer& layer : m.layers)
        for (const tinylm::MoeExpert& x : layer.experts) {
            const bool f = kind == Importance::Fisher;
            s.a1.push_back(f ? Mat::Zero(x.w1.rows(), x.w1.cols()) : Mat::Zero(x.w1.rows(), x.w1.rows()));
            s.a2.push_back(f ? Mat::Zero(x.w2.rows(), x.w2.cols()) : Mat::Zero(x.w2.rows(), x.w2.rows()));
        }
    const size_t batch = 256;
    for (size_t from = 0; from < contexts.size(); from += batch) {
        const size_t to = std::min(contexts.size(), from + batch);
        const std::vector<std::vector<int>> c(contexts.begin() + long(from), contexts.begin() + long(to));
        if (kind == Importance::Fisher)
            fisherBatch(m, c, std::vector<int>(targets.begin() + long(from), targets.begin() + long(to)), s);
        else
            outputBatch(m, c, s);
        if (tick)
            tick(double(to) / double(contexts.size()));
    }
    const double n = double(std::max<size_t>(1, contexts.size()));
    for (size_t i = 0; i < s.a1.size(); ++i) {
        s.a1[i] /= n;
        s.a2[i] /= n;
    }
    return s;
}

Eigen::MatrixXd expertCosts(const MoeLmModel& fp, const Sensitivity& s, const std::vector<int>& bits,
                            int group) {
    const size_t E = size_t(fp.nExperts());
    Eigen::MatrixXd c(Eigen::Index(fp.layers.size() * E), Eigen::Index(bits.size()));
    for (size_t l = 0; l < fp.layers.size(); ++l)
        for (size_t e = 0; e < E; ++e) {
            const tinylm::MoeExpert& x = fp.layers[l].experts[e];
            const size_t i = l * E + e;
            for (size_t j = 0; j < bits.size(); ++j) {
                const Mat d1 = x.w1 - quantiseGroupwise(x.w1, bits[j], group);
                const Mat d2 = x.w2 - quantiseGroupwise(x.w2, bits[j], group);
                double v = 0;
                switch (s.kind) {
                case Importance::WeightError:
                    v = d1.squaredNorm() + d2.squaredNorm();
                    break;
                case Importance::Fisher:
                    v = s.a1[i].cwiseProduct(d1.cwiseAbs2()).sum() +
                        s.a2[i].cwiseProduct(d2.cwiseAbs2()).sum();
                    break;
                case Importance::Output:
                    v = (d1.transpose() * s.a1[i] * d1).trace() + (d2.transpose() * s.a2[i] * d2).trace();
                    break;
                }
                c(Eigen::Index(i), Eigen::Index(j)) = 0.5 * std::max(0.0, v);
            }
        }
    return c;
}

std::vector<double> fisherTracePerLayer(const Sensitivity& s, int layers, int experts) {
    std::vector<double> t(size_t(layers), 0.0);
    if (s.kind != Importance::Fisher)
        return t;
    for (int l = 0; l < layers; ++l)
        for (int e = 0; e < experts; ++e)
            t[size_t(l)] += s.a1[size_t(l * experts + e)].sum() + s.a2[size_t(l * experts + e)].sum();
    return t;
}

std::vector<double> expertParams(const MoeLmModel& m) {
    std::vector<double> n;
    for (const tinylm::MoeLayer& layer : m.layers)
        for (const tinylm::MoeExpert& x : layer.experts)
            n.push_back(double(x.w1.size() + x.w2.size()));
    return n;
}

} // namespace pl::gemq
