#include "LavidWorld.h"

#include "core/Errors.h"

#include <cmath>
#include <numeric>
#include <set>

namespace pl::distill {

namespace {

std::vector<int> permutation(int n, Rng& rng) {
    std::vector<int> p(static_cast<size_t>(n));
    std::iota(p.begin(), p.end(), 0);
    for (int i = n - 1; i > 0; --i)
        std::swap(p[size_t(i)], p[size_t(rng.uniformInt(uint64_t(i) + 1))]);
    return p;
}

AttributeVector randomAttrs(Rng& rng) {
    AttributeVector a{};
    for (int k = 0; k < kAttributeTypes; ++k)
        a[size_t(k)] = int(rng.uniformInt(uint64_t(kAttributeValues[size_t(k)])));
    return a;
}

} // namespace

std::string LavidWorld::className(int c) const {
    const std::string n = std::to_string(c);
    return "class_" + std::string(n.size() < 2 ? 2 - n.size() : 0, '0') + n;
}

std::string LavidWorld::questionText(int q) const {
    return "Q" + std::to_string(q + 1) + ": which " + attributeName(questionAttr[size_t(q)]) +
           " group does this class have?";
}

LavidWorld makeLavidWorld(int classes, int questions, int options, Rng& rng) {
    if (classes < 2 || questions < 1 || options < 2)
        throw EngineError("distill::makeLavidWorld: needs >= 2 classes, >= 1 question, >= 2 options");
    LavidWorld w;
    w.options = options;
    const int families = std::max(1, classes / 5);
    std::vector<AttributeVector> bases;
    for (int f = 0; f < families; ++f)
        bases.push_back(randomAttrs(rng));
    std::set<std::vector<int>> seen;
    for (int c = 0; c < classes; ++c) {
        AttributeVector a{};
        for (int attempt = 0;; ++attempt) {
            a = bases[size_t(c % families)];
            const int changes = attempt < 200 ? 1 + int(rng.uniformInt(2)) : 3;
            for (int k = 0; k < changes; ++k) {
                const int t = int(rng.uniformInt(kRenderedAttributes));
                a[size_t(t)] = int(rng.uniformInt(uint64_t(kAttributeValues[size_t(t)])));
            }
            std::vector<int> key(a.begin(), a.begin() + kRenderedAttributes);
            if (seen.insert(key).second)
                break;
        }
        a[Habitat] = c % 2;
        a[Diet] = int(rng.uniformInt(uint64_t(kAttributeValues[Diet])));
        w.classAttrs.push_back(a);
        w.group.push_back(a[Habitat]);
    }
    for (int q = 0; q < questions; ++q) {
        const int t = q % kAttributeTypes;
        const int V = kAttributeValues[size_t(t)];
        const std::vector<int> vals = permutation(V, rng), opts = permutation(options, rng);
        std::vector<int> map(static_cast<size_t>(V));
        for (int i = 0; i < V; ++i)
            map[size_t(vals[size_t(i)])] = opts[size_t(i % options)];
        w.questionAttr.push_back(t);
        w.optionOf.push_back(map);
    }
    w.answer.resize(classes, questions);
    for (int c = 0; c < classes; ++c)
        for (int q = 0; q < questions; ++q)
            w.answer(c, q) =
                w.optionOf[size_t(q)][size_t(w.classAttrs[size_t(c)][size_t(w.questionAttr[size_t(q)])])];
    return w;
}

Eigen::MatrixXd teacherSignatures(const LavidWorld& w, double sigma, double hallucination, double margin,
                                  Rng rng) {
    const int C = w.classes(), Q = w.questions(), O = w.options;
    Eigen::MatrixXd S(C, Q * O);
    for (int c = 0; c < C; ++c)
        for (int q = 0; q < Q; ++q) {
            int ans = w.answer(c, q);
            const double u = rng.uniform();
            const int other = int(rng.uniformInt(uint64_t(O - 1)));
            if (u < hallucination)
                ans = other >= ans ? other + 1 : other;
            for (int o = 0; o < O; ++o)
                S(c, q * O + o) = (o == ans ? margin : 0.0) + sigma * rng.normal();
        }
    return S;
}

DistillData renderLavidImages(const LavidWorld& w, int perClass, double rho, Rng& rng) {
    DistillData d;
    const int C = w.classes();
    d.X.resize(Eigen::Index(C) * perClass, kImageFeatures);
    const RenderJitter j;
    const int matched = int(std::lround(rho * perClass));
    for (int c = 0; c < C; ++c)
        for (int i = 0; i < perClass; ++i) {
            const int bg = i < matched ? w.group[size_t(c)] : 1 - w.group[size_t(c)];
            d.X.row(Eigen::Index(c) * perClass + i) = renderAttributes(w.classAttrs[size_t(c)], bg, j, rng);
            d.y.push_back(c);
            d.group.push_back(w.group[size_t(c)]);
            d.background.push_back(bg);
        }
    return d;
}

std::vector<int> derangement(int n, Rng& rng) {
    std::vector<int> p(size_t(std::max(n, 0)));
    std::iota(p.begin(), p.end(), 0);
    if (n < 2)
        return p;
    for (;;) {
        p = permutation(n, rng);
        bool fixed = false;
        for (int i = 0; i < n; ++i)
            fixed = fixed || p[size_t(i)] == i;
        if (!fixed)
            return p;
    }
}

} // namespace pl::distill
