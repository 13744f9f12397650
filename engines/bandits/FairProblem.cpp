#include "FairProblem.h"

#include "core/Errors.h"
#include "core/Numeric.h"

#include <Eigen/Cholesky>

#include <algorithm>
#include <cctype>
#include <cmath>

namespace pl::bandits {

namespace {

LinearProblem standIn(const FairProblemSpec& s, uint64_t seed) {
    Rng rng = Rng(seed).fork("arms");
    LinearProblem P;
    P.X.resize(s.K, s.d);
    for (int i = 0; i < s.K; ++i) {
        for (int j = 0; j < s.d; ++j)
            P.X(i, j) = std::fabs(rng.normal());
        P.X.row(i).normalize();
    }
    Rng tr = Rng(seed).fork("theta");
    Eigen::VectorXd theta(s.d);
    for (int j = 0; j < s.d; ++j)
        theta[j] = std::fabs(tr.normal()) + 1e-3;
    theta.normalize();
    if (s.muMin > 0) {
        Eigen::Index j0 = 0;
        theta.minCoeff(&j0);
        const double rest = std::sqrt(1 - s.muMin * s.muMin);
        const double nrest = std::sqrt(std::max(1e-300, theta.squaredNorm() - theta[j0] * theta[j0]));
        theta *= rest / nrest;
        theta[j0] = s.muMin;
        const int m = (s.K + 9) / 10;
        for (int i = 0; i < m; ++i) {
            P.X.row(s.K - 1 - i).setZero();
            P.X(s.K - 1 - i, j0) = 1.0;
        }
    }
    P.mu = P.X * theta;
    return P;
}

std::string lower(std::string s) {
    for (char& c : s)
        c = char(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

/// Refuses zero means when p ≤ 0, listing the arms (file lines).
void checkPositiveMeans(const LinearProblem& P, double p, const std::string& file,
                        const std::vector<int64_t>& lines) {
    if (p > 0)
        return;
    std::string list;
    int64_t firstLine = 0;
    int count = 0;
    for (Eigen::Index i = 0; i < P.mu.size(); ++i) {
        if (P.mu[i] > 0)
            continue;
        if (count == 0)
            firstLine = lines.empty() ? 0 : lines[size_t(i)];
        if (count < 10)
            list += (count ? ", " : "") + std::to_string(i + 1) +
                    (lines.empty() ? "" : " (line " + std::to_string(lines[size_t(i)]) + ")");
        ++count;
    }
    if (count)
        throw InputError(file,
                         "Nash/p <= 0 regret needs positive means; rescale or use p > 0. Arms with mean 0: " +
                             list + (count > 10 ? ", ..." : "") + " (" + std::to_string(count) + " in all)",
                         firstLine);
}

/// Projects a rank-deficient arm set onto its span (notes a warning).
void projectOntoSpan(LinearProblem& P, std::vector<std::string>& notes) {
    const Eigen::MatrixXd B = spanBasis(P.X);
    const int r = int(B.cols());
    if (r >= P.X.cols() || r == 0)
        return;
    notes.push_back("warning: the arms span only " + std::to_string(r) + " of " + std::to_string(P.X.cols()) +
                    " dimensions; they were projected onto their span (d = " + std::to_string(r) + ").");
    P.X = P.X * B;
}

LinearProblem fromFiles(const InputList& inputs, const FairProblemSpec& s, uint64_t seed,
                        std::vector<std::string>& notes) {
    const ArmsInput* arms = nullptr;
    const ArmsInput* theta = nullptr;
    for (const auto& in : inputs) {
        const auto* a = dynamic_cast<const ArmsInput*>(in.get());
        if (!a)
            throw InputError(in->path, "not a table loaded by fair-linear-bandits");
        (a->table.values.rows() == 1 && inputs.size() == 2 ? theta : arms) = a;
    }
    if (!arms)
        throw InputError(inputs[0]->path, "an arms table needs at least 2 rows (one arm per row)");
    const NumericTable& t = arms->table;
    const bool muColumn = !t.header.empty() && lower(t.header.back()) == "mu";
    const int d = int(t.values.cols()) - (muColumn ? 1 : 0);
    if (d < 1)
        throw InputError(arms->path, "no feature columns besides mu", t.lines.front());
    if (t.values.rows() < 2)
        throw InputError(arms->path, "an arms table needs at least 2 rows (one arm per row)",
                         t.lines.front());
    LinearProblem P;
    P.X = t.values.leftCols(d);
    if (theta) {
        if (theta->table.values.cols() != d)
            throw InputError(theta->path,
                             "theta* has " + std::to_string(theta->table.values.cols()) +
                                 " numbers, the arms " + std::to_string(d),
                             theta->table.lines.front());
        P.mu = P.X * theta->table.values.row(0).transpose();
        if (muColumn)
            notes.push_back("The mu column of " + arms->path + " is ignored: theta* is given.");
    } else if (muColumn) {
        P.mu = t.values.col(d);
    } else {
        Rng tr = Rng(seed).fork("theta");
        Eigen::VectorXd th(d);
        for (int j = 0; j < d; ++j)
            th[j] = std::fabs(tr.normal()) + 1e-3;
        P.mu = P.X * th.normalized();
        notes.push_back("No mu column and no theta*: theta* was drawn positive and unit-norm.");
    }
    const std::string& muFile = theta ? theta->path : arms->path;
    for (Eigen::Index i = 0; i < P.mu.size(); ++i)
        if (!(P.mu[i] >= 0 && P.mu[i] <= 1))
            throw InputError(muFile,
                             "mean of arm " + std::to_string(i + 1) + " (line " +
                                 std::to_string(t.lines[size_t(i)]) + " of " + arms->path + ") is " +
                                 formatSignificant(P.mu[i], 4) + ", outside [0, 1]" +
                                 (muColumn || theta ? ""
                                                    : ": give a mu column or theta*, or arms with "
                                                      "non-negative entries and norm <= 1"),
                             theta ? theta->table.lines.front() : t.lines[size_t(i)]);
    checkPositiveMeans(P, s.p, arms->path, t.lines);
    if (muColumn && !theta) {
        const Eigen::MatrixXd Y = P.X * spanBasis(P.X); // full column rank
        const Eigen::VectorXd fit = (Y.transpose() * Y).ldlt().solve(Y.transpose() * P.mu);
        const double resid = (Y * fit - P.mu).cwiseAbs().maxCoeff();
        if (resid > 1e-6)
            notes.push_back("The mu column is not linear in the features (largest least-squares residual " +
                            formatSignificant(resid, 3) + "): the learners' linear model is misspecified.");
    }
    projectOntoSpan(P, notes);
    return P;
}

} // namespace

LinearProblem buildFairProblem(const InputList& inputs, const FairProblemSpec& spec, uint64_t seed,
                               std::vector<std::string>& notes) {
    if (inputs.size() > 2)
        throw UsageError("fair-linear-bandits takes at most two files (arms, theta*)");
    LinearProblem P = inputs.empty() ? standIn(spec, seed) : fromFiles(inputs, spec, seed, notes);
    if (inputs.empty())
        checkPositiveMeans(P, spec.p, "<stand-in>", {});
    P.muStar = P.mu.maxCoeff();
    return P;
}

} // namespace pl::bandits
