#include "streams/SketchRuns.h"

#include "core/Numeric.h"
#include "core/ResultBuilders.h"
#include "streams/RobustSketch.h"

#include <algorithm>
#include <cmath>

namespace pl::streams {

double SketchTrack::finalError() const {
    return trueFinal > 0 ? std::abs(estimateFinal - trueFinal) / trueFinal : kNaN;
}

double SketchTrack::accuracy() const {
    return queries > 0 ? double(correct) / double(queries) : kNaN;
}

std::unique_ptr<ResettableSketch> makeSketch(const std::string& name, const SketchSetup& s, Rng rng) {
    if (name == "baseline")
        return std::make_unique<BaselineSketch>(s.k, s.levels, s.f, KeyedHash(rng));
    if (name == "robust")
        return std::make_unique<RobustSketch>(s.k, s.levels, s.f, s.epsilon, s.T, s.restart, rng);
    if (name == "switching")
        return std::make_unique<SwitchingSketch>(s.copies, s.switchAlpha, s.k, s.levels, s.f, rng);
    return std::make_unique<ExactSketch>(s.f);
}

namespace {

int64_t strideOf(int64_t T) {
    return std::max<int64_t>(1, T / 1024);
}

/// Zipf(1.1) over {0, …, n−1} by inverse CDF on a table.
class Zipf {
public:
    explicit Zipf(int64_t n) : m_cdf(size_t(std::max<int64_t>(n, 1))) {
        double c = 0;
        for (size_t i = 0; i < m_cdf.size(); ++i)
            m_cdf[i] = c += std::pow(double(i + 1), -1.1);
        for (double& v : m_cdf)
            v /= c;
    }
    uint64_t operator()(Rng& r) const {
        const double u = r.uniform();
        return uint64_t(std::upper_bound(m_cdf.begin(), m_cdf.end() - 1, u) - m_cdf.begin());
    }

private:
    std::vector<double> m_cdf;
};

void observe(SketchTrack& tr, int64_t ops, double F, const ResettableSketch& sk, bool point) {
    const double e = sk.estimate();
    const double eFinite = std::isfinite(e) ? e : 0.0;
    tr.pm.add(F, eFinite);
    tr.peakMemory = std::max(tr.peakMemory, sk.memory());
    tr.trueFinal = F;
    tr.estimateFinal = eFinite;
    if (point) {
        addPoint(tr.truth, double(ops), F);
        addPoint(tr.estimate, double(ops), e);
        addPoint(tr.prefixError, double(ops), tr.pm.value());
        addPoint(tr.memory, double(ops), double(sk.memory()));
    }
}

SketchTrack emptyTrack(const std::string& name) {
    SketchTrack tr;
    tr.name = name;
    tr.truth = emptySeries("operations", "true F");
    tr.estimate = emptySeries("operations", "estimate F̂");
    tr.prefixError = emptySeries("operations", "prefix-max relative error");
    tr.memory = emptySeries("operations", "stored entries");
    tr.attackAccuracy = emptySeries("attack queries", "attacker accuracy (running)");
    return tr;
}

void capture(SketchTrack& tr, const ResettableSketch& sk, int64_t op) {
    const auto* rs = dynamic_cast<const RobustSketch*>(&sk);
    const TreeMechanism* tree = rs ? rs->answeringTree() : nullptr;
    if (!tree || tree->steps() == 0)
        return;
    TreeSnapshot& s = tr.tree;
    s.t = tree->steps();
    s.op = op;
    s.levels = tree->levels();
    s.b = tree->scale();
    s.liveLevel = int(std::lround(std::log2(sk.answerWeight())));
    for (int i = 0; i < s.levels; ++i) {
        const bool on = (uint64_t(s.t) >> i) & 1u;
        s.noise.push_back(on ? tree->nodeNoise(i) : kNaN);
        s.sum.push_back(on ? tree->nodeSum(i) : kNaN);
    }
    s.exact = tree->exact();
    s.released = tree->released();
    tr.captured = true;
}

void finalize(SketchTrack& tr, const ResettableSketch& sk, int64_t op) {
    if (const auto* w = dynamic_cast<const SwitchingSketch*>(&sk))
        tr.flips = w->flips();
    if (!tr.captured)
        capture(tr, sk, op);
}

} // namespace

std::vector<StreamOp> generatedOps(const std::string& workload, const SketchSetup& s, Rng rng) {
    std::vector<StreamOp> ops;
    ops.reserve(size_t(s.T));
    const bool unlearning = workload == "unlearning";
    constexpr int64_t kPerUser = 16;
    const Zipf zipf(unlearning ? std::max<int64_t>(1, s.universe / kPerUser) : s.universe);
    while (int64_t(ops.size()) < s.T) {
        const int64_t t = int64_t(ops.size());
        if (!unlearning) {
            const uint64_t x = zipf(rng);
            if (rng.uniform() < 0.85)
                ops.push_back({t, false, x, double(1 + rng.uniformInt(4))});
            else
                ops.push_back({t, true, x, 0});
            continue;
        }
        if (rng.uniform() < 0.97) {
            const uint64_t user = zipf(rng);
            ops.push_back(
                {t, false, user * kPerUser + rng.uniformInt(kPerUser), double(1 + rng.uniformInt(4))});
            continue;
        }
        const uint64_t user = zipf(rng);
        for (int64_t j = 0; j < kPerUser && int64_t(ops.size()) < s.T; ++j)
            ops.push_back({int64_t(ops.size()), true, user * kPerUser + uint64_t(j), 0});
    }
    return ops;
}

FixedStreamRun::FixedStreamRun(const std::vector<std::string>& names, const SketchSetup& s, uint64_t seed)
    : m_setup(s), m_exact(s.f), m_stride(strideOf(s.T)) {
    for (const std::string& n : names) {
        m_sketches.push_back(makeSketch(n, s, Rng(seed).fork("sketch " + n)));
        m_tracks.push_back(emptyTrack(n));
    }
}

void FixedStreamRun::apply(const StreamOp& op) {
    m_exact.apply(op);
    ++m_ops;
    const bool point = m_ops % m_stride == 0;
    const int64_t treeT = m_setup.treeT > 0 ? m_setup.treeT : std::max<int64_t>(1, 2 * m_setup.T / 3);
    for (size_t i = 0; i < m_sketches.size(); ++i) {
        m_sketches[i]->apply(op);
        observe(m_tracks[i], m_ops, m_exact.estimate(), *m_sketches[i], point);
        if (m_ops == treeT)
            capture(m_tracks[i], *m_sketches[i], m_ops);
    }
}

std::vector<SketchTrack> FixedStreamRun::finish() {
    for (size_t i = 0; i < m_sketches.size(); ++i) {
        SketchTrack& tr = m_tracks[i];
        if (m_ops % m_stride != 0 && m_ops > 0)
            observe(tr, m_ops, m_exact.estimate(), *m_sketches[i], true);
        finalize(tr, *m_sketches[i], m_ops);
    }
    return std::move(m_tracks);
}

SketchTrack runAttack(const std::string& name, const SketchSetup& s, uint64_t seed, RunContext& ctx) {
    auto sk = makeSketch(name, s, Rng(seed).fork("sketch " + name));
    ExactSketch exact(s.f);
    SketchTrack tr = emptyTrack(name);
    const int64_t stride = strideOf(s.T), treeT = s.treeT > 0 ? s.treeT : std::max<int64_t>(1, 2 * s.T / 3);
    const double unit = s.f(1.0);
    int64_t ops = 0;
    uint64_t fresh = 0;
    auto step = [&](const StreamOp& op) {
        exact.apply(op);
        sk->apply(op);
        ++ops;
        observe(tr, ops, exact.estimate(), *sk, ops % stride == 0 || ops == s.T);
        if (ops == treeT)
            capture(tr, *sk, ops);
        if ((ops & 4095) == 0)
            ctx.throwIfCancelled();
    };
    const int64_t burst = std::min<int64_t>(s.k + 1, s.T / 2);
    for (int64_t i = 0; i < burst; ++i)
        step({ops, false, fresh + uint64_t(i), 1});
    for (int64_t i = 0; i < burst; ++i)
        step({ops, true, fresh + uint64_t(i), 0});
    fresh += uint64_t(burst);
    while (ops < s.T) {
        const uint64_t x = fresh++;
        const double before = sk->estimate();
        step({ops, false, x, 1});
        const double after = sk->estimate();
        const bool guess = std::isfinite(after) && std::isfinite(before) &&
                           after - before >= 0.5 * unit * sk->answerWeight();
        ++tr.queries;
        tr.correct += guess == sk->answersWith(x);
        if (tr.queries % 64 == 0)
            addPoint(tr.attackAccuracy, double(tr.queries), tr.accuracy());
        if (guess && ops < s.T)
            step({ops, true, x, 0});
    }
    finalize(tr, *sk, ops);
    return tr;
}

} // namespace pl::streams
