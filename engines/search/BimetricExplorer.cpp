// The explorer graph and the distortion sample of the bimetric-ann panel (BimetricRun.h).
#include "BimetricAnnKeys.h"
#include "core/ResultBuilders.h"
#include "core/SymmetricEigen.h"
#include "search/BimetricRun.h"

#include <Eigen/Core>

#include <algorithm>
#include <cmath>
#include <map>

namespace pl::search::bimetric {

namespace A = keys::attr;

std::vector<double> sampleRatios(const BimetricData& data, int pairs, Rng rng) {
    std::vector<double> r;
    const int64_t n = data.baseExpensive.n;
    if (n < 2)
        return r;
    r.reserve(size_t(pairs));
    for (int t = 0; t < pairs; ++t) {
        const auto i = int64_t(rng.uniformInt(uint64_t(n)));
        auto j = int64_t(rng.uniformInt(uint64_t(n - 1)));
        j += j >= i ? 1 : 0;
        const double D = std::sqrt(
            double(squaredL2(data.baseExpensive.row(i), data.baseExpensive.row(j), data.baseExpensive.dim)));
        const double d =
            std::sqrt(double(squaredL2(data.baseProxy.row(i), data.baseProxy.row(j), data.baseProxy.dim)));
        if (d > 0)
            r.push_back(D / d);
    }
    return r;
}

Graph explorerGraph(const BimetricData& data, const VamanaGraph& proxy, int64_t q, const SearchTrace& stage1,
                    const SearchTrace& stage2, const std::vector<Scored>& truth,
                    const std::vector<Scored>& ours, Rng rng) {
    constexpr int kSteps = 40;       // expansions shown per stage
    constexpr int kBackground = 120; // random other nodes
    std::map<int32_t, int> role;     // node -> role (highest wins)
    std::map<int32_t, int> step;     // node -> expansion step in its stage
    // precedence when a node has several roles: query > true neighbour > returned > stage 2 >
    // stage 1 > other
    auto rank = [](int r) { return r == 5 ? 3 : r == 3 ? 4 : r; };
    auto setRole = [&](int32_t id, int r) {
        auto it = role.find(id);
        if (it == role.end() || rank(it->second) < rank(r))
            role[id] = r;
    };
    // the expanded nodes of a stage are the parents in its trace, in order
    auto expansions = [&](const SearchTrace& t, int r) {
        std::vector<int32_t> order;
        for (const auto& [parent, child] : t)
            if (parent >= 0 && (order.empty() || order.back() != parent) &&
                std::find(order.begin(), order.end(), parent) == order.end()) {
                order.push_back(parent);
                if (int(order.size()) >= kSteps)
                    break;
            }
        for (size_t s = 0; s < order.size(); ++s) {
            setRole(order[s], r);
            if (!step.count(order[s]))
                step[order[s]] = int(s);
        }
        return order;
    };
    const auto path1 = expansions(stage1, 1);
    const auto path2 = expansions(stage2, 2);
    for (const Scored& s : ours)
        setRole(s.id, 5);
    for (const Scored& s : truth)
        setRole(s.id, 3);
    for (int b = 0; b < kBackground && b < int(data.baseExpensive.n); ++b)
        setRole(int32_t(rng.uniformInt(uint64_t(data.baseExpensive.n))), 0);
    std::vector<int32_t> ids;
    for (const auto& kv : role)
        ids.push_back(kv.first);
    // PCA of the subset's expensive vectors and the query
    const int64_t D = data.baseExpensive.dim;
    Eigen::MatrixXd X(Eigen::Index(ids.size() + 1), Eigen::Index(D));
    for (size_t i = 0; i < ids.size(); ++i)
        for (int64_t j = 0; j < D; ++j)
            X(Eigen::Index(i), Eigen::Index(j)) = data.baseExpensive.row(ids[i])[j];
    for (int64_t j = 0; j < D; ++j)
        X(Eigen::Index(ids.size()), Eigen::Index(j)) = data.queryExpensive.row(q)[j];
    const Eigen::RowVectorXd mean = X.colwise().mean();
    X.rowwise() -= mean;
    Eigen::MatrixXd axes(Eigen::Index(D), 2);
    if (D >= 2) {
        const Eigen::MatrixXd cov = X.transpose() * X;
        const SymmetricEigen es = symmetricEigen(cov);
        for (int c = 0; c < 2; ++c) {
            Eigen::VectorXd v = es.vectors.col(Eigen::Index(D) - 1 - c);
            Eigen::Index big = 0;
            v.cwiseAbs().maxCoeff(&big);
            if (v(big) < 0)
                v = -v; // fixed sign: the same picture on every platform
            axes.col(c) = v;
        }
    } else {
        axes.setZero();
        axes(0, 0) = 1;
    }
    const Eigen::MatrixXd Y = X * axes;
    Graph g;
    g.directed = true;
    std::map<int32_t, int64_t> index;
    for (size_t i = 0; i < ids.size(); ++i) {
        index[ids[i]] = int64_t(i);
        const auto st = step.find(ids[i]);
        g.nodes.push_back(graphNode(int64_t(i), "row " + std::to_string(ids[i]),
                                    {{A::kX, Y(Eigen::Index(i), 0)},
                                     {A::kY, Y(Eigen::Index(i), 1)},
                                     {A::kRole, double(role[ids[i]])},
                                     {A::kStep, st == step.end() ? -1.0 : double(st->second)}}));
    }
    const auto qi = int64_t(ids.size());
    g.nodes.push_back(graphNode(qi, "query " + std::to_string(q + 1),
                                {{A::kX, Y(Eigen::Index(qi), 0)},
                                 {A::kY, Y(Eigen::Index(qi), 1)},
                                 {A::kRole, 4.0},
                                 {A::kStep, -1.0}}));
    // graph edges among the shown points, leaving out those between the background sample and the
    // search's nodes (long edges across the picture that hide the paths)
    for (int32_t id : ids)
        for (int32_t nb : proxy.neighbors(id)) {
            const auto it = index.find(nb);
            if (it != index.end() && ((role[id] == 0) == (role[nb] == 0)))
                g.edges.push_back(graphEdge(index[id], it->second, 1.0, {{A::kKind, 0.0}}));
        }
    auto pathEdges = [&](const std::vector<int32_t>& path, double kind) {
        if (!path.empty())
            g.edges.push_back(graphEdge(qi, index[path.front()], 2.0, {{A::kKind, kind}}));
        for (size_t s = 1; s < path.size(); ++s)
            g.edges.push_back(graphEdge(index[path[s - 1]], index[path[s]], 2.0, {{A::kKind, kind}}));
    };
    pathEdges(path1, 1.0);
    pathEdges(path2, 2.0);
    return g;
}

} // namespace pl::search::bimetric
