#pragma once
/// Welch power spectra as scipy.signal.welch computes them (periodic Hann window, nperseg segments
/// with 50 % overlap, constant detrend, density scaling at fs = 1, one-sided), and the estimate of
/// the class-discriminative band from them (spec §11.2): per channel and frequency the Fisher ratio
/// of the class-conditional spectra, the Fisher-weighted energy and its 90 % (band_quantile) edge.
/// Pure functions; any thread.
#include "lifsnn/SeqData.h"

#include <Eigen/Core>

#include <functional>

namespace pl::lifsnn {

/// scipy.signal.welch(x, fs=1, window='hann', nperseg, noverlap=nperseg // 2, detrend='constant',
/// scaling='density', return_onesided=True) of x[0], x[stride], ... (\a n values, nperseg <= n).
/// Returns nperseg / 2 + 1 values at frequencies k / nperseg (cycles/sample).
Eigen::VectorXd welchPsd(const double* x, int n, int stride, int nperseg);

/// The frequencies of welchPsd: k / nperseg, k = 0 .. nperseg / 2.
Eigen::VectorXd welchFrequencies(int nperseg);

struct BandEstimate {
    int nperseg = 0;
    Eigen::VectorXd freq;     ///< cycles/sample
    Eigen::MatrixXd ratio;    ///< channels x frequencies: Fisher ratio (0 for 0/0)
    Eigen::VectorXd fisher;   ///< channel mean of ratio
    Eigen::VectorXd energy;   ///< E: channel mean of ratio x mean PSD
    Eigen::MatrixXd classPsd; ///< classes x frequencies: class- and channel-mean PSD
    int edgeIndex = 0;        ///< first j with cumsum E >= quantile * sum E
    double omegaD = 0;        ///< 2 pi freq[edgeIndex] (rad/sample)
};

/// The band estimate from sequences [0, rows) of \a d (the training split): Welch PSD per sequence
/// and channel with nperseg = min(welchLen, T); ratio = sum_c n_c (m_c - m)^2 / sum_i (P_i -
/// m_c(i))^2. \a poll is called once per sequence (cancellation).
BandEstimate estimateBand(const SeqData& d, int rows, int welchLen, double quantile,
                          const std::function<void()>& poll = {});

} // namespace pl::lifsnn
