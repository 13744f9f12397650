#include "ExitAnalysis.h"

#include <algorithm>
#include <cmath>

namespace pl::smallnets {

namespace {

/// Rows of m selected by mask == want.
Eigen::MatrixXd pick(const Eigen::MatrixXd& m, const std::vector<char>& mask, bool want) {
    std::vector<Eigen::Index> idx;
    for (size_t i = 0; i < mask.size(); ++i)
        if (bool(mask[i]) == want)
            idx.push_back(Eigen::Index(i));
    Eigen::MatrixXd out(Eigen::Index(idx.size()), m.cols());
    for (size_t i = 0; i < idx.size(); ++i)
        out.row(Eigen::Index(i)) = m.row(idx[i]);
    return out;
}

std::vector<int> pickLabels(const std::vector<int>& y, const std::vector<char>& mask, bool want) {
    std::vector<int> out;
    for (size_t i = 0; i < mask.size(); ++i)
        if (bool(mask[i]) == want)
            out.push_back(y[i]);
    return out;
}

std::vector<char> correctOf(const Eigen::MatrixXd& probs, const std::vector<int>& y) {
    const std::vector<int> pred = argmaxRows(probs);
    std::vector<char> c(pred.size());
    for (size_t i = 0; i < pred.size(); ++i)
        c[i] = char(pred[i] == y[i]);
    return c;
}

double mean(const std::vector<double>& v) {
    double s = 0;
    for (double x : v)
        s += x;
    return v.empty() ? 0 : s / double(v.size());
}

/// Sweep and area of one set of exit scores.
SweepCurve sweepOf(const std::vector<Eigen::VectorXd>& score, const std::vector<std::vector<char>>& correct,
                   const std::vector<double>& flops, int T, const std::vector<double>& acc, double* area) {
    SweepCurve c = thresholdSweep(score, correct, flops, T);
    *area = curveArea(c, flops.front() / flops.back(), acc.front(), acc.back());
    return c;
}

} // namespace

std::vector<char> calibrationRows(const ExitLogits& e, double fraction) {
    if (!e.calibration.empty())
        return e.calibration;
    const int N = e.rows();
    const int n = std::clamp(int(std::ceil(fraction * N)), 1, N - 1);
    std::vector<char> m(size_t(N), 0);
    std::fill(m.begin(), m.begin() + n, char(1));
    return m;
}

Eigen::MatrixXd eefpFeatures(const std::vector<Eigen::MatrixXd>& probs, int k) {
    const Eigen::MatrixXd& p = probs[size_t(k)];
    Eigen::MatrixXd F(p.rows(), 5);
    F.col(0) = confidence(p, ConfidenceKind::MaxProb);
    F.col(1) = confidence(p, ConfidenceKind::Margin);
    F.col(2) = confidence(p, ConfidenceKind::Entropy);
    if (k == 0) {
        F.col(3).setOnes();
        F.col(4).setZero();
    } else {
        const std::vector<int> a = argmaxRows(p), b = argmaxRows(probs[size_t(k - 1)]);
        for (Eigen::Index i = 0; i < p.rows(); ++i)
            F(i, 3) = a[size_t(i)] == b[size_t(i)] ? 1.0 : 0.0;
        F.col(4) = confidence(probs[size_t(k - 1)], ConfidenceKind::MaxProb);
    }
    return F;
}

std::vector<char> exitWorthy(const std::vector<std::vector<char>>& correct, int k) {
    const size_t N = correct[0].size();
    std::vector<char> w(N);
    for (size_t i = 0; i < N; ++i) {
        bool later = false;
        for (size_t j = size_t(k) + 1; j < correct.size(); ++j)
            later = later || correct[j][i];
        w[i] = char(correct[size_t(k)][i] || !later);
    }
    return w;
}

std::vector<double> eefpPerExit(const std::vector<Eigen::VectorXd>& conf,
                                const std::vector<std::vector<char>>& correct,
                                const std::vector<double>& flops, double* weighted) {
    std::vector<double> out;
    double num = 0, den = 0;
    for (size_t k = 0; k + 1 < conf.size(); ++k) {
        out.push_back(auroc(conf[k], exitWorthy(correct, int(k))));
        if (std::isfinite(out.back())) {
            num += flops[k] * out.back();
            den += flops[k];
        }
    }
    *weighted = den > 0 ? num / den : std::nan("");
    return out;
}

ExitAnalysis analyseExits(const ExitLogits& e, const AnalysisSettings& s, Rng rng,
                          const std::function<void(double)>& poll) {
    const size_t K = e.logits.size();
    const std::vector<char> cal = calibrationRows(e, s.calibFraction);
    const std::vector<int> yCal = pickLabels(e.labels, cal, true), yEval = pickLabels(e.labels, cal, false);
    ExitAnalysis a;
    a.calibrationRows = int(yCal.size());
    a.evaluationRows = int(yEval.size());
    std::vector<Eigen::MatrixXd> pEval, pCal, pTs;
    std::vector<std::vector<char>> correct, correctCal;
    std::vector<Eigen::VectorXd> conf, confTs, maxProb;
    for (size_t k = 0; k < K; ++k) {
        const Eigen::MatrixXd lc = pick(e.logits[k], cal, true), le = pick(e.logits[k], cal, false);
        pEval.push_back(softmaxRows(le));
        pCal.push_back(softmaxRows(lc));
        correct.push_back(correctOf(pEval.back(), yEval));
        correctCal.push_back(correctOf(pCal.back(), yCal));
        conf.push_back(confidence(pEval.back(), s.confidence));
        maxProb.push_back(confidence(pEval.back(), ConfidenceKind::MaxProb));
        a.accuracy.push_back(double(std::count(correct.back().begin(), correct.back().end(), 1)) /
                             double(yEval.size()));
        a.ece.push_back(ece(maxProb.back(), correct.back(), s.eceBins));
        a.fpAuroc.push_back(auroc(conf.back(), correct.back()));
        a.temperature.push_back(fitTemperature(lc, yCal));
        pTs.push_back(softmaxRows(le, a.temperature.back()));
        confTs.push_back(confidence(pTs.back(), s.confidence));
        const Eigen::VectorXd mpTs = confidence(pTs.back(), ConfidenceKind::MaxProb);
        a.eceTs.push_back(ece(mpTs, correct.back(), s.eceBins));
        a.reliability.push_back(reliability(maxProb.back(), correct.back(), s.eceBins));
        a.reliabilityTs.push_back(reliability(mpTs, correct.back(), s.eceBins));
        if (poll)
            poll(0.3 * double(k + 1) / double(K));
    }
    a.eefp = eefpPerExit(conf, correct, e.flops, &a.eefpWeighted);
    // EEFP exit models (k < K - 1) fitted on the calibration rows; the last exit always exits.
    std::vector<Eigen::VectorXd> eefpScore(K), oracle(K);
    for (size_t k = 0; k < K; ++k) {
        const std::vector<char> w = exitWorthy(correct, int(k));
        oracle[k] = Eigen::VectorXd(conf[k].size());
        for (Eigen::Index i = 0; i < conf[k].size(); ++i)
            oracle[k](i) = 0.5 * (double(w[size_t(i)]) + std::clamp(conf[k](i), 0.0, 1.0));
        if (k + 1 == K) {
            eefpScore[k] = Eigen::VectorXd::Ones(conf[k].size());
            continue;
        }
        const std::vector<char> wCal = exitWorthy(correctCal, int(k));
        const bool both =
            std::count(wCal.begin(), wCal.end(), 1) > 0 && std::count(wCal.begin(), wCal.end(), 0) > 0;
        eefpScore[k] =
            both ? fitLogistic(eefpFeatures(pCal, int(k)), wCal).predict(eefpFeatures(pEval, int(k)))
                 : Eigen::VectorXd::Constant(conf[k].size(), wCal.empty() || wCal[0] ? 1.0 : 0.0);
    }
    if (poll)
        poll(0.45);
    const std::vector<Eigen::VectorXd>* scores[4] = {&conf, &confTs, &eefpScore, &oracle};
    for (int p = 0; p < 4; ++p) {
        a.curves[p] = sweepOf(*scores[p], correct, e.flops, s.thresholds, a.accuracy, &a.area[p]);
        a.accAtBudget[p] = accuracyAtBudget(a.curves[p], s.budget);
    }
    // Counter-example: every sample gets its exit's accuracy (ECE = 0) vs squared max-prob.
    std::vector<Eigen::VectorXd> uniform(K), squared(K);
    for (size_t k = 0; k < K; ++k) {
        uniform[k] = Eigen::VectorXd::Constant(conf[k].size(), a.accuracy[k]);
        squared[k] = maxProb[k].array().square().matrix();
        a.ceEceUniform = std::max(a.ceEceUniform, ece(uniform[k], correct[k], s.eceBins));
        a.ceEceSquared = std::max(a.ceEceSquared, ece(squared[k], correct[k], s.eceBins));
    }
    sweepOf(uniform, correct, e.flops, s.thresholds, a.accuracy, &a.ceAreaUniform);
    sweepOf(squared, correct, e.flops, s.thresholds, a.accuracy, &a.ceAreaSquared);
    // Perturbed confidences: (1 - lambda) p^gamma + lambda u, u ~ U(0, 1) per sample and exit.
    for (int j = 0; j < s.perturbations; ++j) {
        const double gamma = std::exp(rng.uniform(std::log(0.3), std::log(3.0))),
                     lambda = rng.uniform(0.0, 0.6);
        std::vector<Eigen::VectorXd> c(K);
        std::vector<double> eces;
        for (size_t k = 0; k < K; ++k) {
            c[k] = maxProb[k];
            for (Eigen::Index i = 0; i < c[k].size(); ++i)
                c[k](i) = (1 - lambda) * std::pow(maxProb[k](i), gamma) + lambda * rng.uniform();
            eces.push_back(ece(c[k], correct[k], s.eceBins));
        }
        double w = 0, area = 0;
        eefpPerExit(c, correct, e.flops, &w);
        sweepOf(c, correct, e.flops, s.thresholds, a.accuracy, &area);
        a.pertEce.push_back(mean(eces));
        a.pertEefp.push_back(w);
        a.pertArea.push_back(area);
        if (poll)
            poll(0.5 + 0.5 * double(j + 1) / double(s.perturbations));
    }
    std::vector<double> negEce;
    for (double v : a.pertEce)
        negEce.push_back(-v);
    a.spearmanEefpArea = spearman(a.pertEefp, a.pertArea);
    a.spearmanNegEceArea = spearman(negEce, a.pertArea);
    return a;
}

} // namespace pl::smallnets
