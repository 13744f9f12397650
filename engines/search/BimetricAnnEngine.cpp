#include "BimetricAnnEngine.h"

#include "BimetricAnnKeys.h"
#include "core/Errors.h"
#include "search/BimetricRun.h"
#include "search/VectorFiles.h"

namespace pl::search::bimetric {

namespace P = keys::param;

std::vector<ParamSpec> BimetricAnnEngine::params() const {
    auto g = [](ParamSpec s, const char* grp) {
        s.group = grp;
        return s;
    };
    return {
        g(ParamSpec::integer(P::kQuota, "quota Q", 10, 100000, 1500,
                             "expensive (D) calls per query; the neighbour matrices and call counts use it"),
          "query"),
        g(ParamSpec::integer(P::kK, "k", 1, 100, 10, "neighbours returned; recall@k against brute force"),
          "query"),
        g(ParamSpec::integer(P::kLSearch, "l_search", 10, 10000, 500,
                             "stage-1 proxy list size is max(l_search, Q)"),
          "query"),
        g(ParamSpec::integer(P::kDegree, "degree R", 4, 128, 32, "out-degree bound of both Vamana graphs"),
          "graph"),
        g(ParamSpec::integer(P::kLBuild, "l_build", 10, 500, 75, "list size of the build searches"), "graph"),
        g(ParamSpec::real(P::kAlpha, "alpha", 1.0, 2.0, 1.2, "RobustPrune factor of the second pass"),
          "graph"),
        g(ParamSpec::integer(P::kN, "n", 200, 100000, 5000,
                             "base points of the built-in pair (the claims' scale is 20,000)"),
          "built-in pair"),
        g(ParamSpec::integer(P::kQueries, "queries", 10, 2000, 100, "query points of the built-in pair"),
          "built-in pair"),
        g(ParamSpec::integer(P::kProxyDim, "proxy_dim", 2, 128, 16,
                             "dimension of the cheap embedding (random projection of the 128-D points)"),
          "built-in pair"),
        g(ParamSpec::real(P::kProxyNoise, "proxy_noise", 0, 3, 0.5,
                          "per-item error of the cheap embedding, in RMS within-cluster radii"),
          "built-in pair"),
    };
}

std::shared_ptr<const LoadedInput> BimetricAnnEngine::load(const std::string& path) const {
    return loadVectorInput(path);
}

ResultDocument BimetricAnnEngine::run(const InputList& inputs, const ParamSet& p, RunContext& ctx) const {
    ResultDocument doc;
    std::vector<const VectorInput*> files;
    for (const auto& in : inputs) {
        const auto* v = dynamic_cast<const VectorInput*>(in.get());
        if (!v)
            throw UsageError("bimetric-ann reads .npy or .fvecs vector files only");
        files.push_back(v);
    }
    if (!files.empty() && files.size() != 4)
        throw UsageError("bimetric-ann needs four files in this order: base expensive, base proxy, queries "
                         "expensive, queries proxy (got " +
                         std::to_string(files.size()) + ")");
    if (!files.empty())
        checkBimetricFiles(files);
    runBimetric(files, p, ctx, doc);
    ctx.progress(1.0, "done");
    return doc;
}

} // namespace pl::search::bimetric
