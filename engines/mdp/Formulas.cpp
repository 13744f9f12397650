#include "mdp/Formulas.h"

#include "core/Numeric.h"

namespace pl::mdp {

namespace {

Eigen::VectorXd expectation(const Mdp& m, int a, const Eigen::VectorXd& f) {
    Eigen::VectorXd e = Eigen::VectorXd::Zero(m.states);
    for (int s = 0; s < m.states; ++s)
        for (const Transition& t : m.row(s, a))
            e(s) += t.p * f(t.next);
    return e;
}

} // namespace

FormulaValue sampleFormula(const Mdp& m, double gamma, int maxDepth, Rng& rng) {
    const int kind = maxDepth <= 0 ? int(rng.uniformInt(2)) : int(rng.uniformInt(7));
    const int a = int(rng.uniformInt(uint64_t(m.actions)));
    FormulaValue out;
    switch (kind) {
    case 0: {
        const double c = rng.uniform();
        out.value = Eigen::VectorXd::Constant(m.states, c);
        out.text = formatFixed(c, 2);
        return out;
    }
    case 1:
        out.value = m.reward.col(a);
        out.text = "R" + std::to_string(a);
        return out;
    case 2: {
        FormulaValue f = sampleFormula(m, gamma, maxDepth - 1, rng);
        out.value = Eigen::VectorXd::Ones(m.states) - f.value;
        out.text = "1-" + f.text;
        return out;
    }
    case 3:
    case 4: {
        FormulaValue f = sampleFormula(m, gamma, maxDepth - 1, rng);
        FormulaValue g = sampleFormula(m, gamma, maxDepth - 1, rng);
        if (kind == 3)
            out.value = f.value.cwiseMin(g.value);
        else
            out.value = f.value.cwiseMax(g.value);
        out.text = std::string(kind == 3 ? "min(" : "max(") + f.text + "," + g.text + ")";
        return out;
    }
    case 5: {
        FormulaValue f = sampleFormula(m, gamma, maxDepth - 1, rng);
        out.value = m.reward.col(a) + gamma * expectation(m, a, f.value);
        out.text = "<" + std::to_string(a) + ">" + f.text;
        return out;
    }
    default: {
        FormulaValue f = sampleFormula(m, gamma, maxDepth - 1, rng);
        out.value = gamma * expectation(m, a, f.value);
        out.text = "D" + std::to_string(a) + f.text;
        return out;
    }
    }
}

} // namespace pl::mdp
