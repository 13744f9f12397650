#include "SpeculativeSampling.h"

#include <algorithm>
#include <cmath>

namespace pl::tinylm {

Eigen::VectorXd tempered(const Eigen::VectorXd& logits, double temperature) {
    Eigen::VectorXd p = Eigen::VectorXd::Zero(logits.size());
    if (temperature <= 0) {
        Eigen::Index best = 0;
        for (Eigen::Index i = 1; i < logits.size(); ++i)
            if (logits[i] > logits[best])
                best = i;
        p[best] = 1;
        return p;
    }
    const double mx = logits.maxCoeff();
    p = ((logits.array() - mx) / temperature).exp().matrix();
    return p / p.sum();
}

int sampleFrom(const Eigen::VectorXd& p, Rng& rng) {
    const double u = rng.uniform() * p.sum();
    double acc = 0;
    int last = 0;
    for (Eigen::Index i = 0; i < p.size(); ++i) {
        if (p[i] <= 0)
            continue;
        acc += p[i];
        last = int(i);
        if (u < acc)
            return int(i);
    }
    return last;
}

SpecStepResult verifyDrafts(const std::vector<int>& drafts, const std::vector<Eigen::VectorXd>& q,
                            const std::vector<Eigen::VectorXd>& p, Rng& rng) {
    SpecStepResult r;
    for (size_t i = 0; i < drafts.size(); ++i) {
        const int x = drafts[i];
        const double px = p[i][x], qx = q[i][x];
        // qx > 0 since x was drawn from q; accept with min(1, p/q).
        if (qx > 0 && (px >= qx || rng.uniform() < px / qx)) {
            r.tokens.push_back(x);
            ++r.accepted;
            continue;
        }
        Eigen::VectorXd res = (p[i] - q[i]).cwiseMax(0.0);
        if (!(res.sum() > 0))
            res = p[i];
        r.tokens.push_back(sampleFrom(res, rng));
        return r;
    }
    r.tokens.push_back(sampleFrom(p[drafts.size()], rng));
    return r;
}

SpecDecodeStats decodeSpeculative(const NextDist& target, const NextDist& draft,
                                  const std::vector<int>& prompt, int n, int gamma, Rng& rng) {
    SpecDecodeStats s;
    std::vector<int> seq = prompt;
    while (int(s.tokens.size()) < n) {
        std::vector<int> drafts, ctx = seq;
        std::vector<Eigen::VectorXd> q, p;
        for (int i = 0; i < gamma; ++i) {
            q.push_back(draft(ctx));
            ++s.draftCalls;
            drafts.push_back(sampleFrom(q.back(), rng));
            ctx.push_back(drafts.back());
        }
        ctx = seq;
        for (int i = 0; i <= gamma; ++i) { // one batched target call in a real system
            p.push_back(target(ctx));
            if (i < gamma)
                ctx.push_back(drafts[size_t(i)]);
        }
        ++s.targetCalls;
        const SpecStepResult r = verifyDrafts(drafts, q, p, rng);
        s.acceptLens.push_back(r.accepted);
        for (int t : r.tokens)
            if (int(s.tokens.size()) < n) {
                s.tokens.push_back(t);
                seq.push_back(t);
            }
    }
    return s;
}

std::vector<int> decodeAutoregressive(const NextDist& target, const std::vector<int>& prompt, int n,
                                      Rng& rng) {
    std::vector<int> seq = prompt, out;
    for (int i = 0; i < n; ++i) {
        out.push_back(sampleFrom(target(seq), rng));
        seq.push_back(out.back());
    }
    return out;
}

namespace {

/// Regularised lower incomplete gamma P(a, x) by its series (x < a + 1).
double gammaPSeries(double a, double x) {
    double sum = 1.0 / a, term = sum;
    for (int n = 1; n < 1000; ++n) {
        term *= x / (a + n);
        sum += term;
        if (std::abs(term) < std::abs(sum) * 1e-16)
            break;
    }
    return sum * std::exp(-x + a * std::log(x) - std::lgamma(a));
}

/// Regularised upper incomplete gamma Q(a, x) by Lentz's continued fraction (x >= a + 1).
double gammaQFraction(double a, double x) {
    const double tiny = 1e-300;
    double b = x + 1 - a, c = 1 / tiny, d = 1 / b, h = d;
    for (int i = 1; i < 1000; ++i) {
        const double an = -i * (i - a);
        b += 2;
        d = an * d + b;
        d = std::abs(d) < tiny ? tiny : d;
        c = b + an / c;
        c = std::abs(c) < tiny ? tiny : c;
        d = 1 / d;
        const double del = d * c;
        h *= del;
        if (std::abs(del - 1) < 1e-16)
            break;
    }
    return std::exp(-x + a * std::log(x) - std::lgamma(a)) * h;
}

} // namespace

double chiSquareTail(double x, double dof) {
    if (x <= 0)
        return 1.0;
    const double a = dof / 2, y = x / 2;
    return y < a + 1 ? 1.0 - gammaPSeries(a, y) : gammaQFraction(a, y);
}

} // namespace pl::tinylm
