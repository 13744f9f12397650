#include "InsLenScore.h"

#include "core/Detection.h"
#include "core/Errors.h"
#include "core/Numeric.h"
#include "hiddenstate/LogitLens.h"

#include <algorithm>
#include <set>
#include <utility>

namespace pl::hiddenstate {

int InsLenScorer::resolve(int layer, const char* name) const {
    const int l = layer < 0 ? m_layers + layer : layer;
    if (l < 0 || l >= m_layers)
        throw UsageError(std::string(name) + " = " + std::to_string(layer) + " but the states have L = " +
                         std::to_string(m_layers) + " layers (0 .. L-1, or -1 for the last)");
    return l;
}

InsLenScorer::InsLenScorer(const std::vector<const InsLenCaption*>& captions, const Eigen::MatrixXd& W,
                           const InsLenSettings& s, bool sweep)
    : m_captions(captions), m_s(s) {
    m_layers = captions.empty() ? 0 : captions[0]->layers();
    if (captions.empty())
        return;
    m_imageLayer = resolve(s.imageLayer, "image_layer");
    m_textLayer = resolve(s.textLayer, "text_layer");
    m_instrLayer = resolve(s.instructionLayer, "instruction_layer");
    for (size_t c = 0; c < captions.size(); ++c) {
        const InsLenCaption& cap = *captions[c];
        const Eigen::MatrixXd& instr = cap.instr[size_t(m_instrLayer)];
        const Eigen::VectorXd instrLse = lensLogNormaliser(instr, W, s.scale);
        std::vector<Eigen::VectorXd> imageLse(static_cast<size_t>(m_layers));
        for (int l = 0; l < m_layers; ++l)
            if (sweep || l == m_imageLayer)
                imageLse[size_t(l)] = lensLogNormaliser(cap.image[size_t(l)], W, s.scale);
        std::set<std::pair<int, int>> seen;
        for (size_t n = 0; n < cap.objects.size(); ++n) {
            const int t = cap.objects[n], y = cap.labels[n];
            const auto it = std::find(cap.answerIds.begin(), cap.answerIds.end(), t);
            const int a = int(it - cap.answerIds.begin());
            if (it == cap.answerIds.end() || a == 0 || !seen.insert({t, y}).second) {
                ++m_skipped;
                continue;
            }
            Scored o{int(c), int(n), t, a, y, 0, 0, {}, std::vector<std::vector<int>>(size_t(m_layers)), {}};
            const Eigen::VectorXd pInstr = lensProbOfToken(instr, W, s.scale, t, instrLse);
            o.w = pInstr.maxCoeff();
            const std::vector<int> ctx = topKIndices(pInstr, s.contextNum);
            o.ctxMean = Eigen::VectorXd::Zero(instr.cols());
            for (int i : ctx) {
                o.ctxMean += instr.row(i).transpose();
                o.meanCtx += pInstr(i);
            }
            o.ctxMean /= double(ctx.size());
            o.meanCtx /= double(ctx.size());
            for (int l = 0; l < m_layers; ++l) {
                if (!(sweep || l == m_imageLayer))
                    continue;
                const Eigen::VectorXd p =
                    lensProbOfToken(cap.image[size_t(l)], W, s.scale, t, imageLse[size_t(l)]);
                o.top[size_t(l)] = topKIndices(p, s.k);
                if (l == m_imageLayer)
                    o.patchProb = p;
            }
            m_objects.push_back(std::move(o));
        }
    }
}

InsLenScores InsLenScorer::score(int li, int lt) const {
    InsLenScores r;
    r.skipped = m_skipped;
    // Row expressions (no copies): this loop runs once per object for every layer pair of a sweep.
    auto cos = [](const auto& a, const auto& b) {
        const double na = a.norm(), nb = b.norm();
        return na > 0 && nb > 0 ? a.dot(b) / (na * nb) : 0.0;
    };
    for (const Scored& o : m_objects) {
        const InsLenCaption& cap = *m_captions[size_t(o.caption)];
        const auto h = cap.answer[size_t(lt)].row(o.position - 1);
        const Eigen::MatrixXd& img = cap.image[size_t(li)];
        double local = 0;
        for (int p : o.top[size_t(li)])
            local += cos(h, img.row(p));
        local = o.top[size_t(li)].empty() ? kNaN : local / double(o.top[size_t(li)].size());
        const double cl = o.w * local;
        const double diff = (h.transpose() - o.ctxMean).norm() / h.norm();
        const double cc = (m_s.bias - diff) * o.meanCtx;
        const Eigen::MatrixXd& instrT = cap.instr[size_t(lt)];
        const double global = cos(instrT.row(instrT.rows() - 1), cap.answer[size_t(li)].row(o.position - 1));
        r.inslen.push_back((1 - m_s.weight) * cl + m_s.weight * cc);
        r.calibratedLocal.push_back(cl);
        r.contextConsistency.push_back(cc);
        r.meanProb.push_back(o.meanCtx);
        r.glsim.push_back(m_s.glsimW * global + (1 - m_s.glsimW) * local);
        r.svar.push_back(cap.svar.empty() ? kNaN : cap.svar[size_t(o.position)]);
        r.label.push_back(double(o.label));
        r.caption.push_back(o.caption);
        r.object.push_back(o.object);
    }
    return r;
}

Eigen::MatrixXd InsLenScorer::aurocLayers() const {
    Eigen::MatrixXd out(m_layers, m_layers);
    std::vector<char> pos;
    for (const Scored& o : m_objects)
        pos.push_back(char(o.label == 1));
    for (int li = 0; li < m_layers; ++li)
        for (int lt = 0; lt < m_layers; ++lt)
            out(li, lt) = rankAuroc(score(li, lt).inslen, pos);
    return out;
}

} // namespace pl::hiddenstate
