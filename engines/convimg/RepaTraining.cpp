#include "convimg/RepaTraining.h"

#include "convimg/DarcyTape.h"
#include "core/Errors.h"

#include <cmath>

namespace pl::convimg {

namespace {

MapShape shapeOf(const RepaProblem& pr, size_t batch) {
    return {int(batch), pr.n, pr.n};
}

Mat normalNoise(Eigen::Index rows, Eigen::Index cols, Rng& rng) {
    Mat m(rows, cols);
    for (Eigen::Index j = 0; j < cols; ++j)
        for (Eigen::Index i = 0; i < rows; ++i)
            m(i, j) = rng.normal();
    return m;
}

/// Row r of a multi-row Var (a 1 x cols Var).
Var rowOf(Var v, int r) {
    if (v.rows() == 1)
        return v;
    return nn::transpose(nn::sliceCols(nn::transpose(v), r, 1));
}

/// Mean R^2 of a network output, on the tape.
Var residualLoss(Var out, const RepaProblem& pr, const FieldSet& set, const std::vector<int>& idx,
                 const MapShape& s) {
    nn::Tape& t = *out.tape;
    const Var p = nn::addScalar(nn::scale(rowOf(out, 0), pr.pScale), pr.pMean);
    Var K;
    if (pr.task == DarcyTask::Conditional) {
        Mat k(1, s.columns());
        const int n = pr.n;
        for (size_t b = 0; b < idx.size(); ++b)
            for (int i = 0; i < s.pixels(); ++i)
                k(0, Eigen::Index(b) * s.pixels() + i) = set.K[size_t(idx[b])](i / n, i % n);
        K = t.constant(std::move(k));
    } else {
        K = nn::exp(nn::addScalar(nn::scale(rowOf(out, 1), pr.lkScale), pr.lkMean));
    }
    std::vector<double> g;
    for (int i : idx)
        g.push_back(set.g[size_t(i)]);
    return nn::mean(nn::square(fvResidualOp(p, K, s, pr.f, pr.task, g)));
}

} // namespace

Mat RepaProblem::x0Of(const FieldSet& set, const std::vector<int>& idx) const {
    const int P = n * n;
    Mat x(outChannels(), Eigen::Index(idx.size()) * P);
    for (size_t b = 0; b < idx.size(); ++b) {
        const auto& p = set.p[size_t(idx[b])];
        const auto& K = set.K[size_t(idx[b])];
        for (int i = 0; i < P; ++i) {
            x(0, Eigen::Index(b) * P + i) = (p(i / n, i % n) - pMean) / pScale;
            if (task == DarcyTask::Joint)
                x(1, Eigen::Index(b) * P + i) = (std::log(K(i / n, i % n)) - lkMean) / lkScale;
        }
    }
    return x;
}

Mat RepaProblem::inputOf(const Mat& xt, const FieldSet& set, const std::vector<int>& idx) const {
    const int P = n * n, oc = outChannels();
    Mat in(inChannels(), xt.cols());
    in.topRows(oc) = xt;
    for (size_t b = 0; b < idx.size(); ++b)
        for (int i = 0; i < P; ++i) {
            const Eigen::Index c = Eigen::Index(b) * P + i;
            const double cx = (i % n + 0.5) / n, cy = (i / n + 0.5) / n;
            if (task == DarcyTask::Conditional) {
                in(1, c) = (std::log(set.K[size_t(idx[b])](i / n, i % n)) - lkMean) / lkScale;
                in(2, c) = set.g[size_t(idx[b])];
                in(3, c) = cx;
                in(4, c) = cy;
            } else {
                in(2, c) = cx;
                in(3, c) = cy;
            }
        }
    return in;
}

void RepaProblem::decode(const Mat& out, const FieldSet& cond, const std::vector<int>& idx,
                         std::vector<Eigen::MatrixXd>& p, std::vector<Eigen::MatrixXd>& K) const {
    const int P = n * n;
    p.clear();
    K.clear();
    for (size_t b = 0; b < idx.size(); ++b) {
        Eigen::MatrixXd pb(n, n), kb(n, n);
        for (int i = 0; i < P; ++i) {
            pb(i / n, i % n) = out(0, Eigen::Index(b) * P + i) * pScale + pMean;
            kb(i / n, i % n) = task == DarcyTask::Joint
                                   ? std::exp(out(1, Eigen::Index(b) * P + i) * lkScale + lkMean)
                                   : cond.K[size_t(idx[b])](i / n, i % n);
        }
        p.push_back(pb);
        K.push_back(kb);
    }
}

double RepaProblem::meanSquaredResidual(const std::vector<Eigen::MatrixXd>& p,
                                        const std::vector<Eigen::MatrixXd>& K, const std::vector<double>& g,
                                        bool fd) const {
    double s = 0;
    for (size_t i = 0; i < p.size(); ++i) {
        const Eigen::MatrixXd R = fd ? fdResidual(K[i], p[i], f) : fvResidual(K[i], p[i], f, task, g[i]);
        s += R.squaredNorm() / double(R.size());
    }
    return p.empty() ? 0.0 : s / double(p.size());
}

FieldSet solveFields(const RepaProblem& pr, std::vector<Eigen::MatrixXd> K, std::vector<double> g) {
    FieldSet set;
    set.K = std::move(K);
    set.g = std::move(g);
    for (size_t i = 0; i < set.K.size(); ++i)
        set.p.push_back(
            solveDarcy(set.K[i], pr.f, pr.task, pr.task == DarcyTask::Conditional ? set.g[i] : 0.0).p);
    return set;
}

FieldSet makeFields(const RepaProblem& pr, int count, Rng rng, double gLo, double gHi,
                    const std::function<void(double)>& tick) {
    std::vector<Eigen::MatrixXd> K;
    std::vector<double> g;
    for (int i = 0; i < count; ++i) {
        K.push_back(randomPermeability(pr.n, rng));
        g.push_back(pr.task == DarcyTask::Conditional ? rng.uniform(gLo, gHi) : 0.0);
    }
    FieldSet set;
    set.K = std::move(K);
    set.g = std::move(g);
    for (int i = 0; i < count; ++i) {
        set.p.push_back(solveDarcy(set.K[size_t(i)], pr.f, pr.task, set.g[size_t(i)]).p);
        if (tick && i % 16 == 0)
            tick(double(i) / count);
    }
    return set;
}

void fitNormaliser(RepaProblem& pr, const FieldSet& train) {
    double sp = 0, sp2 = 0, sk = 0, sk2 = 0, m = 0;
    for (int i = 0; i < train.size(); ++i) {
        const auto lk = train.K[size_t(i)].array().log();
        sp += train.p[size_t(i)].sum();
        sp2 += train.p[size_t(i)].squaredNorm();
        sk += lk.sum();
        sk2 += lk.square().sum();
        m += double(train.K[size_t(i)].size());
    }
    pr.pMean = sp / m;
    pr.pScale = std::sqrt(std::max(sp2 / m - pr.pMean * pr.pMean, 1e-12));
    pr.lkMean = sk / m;
    pr.lkScale = std::sqrt(std::max(sk2 / m - pr.lkMean * pr.lkMean, 1e-12));
}

TrainCurves trainRepa(RepaNet& net, const RepaProblem& pr, const FieldSet& train, const RepaTrainSettings& s,
                      bool withHeads, Rng rng, const std::function<void(double)>& tick) {
    const Diffusion d(s.steps);
    nn::Adam opt(s.lr);
    opt.setClipNorm(1.0);
    const auto params = net.parameters(withHeads);
    TrainCurves c;
    for (int it = 0; it < s.iterations; ++it) {
        std::vector<int> idx;
        std::vector<double> tn;
        for (int b = 0; b < s.batch; ++b)
            idx.push_back(int(rng.uniformInt(uint64_t(train.size()))));
        const MapShape sh = shapeOf(pr, idx.size());
        const Mat x0 = pr.x0Of(train, idx);
        Mat xt = normalNoise(x0.rows(), x0.cols(), rng);
        for (int b = 0; b < s.batch; ++b) {
            const int t = 1 + int(rng.uniformInt(uint64_t(s.steps)));
            tn.push_back(double(t) / s.steps);
            const double ab = d.alphaBar[size_t(t)];
            auto blk = xt.middleCols(Eigen::Index(b) * sh.pixels(), sh.pixels());
            blk = std::sqrt(ab) * x0.middleCols(Eigen::Index(b) * sh.pixels(), sh.pixels()) +
                  std::sqrt(1 - ab) * blk;
        }
        nn::Tape tape;
        const RepaNet::Output o = net.forward(tape, pr.inputOf(xt, train, idx), tn, sh, withHeads);
        const Var data = nn::mean(nn::square(nn::sub(o.x0, tape.constant(x0))));
        const Var rOut = residualLoss(o.x0, pr, train, idx, sh);
        Var loss = nn::add(data, nn::scale(rOut, s.cOut));
        double headSum = 0;
        for (const Var& h : o.heads) {
            const Var rh = residualLoss(h, pr, train, idx, sh);
            headSum += rh.scalar();
            loss = nn::add(loss, nn::scale(rh, s.cProj));
        }
        for (nn::Parameter* p : params)
            p->zeroGrad();
        tape.backward(loss);
        opt.step(params);
        c.data.push_back(data.scalar());
        c.outResidual.push_back(rOut.scalar());
        c.headResidual.push_back(o.heads.empty() ? 0.0 : headSum / double(o.heads.size()));
        c.total.push_back(loss.scalar());
        if (!std::isfinite(loss.scalar()))
            throw EngineError("REPA-P training diverged (loss is not finite); lower lr or c_out / c_proj");
        if (tick)
            tick(double(it + 1) / s.iterations);
    }
    return c;
}

Mat sampleRepa(RepaNet& net, const RepaProblem& pr, const FieldSet& cond, const std::vector<int>& idx,
               int steps, Rng rng, const std::function<void()>& tick) {
    const Diffusion d(steps);
    const MapShape sh = shapeOf(pr, idx.size());
    Mat x = normalNoise(pr.outChannels(), sh.columns(), rng);
    for (int t = steps; t >= 1; --t) {
        nn::Tape tape;
        const std::vector<double> tn(idx.size(), double(t) / steps);
        const Mat x0 = net.forward(tape, pr.inputOf(x, cond, idx), tn, sh, false).x0.value();
        if (t == 1) {
            x = x0;
            break;
        }
        const double ab = d.alphaBar[size_t(t)], abPrev = d.alphaBar[size_t(t) - 1], b = d.beta[size_t(t)];
        const double c1 = std::sqrt(abPrev) * b / (1 - ab), c2 = std::sqrt(1 - b) * (1 - abPrev) / (1 - ab);
        const double var = b * (1 - abPrev) / (1 - ab);
        x = c1 * x0 + c2 * x + std::sqrt(var) * normalNoise(x.rows(), x.cols(), rng);
        if (tick)
            tick();
    }
    return x;
}

int64_t denoiserMacs(RepaNet& net, const RepaProblem& pr, bool withHeads) {
    const MapShape sh = shapeOf(pr, 1);
    nn::Tape tape;
    int64_t macs = 0;
    net.forward(tape, Mat::Zero(pr.inChannels(), sh.columns()), {0.5}, sh, withHeads, &macs);
    return macs;
}

} // namespace pl::convimg
