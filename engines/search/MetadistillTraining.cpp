#include "MetadistillTraining.h"

#include "CmaEs.h"
#include "OpenAiEs.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

namespace pl::search::metadistill {

namespace {
constexpr int kScratchPairs = 8;     ///< 16 candidates per from-scratch iteration
constexpr int kScratchFunctions = 2; ///< training functions per candidate
constexpr int kSsftPairs = 4;

Eigen::VectorXd uniformStart(int d, Rng& rng) {
    Eigen::VectorXd m(d);
    for (int j = 0; j < d; ++j)
        m[j] = rng.uniform(-4.0, 4.0);
    return m;
}
} // namespace

std::vector<TeacherTrajectory> collectTeachers(const std::vector<const BbobFunction*>& functions,
                                               const BudgetConfig& cfg, const Rng& rng, int64_t& evals,
                                               RunContext& ctx, const StepProgress& progress) {
    std::vector<TeacherTrajectory> out;
    int done = 0;
    for (const BbobFunction* f : functions) {
        for (int r = 0; r < cfg.teacherRuns; ++r) {
            ctx.throwIfCancelled();
            Rng g = rng.fork("teacher " + f->name() + " " + std::to_string(r));
            const Eigen::VectorXd m0 = uniformStart(cfg.d, g);
            const auto gens = runCmaEs([f](const Eigen::VectorXd& x) { return (*f)(x); }, m0, 2.0, cfg.lambda,
                                       cfg.generations, g, false);
            TeacherTrajectory t;
            t.function = f->name();
            for (size_t k = 0; k < gens.size(); ++k) {
                t.generations.push_back(int(k));
                t.means.push_back(gens[k].mean);
                t.covariances.push_back(gens[k].covariance);
            }
            evals += int64_t(gens.size()) * cfg.lambda;
            out.push_back(std::move(t));
            progress(double(++done) / double(functions.size() * size_t(cfg.teacherRuns)));
        }
    }
    return out;
}

Eigen::VectorXd distill(const Eigen::VectorXd& theta0, const std::vector<TeacherTrajectory>& teachers,
                        const std::function<const BbobFunction&(const std::string&)>& functionOf,
                        const BudgetConfig& cfg, const Rng& rng, int64_t& evals, DistillHistory& history,
                        RunContext& ctx, const StepProgress& progress) {
    // Teacher states with precision and log-det, once; a generation whose covariance lost positive
    // definiteness numerically ends its trajectory there.
    std::vector<std::vector<TeacherState>> states;
    for (const TeacherTrajectory& t : teachers) {
        std::vector<TeacherState> s;
        for (size_t k = 0; k < t.means.size(); ++k) {
            try {
                s.push_back(TeacherState::of(t.means[k], t.covariances[k]));
            } catch (const std::exception&) {
                break;
            }
        }
        states.push_back(std::move(s));
    }
    Eigen::VectorXd theta = theta0, m = Eigen::VectorXd::Zero(theta0.size()), v = m;
    Rng order = rng.fork("order");
    int step = 0;
    const int d = cfg.d;
    for (int e = 0; e < cfg.epochs; ++e) {
        const double ramp = std::min(1.0, (e + 1.0) / std::max(1.0, cfg.epochs / 2.0));
        DistillWeights c;
        c.fit *= ramp;
        c.div *= ramp;
        std::vector<size_t> idx(teachers.size());
        std::iota(idx.begin(), idx.end(), size_t(0));
        for (size_t i = idx.size(); i > 1; --i)
            std::swap(idx[i - 1], idx[size_t(order.uniformInt(i))]);
        double skl = 0, sfit = 0, sdiv = 0;
        int64_t count = 0;
        for (size_t ti : idx) {
            ctx.throwIfCancelled();
            const TeacherTrajectory& t = teachers[ti];
            const std::vector<TeacherState>& s = states[ti];
            if (s.size() < 2)
                continue;
            const BbobFunction& f = functionOf(t.function);
            Rng g = rng.fork("distill " + std::to_string(e) + " " + std::to_string(ti));
            const LesStudent student(theta);
            Eigen::VectorXd grad = Eigen::VectorXd::Zero(theta.size());
            Eigen::MatrixXd X(cfg.lambda, d);
            Eigen::VectorXd fx(cfg.lambda);
            const int last = t.generations.back();
            for (size_t k = 0; k + 1 < s.size(); ++k) {
                for (int i = 0; i < cfg.lambda; ++i) {
                    for (int j = 0; j < d; ++j)
                        X(i, j) = s[k].mean[j] + s[k].sigma[j] * g.normal();
                    fx[i] = f(X.row(i).transpose());
                }
                evals += cfg.lambda;
                DistillTerms terms;
                const double progressG = last > 0 ? double(t.generations[k]) / double(last + 1) : 0.0;
                student.distillLoss(s[k], s[k + 1], X, fx, progressG, c, &grad, &terms);
                skl += terms.kl;
                sfit += terms.fit;
                sdiv += terms.div;
                ++count;
            }
            grad /= double(s.size() - 1);
            if (grad.allFinite())
                adamStep(theta, m, v, grad, ++step, 0.01);
        }
        history.kl.push_back(count ? skl / double(count) : 0.0);
        history.fit.push_back(count ? sfit / double(count) : 0.0);
        history.div.push_back(count ? sdiv / double(count) : 0.0);
        progress(double(e + 1) / double(cfg.epochs));
    }
    return theta;
}

double runLoss(const LesStudent& s, const BbobFunction& f, const BudgetConfig& cfg, Rng rng) {
    const auto best =
        s.run([&f](const Eigen::VectorXd& x) { return f(x); }, cfg.d, cfg.lambda, cfg.generations, rng);
    return std::log10(std::max(best.back(), 1e-10));
}

std::vector<double> randomSearchCurve(const BbobFunction& f, int d, int lambda, int generations, Rng rng) {
    std::vector<double> c;
    double best = std::numeric_limits<double>::infinity();
    Eigen::VectorXd x(d);
    for (int g = 0; g < generations; ++g) {
        for (int k = 0; k < lambda; ++k) {
            for (int j = 0; j < d; ++j)
                x[j] = rng.uniform(-4.0, 4.0);
            best = std::min(best, f(x));
        }
        c.push_back(best);
    }
    return c;
}

int64_t scratchIterationEvals(const BudgetConfig& cfg) {
    return int64_t(2 * kScratchPairs) * kScratchFunctions * cfg.generations * cfg.lambda;
}

Eigen::VectorXd trainFromScratch(const Eigen::VectorXd& theta0, const std::vector<const BbobFunction*>& train,
                                 const BudgetConfig& cfg, int iterations, const Rng& rng, int64_t& evals,
                                 RunContext& ctx, const StepProgress& progress) {
    OpenAiEsConfig ec;
    ec.pairs = kScratchPairs;
    ec.noise = 0.1;
    ec.learningRate = 0.03;
    OpenAiEs es(theta0, ec);
    for (int it = 0; it < iterations; ++it) {
        Rng g = rng.fork("scratch " + std::to_string(it));
        const Eigen::MatrixXd cand = es.ask(g);
        std::vector<size_t> fns;
        for (int k = 0; k < kScratchFunctions; ++k)
            fns.push_back(size_t(g.uniformInt(train.size())));
        const uint64_t crn = g.next();
        Eigen::VectorXd loss = Eigen::VectorXd::Zero(cand.rows());
        for (Eigen::Index c = 0; c < cand.rows(); ++c) {
            ctx.throwIfCancelled();
            const LesStudent s(cand.row(c).transpose());
            for (size_t k = 0; k < fns.size(); ++k)
                loss[c] += runLoss(s, *train[fns[k]], cfg, Rng(crn).fork(std::to_string(k)));
            evals += int64_t(fns.size()) * cfg.generations * cfg.lambda;
        }
        es.tell(loss);
        progress(double(it + 1) / double(iterations));
    }
    return es.theta();
}

Eigen::VectorXd fineTune(const Eigen::VectorXd& theta, const BbobFunction& f, const BudgetConfig& cfg,
                         const Rng& rng, RunContext& ctx) {
    OpenAiEsConfig ec;
    ec.pairs = kSsftPairs;
    ec.noise = 0.05;
    ec.learningRate = 0.02;
    OpenAiEs es(theta, ec);
    for (int it = 0; it < cfg.ssftSteps; ++it) {
        Rng g = rng.fork("ssft " + std::to_string(it));
        const Eigen::MatrixXd cand = es.ask(g);
        const uint64_t crn = g.next();
        Eigen::VectorXd loss(cand.rows());
        for (Eigen::Index c = 0; c < cand.rows(); ++c) {
            ctx.throwIfCancelled();
            loss[c] = runLoss(LesStudent(cand.row(c).transpose()), f, cfg, Rng(crn));
        }
        es.tell(loss);
    }
    return es.theta();
}

} // namespace pl::search::metadistill
