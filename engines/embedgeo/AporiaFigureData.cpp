// AporiaRun::figuresData: the extracts the aporia-hallucination figures draw (the shown prompt's
// PCA, the LP subgraph over iterations, Fisher-score histograms, spread quantiles, LP change).
#include "AporiaKeys.h"
#include "AporiaRun.h"
#include "EmbedGeometry.h"

#include "core/Numeric.h"
#include "core/ResultBuilders.h"

#include <algorithm>
#include <cmath>

namespace pl::embedgeo {

namespace K = aporia::keys;

namespace {

Series classHistogram(const Eigen::VectorXd& f, const std::vector<int>& label, int cls, double lo,
                      double hi) {
    const int bins = 30;
    std::vector<double> x(bins), y(bins, 0.0);
    const double w = hi > lo ? (hi - lo) / bins : 1.0;
    double n = 0;
    for (size_t i = 0; i < label.size(); ++i)
        if (label[i] == cls) {
            y[size_t(std::clamp(int((f(Eigen::Index(i)) - lo) / w), 0, bins - 1))] += 1;
            n += 1;
        }
    for (int b = 0; b < bins; ++b) {
        x[size_t(b)] = lo + (b + 0.5) * w;
        y[size_t(b)] = n > 0 ? y[size_t(b)] / (n * w) : 0.0;
    }
    return seriesOf(x, y, "Fisher score w.x (high = hallucinated)", "density");
}

Series quantileSeries(const std::vector<double>& v) {
    std::vector<double> s = v;
    std::sort(s.begin(), s.end());
    Series out = emptySeries("quantile level", "centroid distance 1 - cos(e, c_p)");
    for (int q = 0; q <= 20 && !s.empty(); ++q)
        addPoint(out, q / 20.0, s[std::min(s.size() - 1, size_t(q / 20.0 * double(s.size() - 1) + 0.5))]);
    return out;
}

} // namespace

void AporiaRun::figuresData() {
    // The shown prompt: the first with at least 5 responses and both classes labelled.
    std::vector<std::vector<int>> rows(size_t(m_set.prompts()));
    for (size_t i = 0; i < m_set.prompt.size(); ++i)
        rows[size_t(m_set.prompt[i])].push_back(int(i));
    int shown = 0;
    for (int p = 0; p < m_set.prompts(); ++p) {
        int h = 0, g = 0;
        for (int i : rows[size_t(p)])
            (m_set.label[size_t(i)] == 1 ? h : g) += m_set.label[size_t(i)] >= 0;
        if (rows[size_t(p)].size() >= 5 && h > 0 && g > 0) {
            shown = p;
            break;
        }
    }
    const std::vector<int>& ix = rows[size_t(shown)];
    Eigen::MatrixXd C(Eigen::Index(ix.size()), m_geo.centred.cols());
    for (size_t r = 0; r < ix.size(); ++r)
        C.row(Eigen::Index(r)) = m_geo.centred.row(ix[r]);
    Pca local = fitPca(C, 2);
    local.mean.setZero(); // centred on the prompt centroid c_p: the centroid is the origin
    const Eigen::MatrixXd xy = local.project(C);
    const auto& pred = m_doc.labels.at(K::label::kPredicted);
    Eigen::MatrixXd M(Eigen::Index(ix.size()), 4);
    for (size_t r = 0; r < ix.size(); ++r)
        M.row(Eigen::Index(r)) << xy(Eigen::Index(r), 0), xy.cols() > 1 ? xy(Eigen::Index(r), 1) : 0.0,
            double(m_set.label[size_t(ix[r])]), double(pred[size_t(ix[r])]);
    m_doc.matrices[K::matrix::kPromptPca] =
        matrixOf(M, numberedLabels("response ", M.rows(), 0), {"pc1", "pc2", "truth", "predicted"});
    m_doc.metrics[K::metric::kShownPrompt] = shown;
    // LP subgraph: the shown prompt's responses and their graph neighbours, placed at (Fisher score,
    // PC 1) of the LP space; F (hallucinated share) after iterations 0, 1, 2, 5 and at the end.
    Graph g;
    std::vector<int> nodes(ix.begin(), ix.end());
    std::vector<int> local_of(m_set.prompt.size(), -1);
    for (size_t r = 0; r < nodes.size(); ++r)
        local_of[size_t(nodes[r])] = int(r);
    for (int i : ix)
        for (const auto& [j, w] :
             m_first.graph.w.empty() ? std::vector<std::pair<int, double>>{} : m_first.graph.w[size_t(i)])
            if (local_of[size_t(j)] < 0) {
                local_of[size_t(j)] = int(nodes.size());
                nodes.push_back(j);
            }
    std::vector<char> seed(m_set.prompt.size(), 0);
    for (int i : m_first.seedIdx)
        seed[size_t(i)] = 1;
    auto share = [](const Eigen::MatrixXd& F, int i) {
        const double s = F(i, 0) + F(i, 1);
        return s > 0 ? F(i, 1) / s : 0.5;
    };
    const char* names[] = {"f_it0", "f_it1", "f_it2", "f_it5"};
    for (size_t r = 0; r < nodes.size(); ++r) {
        const int i = nodes[r];
        const bool hasZ = m_first.z.rows() > i && m_first.z.cols() > 1;
        std::map<std::string, double> a{
            {"x", hasZ ? m_first.z(i, 0) : 0.0},       {"y", hasZ ? m_first.z(i, 1) : 0.0},
            {"truth", double(m_set.label[size_t(i)])}, {"seed", double(seed[size_t(i)])},
            {"in_prompt", r < ix.size() ? 1.0 : 0.0},  {"f_final", share(m_first.lp.F, i)}};
        for (size_t s = 0; s < m_first.snapshots.size() && s < 4; ++s)
            a[names[s]] = share(m_first.snapshots[s], i);
        g.nodes.push_back(graphNode(int64_t(r), std::to_string(i), a));
    }
    for (size_t r = 0; r < nodes.size() && !m_first.graph.w.empty(); ++r)
        for (const auto& [j, w] : m_first.graph.w[size_t(nodes[r])])
            if (local_of[size_t(j)] > int(r))
                g.edges.push_back(graphEdge(int64_t(r), local_of[size_t(j)], w));
    m_doc.graphs[K::graph::kLpSubgraph] = g;
    // Fisher-score histograms by class and the centroid-distance quantiles.
    const double lo = m_first.fisher.minCoeff(), hi = m_first.fisher.maxCoeff();
    m_doc.series[K::series::kFisherHistGenuine] = classHistogram(m_first.fisher, m_set.label, 0, lo, hi);
    m_doc.series[K::series::kFisherHistHallucinated] = classHistogram(m_first.fisher, m_set.label, 1, lo, hi);
    std::vector<double> dist[2];
    for (size_t i = 0; i < m_set.label.size(); ++i)
        if (m_set.label[i] >= 0)
            dist[m_set.label[i]].push_back(m_geo.features(Eigen::Index(i), 0));
    m_doc.series[K::series::kSpreadGenuine] = quantileSeries(dist[0]);
    m_doc.series[K::series::kSpreadHallucinated] = quantileSeries(dist[1]);
    Series ch = emptySeries("LP iteration", "max |F_t - F_(t-1)|");
    for (size_t t = 0; t < m_first.lp.change.size(); ++t)
        addPoint(ch, double(t + 1), m_first.lp.change[t]);
    m_doc.series[K::series::kLpChange] = ch;
    m_ctx.progress(0.8, "figures");
}

} // namespace pl::embedgeo
