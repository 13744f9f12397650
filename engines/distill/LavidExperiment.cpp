#include "LavidExperiment.h"

#include <map>
#include <utility>

namespace pl::distill {

std::pair<Eigen::RowVectorXd, Eigen::RowVectorXd> standardise(DistillData& train, DistillData& test) {
    const Eigen::RowVectorXd mu = train.X.colwise().mean();
    Eigen::RowVectorXd sd = ((train.X.rowwise() - mu).array().square().colwise().mean()).sqrt().matrix();
    for (Eigen::Index c = 0; c < sd.size(); ++c)
        if (sd(c) < 1e-9)
            sd(c) = 1.0;
    train.X = standardised(train.X, mu, sd);
    test.X = standardised(test.X, mu, sd);
    return {mu, sd};
}

Eigen::MatrixXd standardised(const Eigen::MatrixXd& X, const Eigen::RowVectorXd& mean,
                             const Eigen::RowVectorXd& sd) {
    return ((X.rowwise() - mean).array().rowwise() / sd.array()).matrix();
}

Eigen::MatrixXd cosineRows(const Eigen::MatrixXd& M) {
    Eigen::VectorXd n = M.rowwise().norm();
    Eigen::MatrixXd S = M * M.transpose();
    for (Eigen::Index i = 0; i < S.rows(); ++i)
        for (Eigen::Index j = 0; j < S.cols(); ++j)
            S(i, j) = n(i) > 0 && n(j) > 0 ? S(i, j) / (n(i) * n(j)) : 0.0;
    return S;
}

double worstGroupAccuracy(const std::vector<int>& pred, const DistillData& d) {
    std::map<std::pair<int, int>, std::pair<int, int>> cells; // (group, background) -> (hits, rows)
    const bool byCell = !d.group.empty() && !d.background.empty() && d.group[0] >= 0 && d.background[0] >= 0;
    for (int r = 0; r < d.rows(); ++r) {
        const auto key = byCell ? std::make_pair(d.group[size_t(r)], d.background[size_t(r)])
                                : std::make_pair(d.y[size_t(r)], 0);
        auto& c = cells[key];
        c.first += pred[size_t(r)] == d.y[size_t(r)];
        c.second += 1;
    }
    double worst = 1.0;
    for (const auto& [k, c] : cells)
        worst = std::min(worst, double(c.first) / c.second);
    return cells.empty() ? 0.0 : worst;
}

std::vector<double> probeAccuracy(const Student& s, const DistillData& d, const Eigen::MatrixXi& answers,
                                  int options) {
    const Eigen::MatrixXd S = s.questionScores(d.X);
    const int Q = int(answers.cols());
    std::vector<double> acc(size_t(Q), 0.0);
    if (S.cols() != Eigen::Index(Q) * options || d.rows() == 0)
        return acc;
    for (int q = 0; q < Q; ++q) {
        int hits = 0;
        for (int r = 0; r < d.rows(); ++r) {
            Eigen::Index best = 0;
            S.row(r).segment(Eigen::Index(q) * options, options).maxCoeff(&best);
            hits += int(best) == answers(d.y[size_t(r)], q);
        }
        acc[size_t(q)] = double(hits) / d.rows();
    }
    return acc;
}

Eigen::MatrixXd classMeanFeatures(const Student& s, const DistillData& d, int classes) {
    const Eigen::MatrixXd F = s.features(d.X);
    Eigen::MatrixXd M = Eigen::MatrixXd::Zero(classes, F.cols());
    Eigen::VectorXd n = Eigen::VectorXd::Zero(classes);
    for (int r = 0; r < d.rows(); ++r) {
        M.row(d.y[size_t(r)]) += F.row(r);
        n(d.y[size_t(r)]) += 1;
    }
    for (int c = 0; c < classes; ++c)
        if (n(c) > 0)
            M.row(c) /= n(c);
    return M;
}

Student trainStudent(const LavidProblem& p, const DistillData& train, const MethodTargets& t,
                     const LavidSettings& s, const Rng& init, const Rng& fit,
                     const std::function<void(double)>& poll, std::vector<double>* losses) {
    Rng ri = init, rf = fit;
    Student st(int(train.X.cols()), s.hidden, s.features, int(p.classes.size()), p.questions * p.options, ri);
    StudentTraining cfg;
    cfg.epochs = s.epochs;
    cfg.lr = s.lr;
    cfg.gamma = s.gamma;
    cfg.beta = s.beta;
    cfg.loss = s.loss;
    cfg.options = p.options;
    cfg.signatures = t.signatures;
    cfg.teacherLogits = t.teacherLogits;
    std::vector<double> l = st.train(train.X, train.y, cfg, rf, poll);
    if (losses)
        *losses = std::move(l);
    return st;
}

} // namespace pl::distill
