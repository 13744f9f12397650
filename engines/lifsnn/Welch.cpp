#include "lifsnn/Welch.h"

#include "core/Numeric.h"

#include <unsupported/Eigen/FFT>

#include <algorithm>
#include <cmath>
#include <complex>
#include <vector>

namespace pl::lifsnn {

Eigen::VectorXd welchFrequencies(int nperseg) {
    Eigen::VectorXd f(nperseg / 2 + 1);
    for (int k = 0; k < f.size(); ++k)
        f(k) = double(k) / double(nperseg);
    return f;
}

Eigen::VectorXd welchPsd(const double* x, int n, int stride, int nperseg) {
    const int noverlap = nperseg / 2, step = nperseg - noverlap;
    const int segments = (n - noverlap) / step;
    const int bins = nperseg / 2 + 1;
    std::vector<double> w(static_cast<size_t>(nperseg)), seg(static_cast<size_t>(nperseg));
    double wss = 0;
    for (int k = 0; k < nperseg; ++k) {
        w[size_t(k)] = 0.5 - 0.5 * std::cos(kTau * double(k) / double(nperseg)); // periodic Hann
        wss += w[size_t(k)] * w[size_t(k)];
    }
    Eigen::FFT<double> fft;
    std::vector<std::complex<double>> spec;
    Eigen::VectorXd p = Eigen::VectorXd::Zero(bins);
    for (int s = 0; s < segments; ++s) {
        double mean = 0;
        for (int k = 0; k < nperseg; ++k)
            mean += x[size_t(s * step + k) * size_t(stride)];
        mean /= double(nperseg);
        for (int k = 0; k < nperseg; ++k)
            seg[size_t(k)] = (x[size_t(s * step + k) * size_t(stride)] - mean) * w[size_t(k)];
        fft.fwd(spec, seg);
        for (int k = 0; k < bins; ++k)
            p(k) += std::norm(spec[size_t(k)]);
    }
    p /= wss * double(std::max(segments, 1));
    // One-sided: double every bin but DC and (even nperseg) Nyquist.
    const int last = nperseg % 2 == 0 ? bins - 1 : bins;
    for (int k = 1; k < last; ++k)
        p(k) *= 2.0;
    return p;
}

BandEstimate estimateBand(const SeqData& d, int rows, int welchLen, double quantile,
                          const std::function<void()>& poll) {
    BandEstimate b;
    b.nperseg = std::min(welchLen, d.steps);
    b.freq = welchFrequencies(b.nperseg);
    const int f = int(b.freq.size()), c = d.channels, k = d.classes;
    std::vector<Eigen::MatrixXd> sum(size_t(k), Eigen::MatrixXd::Zero(c, f));
    std::vector<int> count(size_t(k), 0);
    auto psdOf = [&](int i) {
        Eigen::MatrixXd p(c, f);
        for (int ch = 0; ch < c; ++ch)
            p.row(ch) = welchPsd(d.sequence(i) + ch, d.steps, c, b.nperseg).transpose();
        return p;
    };
    for (int i = 0; i < rows; ++i) {
        if (poll)
            poll();
        sum[size_t(d.y[size_t(i)])] += psdOf(i);
        ++count[size_t(d.y[size_t(i)])];
    }
    Eigen::MatrixXd total = Eigen::MatrixXd::Zero(c, f), between = Eigen::MatrixXd::Zero(c, f),
                    within = Eigen::MatrixXd::Zero(c, f);
    b.classPsd = Eigen::MatrixXd::Zero(k, f);
    for (int cl = 0; cl < k; ++cl) {
        total += sum[size_t(cl)];
        if (count[size_t(cl)] > 0)
            b.classPsd.row(cl) = (sum[size_t(cl)] / double(count[size_t(cl)])).colwise().mean();
    }
    const Eigen::MatrixXd mean = total / double(std::max(rows, 1));
    for (int cl = 0; cl < k; ++cl)
        if (count[size_t(cl)] > 0) {
            const Eigen::MatrixXd mc = sum[size_t(cl)] / double(count[size_t(cl)]);
            between.array() += double(count[size_t(cl)]) * (mc - mean).array().square();
        }
    for (int i = 0; i < rows; ++i) {
        if (poll)
            poll();
        const int cl = d.y[size_t(i)];
        within.array() += (psdOf(i) - sum[size_t(cl)] / double(count[size_t(cl)])).array().square();
    }
    b.ratio = Eigen::MatrixXd::Zero(c, f);
    for (int ch = 0; ch < c; ++ch)
        for (int j = 0; j < f; ++j)
            b.ratio(ch, j) = within(ch, j) == 0 && between(ch, j) == 0 ? 0.0 : between(ch, j) / within(ch, j);
    b.fisher = b.ratio.colwise().mean().transpose();
    b.energy = b.ratio.cwiseProduct(mean).colwise().mean().transpose();
    const double target = quantile * b.energy.sum();
    double run = 0;
    b.edgeIndex = f - 1;
    for (int j = 0; j < f; ++j) {
        run += b.energy(j);
        if (run >= target) {
            b.edgeIndex = j;
            break;
        }
    }
    b.omegaD = kTau * b.freq(b.edgeIndex);
    return b;
}

} // namespace pl::lifsnn
