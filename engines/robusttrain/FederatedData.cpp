#include "FederatedData.h"

#include "core/Errors.h"

#include <algorithm>
#include <map>
#include <numeric>

namespace pl::robusttrain {

namespace {

void shuffle(std::vector<int>& v, Rng& rng) {
    for (int i = int(v.size()) - 1; i > 0; --i)
        std::swap(v[size_t(i)], v[size_t(rng.uniformInt(uint64_t(i) + 1))]);
}

std::vector<int> splitOnce(const std::vector<std::vector<int>>& byClass, size_t rows, int clients,
                           double alpha, Rng& rng) {
    std::vector<int> out(rows, 0);
    for (std::vector<int> idx : byClass) {
        shuffle(idx, rng);
        std::vector<double> p(static_cast<size_t>(clients));
        double s = 0;
        for (double& v : p)
            s += v = rng.gamma(alpha);
        double cum = 0;
        size_t start = 0;
        for (int k = 0; k < clients; ++k) {
            cum += s > 0 ? p[size_t(k)] / s : 1.0 / clients;
            const size_t end = k + 1 == clients
                                   ? idx.size()
                                   : std::min(idx.size(), size_t(std::lround(cum * double(idx.size()))));
            for (size_t i = start; i < end; ++i)
                out[size_t(idx[i])] = k;
            start = std::max(start, end);
        }
    }
    return out;
}

} // namespace

std::vector<std::vector<int>> membersOf(const std::vector<int>& client, int clients) {
    std::vector<std::vector<int>> m(size_t(std::max(clients, 0)));
    for (size_t i = 0; i < client.size(); ++i)
        m[size_t(client[i])].push_back(int(i));
    return m;
}

std::vector<int> dirichletSplit(const std::vector<int>& y, int classes, int clients, double alpha, Rng rng,
                                int minRows) {
    std::vector<std::vector<int>> byClass(static_cast<size_t>(classes));
    for (size_t i = 0; i < y.size(); ++i)
        byClass[size_t(y[i])].push_back(int(i));
    std::vector<int> out;
    for (int attempt = 0; attempt < 100; ++attempt) {
        out = splitOnce(byClass, y.size(), clients, alpha, rng);
        std::vector<int> size(size_t(clients), 0);
        for (int k : out)
            ++size[size_t(k)];
        if (*std::min_element(size.begin(), size.end()) >= minRows)
            break;
    }
    return out;
}

InjectedNoise injectLabelNoise(const std::vector<int>& clean, const std::vector<int>& client, int clients,
                               int classes, LabelNoise kind, double lo, double hi, const Rng& rng) {
    InjectedNoise n;
    n.observed = clean;
    n.rate.resize(size_t(clients));
    n.pairFlip.resize(size_t(clients));
    const std::vector<std::vector<int>> members = membersOf(client, clients);
    for (int k = 0; k < clients; ++k) {
        Rng r = rng.fork("client/" + std::to_string(k));
        const double rate = r.uniform(lo, hi);
        const bool pair = kind == LabelNoise::PairFlip || (kind == LabelNoise::Mixed && r.uniformInt(2) == 1);
        n.rate[size_t(k)] = rate;
        n.pairFlip[size_t(k)] = pair ? 1 : 0;
        for (int i : members[size_t(k)]) {
            if (r.uniform() >= rate || classes < 2)
                continue;
            const int y = clean[size_t(i)];
            n.observed[size_t(i)] =
                pair ? (y + 1) % classes : (y + 1 + int(r.uniformInt(uint64_t(classes - 1)))) % classes;
        }
    }
    return n;
}

namespace {

Dataset synthetic(const FederationConfig& c, int n, const Rng& root, const char* stream) {
    if (c.dataset == "spirals")
        return makeSpirals(n, 0.04, root.fork(stream));
    if (c.dataset == "glyphs")
        return makeGlyphs(n, 0.3, root.fork(stream));
    return makeBlobs(c.classes, c.dim, c.separation, n, root.fork("layout"), root.fork(stream));
}

/// Test rows of the user's dataset: the `split` column, else a seeded 20 %.
std::vector<char> heldOut(const GatheredInputs& g, const Rng& root) {
    const int n = g.data.rows();
    if (g.table && !g.table->isTest.empty())
        return g.table->isTest;
    std::vector<char> held(size_t(n), 0);
    std::vector<int> order(static_cast<size_t>(n));
    std::iota(order.begin(), order.end(), 0);
    Rng split = root.fork("split");
    shuffle(order, split);
    for (size_t i = 0; i < order.size() / 5; ++i)
        held[size_t(order[i])] = 1;
    return held;
}

void fromFile(const GatheredInputs& g, const FederationConfig& c, const Rng& root, Federation& f,
              std::vector<int64_t>& fileClient, bool& hasClean) {
    const std::vector<char> held = heldOut(g, root);
    hasClean = g.table && !g.table->cleanLabel.empty();
    const bool hasClient = g.table && !g.table->clientId.empty();
    std::vector<int> tr, te;
    for (int i = 0; i < g.data.rows(); ++i)
        (held[size_t(i)] ? te : tr).push_back(i);
    if (tr.empty() || te.empty())
        throw InputError(g.dataPath, "needs both training and test rows (" + std::to_string(tr.size()) +
                                         " training, " + std::to_string(te.size()) + " test)");
    f.train = subset(g.data, tr);
    f.test = subset(g.data, te);
    f.clean = f.train.y;
    if (hasClean) {
        for (size_t i = 0; i < tr.size(); ++i)
            f.clean[i] = g.table->cleanLabel[size_t(tr[i])];
        for (size_t i = 0; i < te.size(); ++i)
            f.test.y[i] = g.table->cleanLabel[size_t(te[i])];
    }
    if (hasClient)
        for (int i : tr)
            fileClient.push_back(g.table->clientId[size_t(i)]);
    (void)c;
}

} // namespace

Federation buildFederation(const GatheredInputs& g, const FederationConfig& c, const Rng& root) {
    Federation f;
    std::vector<int64_t> fileClient;
    bool hasClean = false;
    if (g.hasData) {
        fromFile(g, c, root, f, fileClient, hasClean);
    } else {
        f.train = synthetic(c, c.clients * c.samplesPerClient, root, "train");
        f.test = synthetic(c, c.testSamples, root, "test");
        f.clean = f.train.y;
    }
    if (!fileClient.empty()) {
        std::map<int64_t, int> index;
        for (int64_t id : fileClient)
            index.emplace(id, 0);
        for (auto& [id, k] : index) {
            k = int(f.clientIds.size());
            f.clientIds.push_back(id);
        }
        for (int64_t id : fileClient)
            f.client.push_back(index.at(id));
    } else {
        const int n = std::min(c.clients, f.train.rows());
        f.client = dirichletSplit(f.clean, f.train.classes, n, c.alpha, root.fork("dirichlet"));
        for (int k = 0; k < n; ++k)
            f.clientIds.push_back(k);
    }
    f.members = membersOf(f.client, int(f.clientIds.size()));
    if (!hasClean) {
        const InjectedNoise n = injectLabelNoise(f.clean, f.client, f.clients(), f.train.classes, c.noise,
                                                 c.noiseMin, c.noiseMax, root.fork("noise"));
        f.train.y = n.observed;
        f.injectedRate = n.rate;
    }
    for (int k = 0; k < f.clients(); ++k)
        if (f.members[size_t(k)].size() < 2)
            f.notes.push_back("client " + std::to_string(f.clientIds[size_t(k)]) + " has " +
                              std::to_string(f.members[size_t(k)].size()) +
                              " training rows (fewer than 2): its sieve statistics are not meaningful");
    return f;
}

} // namespace pl::robusttrain
