#include "gridworld/DeephaAgent.h"

#include <algorithm>

namespace pl::gridworld {

namespace {

/// Context tokens before step t of history h.
std::vector<int> contextAt(const std::vector<StepRecord>& h, int t, int H, int m, ContextKind kind,
                           const Vocabulary& v) {
    std::vector<int> out;
    const int first = std::max(0, t - H);
    auto full = [&](const StepRecord& r) {
        for (int tok : {r.tokens.l3, r.tokens.l2, r.tokens.l1})
            if (tok >= 0)
                out.push_back(tok);
    };
    switch (kind) {
    case ContextKind::None:
        break;
    case ContextKind::Full:
        for (int k = first; k < t; ++k)
            full(h[size_t(k)]);
        break;
    case ContextKind::L1Only:
    case ContextKind::L3Only:
        for (int k = first; k < t; ++k) {
            const int tok = kind == ContextKind::L1Only ? h[size_t(k)].tokens.l1 : h[size_t(k)].tokens.l3;
            if (tok >= 0)
                out.push_back(tok);
        }
        break;
    case ContextKind::Compressed: {
        const int recent = std::max(first, t - m);
        int last = -2;
        for (int k = first; k < recent; ++k) {
            const StepRecord& r = h[size_t(k)];
            if (r.tokens.l3 >= 0 && r.tokens.l3 != last)
                out.push_back(r.tokens.l3);
            last = r.tokens.l3;
            if (r.done)
                out.push_back(v.done());
        }
        for (int k = recent; k < t; ++k)
            full(h[size_t(k)]);
        break;
    }
    }
    return out;
}

/// Input row layout: [observation | L3 prefix one-hot | L2 prefix one-hot | context bag].
struct Layout {
    int obs = 0, n3 = 0, n2 = 0, vocab = 0;
    int size() const { return obs + n3 + n2 + vocab; }
};

Layout layoutOf(const RecipeBook& book, const Vocabulary& v) {
    return {observationSize(book, v), v.count(Level::L3), v.count(Level::L2), v.size()};
}

template <class Obs>
void fillInput(const Layout& L, const Vocabulary& v, const Obs& obs, int l3, int l2,
               const std::vector<int>& ctx, Eigen::Ref<Eigen::RowVectorXd> out) {
    out.setZero();
    out.head(L.obs) = obs;
    if (l3 >= 0)
        out(L.obs + l3 - v.begin(Level::L3)) = 1;
    if (l2 >= 0)
        out(L.obs + L.n3 + l2 - v.begin(Level::L2)) = 1;
    for (int tok : ctx)
        out(L.obs + L.n3 + L.n2 + tok) = std::min(1.0, out(L.obs + L.n3 + L.n2 + tok) + 0.25);
}

/// One training sample: demo, step, and which tokens form the prefix (0: none, 1: L3, 2: L3 + L2).
struct SampleRef {
    int demo = 0, step = 0, prefix = 0;
};

constexpr ContextKind kContextOf[kModes] = {ContextKind::L1Only, ContextKind::Full, ContextKind::Compressed,
                                            ContextKind::L3Only, ContextKind::None};

} // namespace

std::vector<int> contextTokens(const std::vector<StepRecord>& h, int H, int m, ContextKind kind,
                               const Vocabulary& v) {
    return contextAt(h, int(h.size()), H, m, kind, v);
}

Demo expertEpisode(const RecipeBook& book, const Vocabulary& v, const GridMap& map, AgentState s, int goal,
                   int cap, double noise, Rng* rng) {
    Demo d;
    std::vector<Eigen::VectorXd> rows;
    for (int t = 0; t < cap; ++t) {
        if (s.inventory[size_t(goal)] > 0) {
            d.success = true;
            break;
        }
        const ChainTokens tok = expertTokens(book, v, map, s, goal);
        rows.push_back(observe(book, v, map, s, goal));
        const int item = tok.l3 - v.begin(Level::L3);
        const int before = s.inventory[size_t(item)];
        const bool perturb = noise > 0 && rng && rng->uniform() < noise;
        const int executed =
            perturb ? v.begin(Level::L1) + int(rng->uniformInt(uint64_t(v.count(Level::L1)))) : tok.l1;
        applyAction(book, v, map, s, executed);
        d.steps.push_back({tok, s.inventory[size_t(item)] > before});
    }
    if (!d.success && s.inventory[size_t(goal)] > 0)
        d.success = true;
    d.obs.resize(Eigen::Index(rows.size()), observationSize(book, v));
    for (size_t r = 0; r < rows.size(); ++r)
        d.obs.row(Eigen::Index(r)) = rows[r].transpose();
    return d;
}

Policies trainPolicies(const RecipeBook& book, const Vocabulary& v, const std::vector<Demo>& demos,
                       const AgentSettings& s, Rng rng, RunContext& ctx) {
    const Layout L = layoutOf(book, v);
    Policies p;
    for (int model = 0; model < kModes; ++model) {
        std::vector<SampleRef> refs;
        std::vector<int> labels;
        for (int d = 0; d < int(demos.size()); ++d)
            for (int t = 0; t < int(demos[size_t(d)].steps.size()); ++t) {
                const ChainTokens& tok = demos[size_t(d)].steps[size_t(t)].tokens;
                auto add = [&](int prefix, int label) {
                    refs.push_back({d, t, prefix});
                    labels.push_back(label);
                };
                if (model == 0) {
                    add(0, tok.l1);
                } else if (model == 1 || model == 2) {
                    add(0, tok.l3);
                    add(1, tok.l2);
                    add(2, tok.l1);
                } else if (model == 3) {
                    add(0, tok.l3);
                } else {
                    add(1, tok.l1);
                }
            }
        const ContextKind kind = kContextOf[model];
        auto row = [&](int i, Eigen::RowVectorXd& out) {
            const SampleRef& r = refs[size_t(i)];
            const Demo& d = demos[size_t(r.demo)];
            const ChainTokens& tok = d.steps[size_t(r.step)].tokens;
            fillInput(L, v, d.obs.row(r.step), r.prefix >= 1 ? tok.l3 : -1, r.prefix >= 2 ? tok.l2 : -1,
                      contextAt(d.steps, r.step, s.history, s.fullWindow, kind, v), out);
        };
        Rng init = rng.fork("init " + std::to_string(model));
        MlpClassifier net(L.size(), s.hidden, v.size(), init);
        Rng batches = rng.fork("batches " + std::to_string(model));
        FitOptions o;
        o.iterations = s.iterations;
        o.learningRate = s.learningRate;
        if (!refs.empty())
            p.curves.push_back(net.fit(int(refs.size()), row, labels, o, batches, ctx));
        else
            p.curves.emplace_back();
        p.models.push_back(std::move(net));
        ctx.progress(0.2 + 0.12 * (model + 1), "behaviour cloning");
    }
    return p;
}

namespace {

int argmaxLevel(const MlpClassifier& net, const Layout& L, const Vocabulary& v, const Eigen::VectorXd& obs,
                int l3, int l2, const std::vector<int>& ctx, Level level) {
    Eigen::RowVectorXd x(L.size());
    fillInput(L, v, obs.transpose(), l3, l2, ctx, x);
    const Eigen::VectorXd z = net.logits(x.transpose());
    int best = v.begin(level);
    for (int k = v.begin(level); k < v.begin(level) + v.count(level); ++k)
        if (z(k) > z(best))
            best = k;
    return best;
}

} // namespace

Episode rollout(const Policies& p, Mode mode, const RecipeBook& book, const Vocabulary& v, const GridMap& map,
                int goal, const AgentSettings& s) {
    const Layout L = layoutOf(book, v);
    const int model = mode == Mode::Direct          ? 0
                      : mode == Mode::CoaCompressed ? 2
                      : mode == Mode::HaDecoupled   ? 3
                                                    : 1;
    const MlpClassifier& net = p.models[size_t(model)];
    const int timeout = 3 * std::max(map.rows, map.cols);
    Episode e;
    AgentState st = startState(book, map);
    int haSkill = -1, haSince = 0;
    for (int t = 0; t < s.episodeCap && !e.success; ++t) {
        const Eigen::VectorXd obs = observe(book, v, map, st, goal);
        const std::vector<int> ctx = contextAt(e.steps, t, s.history, s.fullWindow, kContextOf[model], v);
        e.cells.push_back(st.cell);
        e.contextSizes.push_back(int(ctx.size()));
        e.expertL3.push_back(expertTokens(book, v, map, st, goal).l3);
        ChainTokens out;
        if (mode == Mode::Direct) {
            out.l1 = argmaxLevel(net, L, v, obs, -1, -1, ctx, Level::L1);
        } else if (mode == Mode::HaDecoupled) {
            if (haSkill < 0) {
                haSkill = argmaxLevel(net, L, v, obs, -1, -1, ctx, Level::L3);
                haSince = t;
            }
            out.l3 = haSkill;
            out.l1 = argmaxLevel(p.models[4], L, v, obs, haSkill, -1, {}, Level::L1);
        } else {
            out.l3 = argmaxLevel(net, L, v, obs, -1, -1, ctx, Level::L3);
            out.l2 = argmaxLevel(net, L, v, obs, out.l3, -1, ctx, Level::L2);
            const int nav =
                mode == Mode::CoaEager && out.l2 != v.hereToken()
                    ? firstMoveToTile(map, st.cell, v.tiles()[size_t(out.l2 - v.begin(Level::L2))])
                    : -1;
            out.l1 = nav >= 0 && nav < 4 ? v.moveToken(nav)
                                         : argmaxLevel(net, L, v, obs, out.l3, out.l2, ctx, Level::L1);
        }
        const int item = out.l3 >= 0 ? out.l3 - v.begin(Level::L3) : -1;
        const int before = item >= 0 ? st.inventory[size_t(item)] : 0;
        applyAction(book, v, map, st, out.l1);
        const bool done = item >= 0 && st.inventory[size_t(item)] > before;
        e.steps.push_back({out, done});
        if (mode == Mode::HaDecoupled && (done || t + 1 - haSince >= timeout))
            haSkill = -1; // the termination detector fires
        e.success = st.inventory[size_t(goal)] > 0;
        for (size_t i = 0; i < book.items.size(); ++i)
            if (st.inventory[i] > 0 &&
                std::find(e.obtained.begin(), e.obtained.end(), int(i)) == e.obtained.end())
                e.obtained.push_back(int(i));
    }
    std::sort(e.obtained.begin(), e.obtained.end());
    return e;
}

} // namespace pl::gridworld
