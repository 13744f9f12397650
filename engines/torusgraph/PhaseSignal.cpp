#include "PhaseSignal.h"

#include "core/Errors.h"

#include <unsupported/Eigen/FFT>

#include <cmath>
#include <complex>

namespace pl::torusgraph {

namespace {

int64_t fastLength(int64_t n) {
    for (int64_t m = std::max<int64_t>(n, 1);; ++m) {
        int64_t r = m;
        for (int p : {2, 3, 5})
            while (r % p == 0)
                r /= p;
        if (r == 1)
            return m;
    }
}

} // namespace

RowMat bandPhases(const RowMat& signal, double fs, double low, double high) {
    if (!(fs > 0) || !(low > 0) || !(high > low) || high > fs / 2 + 1e-12)
        throw UsageError("band: need 0 < band_low < band_high <= sampling_rate/2 (got " +
                         std::to_string(low) + ".." + std::to_string(high) + " Hz at " + std::to_string(fs) +
                         " Hz)");
    const int64_t n = signal.rows();
    const int64_t N = fastLength(n);
    Eigen::FFT<double> fft;
    RowMat out(n, signal.cols());
    std::vector<double> in(static_cast<size_t>(N));
    std::vector<std::complex<double>> spec, analytic;
    for (Eigen::Index c = 0; c < signal.cols(); ++c) {
        const double mean = signal.col(c).mean();
        for (int64_t i = 0; i < N; ++i)
            in[size_t(i)] = i < n ? signal(i, c) - mean : 0.0;
        fft.SetFlag(Eigen::FFT<double>::HalfSpectrum);
        fft.fwd(spec, in);
        // spec has N/2+1 bins (half spectrum); build the full analytic spectrum.
        std::vector<std::complex<double>> full(size_t(N), {0.0, 0.0});
        for (int64_t k = 1; k < int64_t(spec.size()); ++k) {
            const double f = double(k) * fs / double(N);
            if (f >= low && f <= high && k < N)
                full[size_t(k)] = 2.0 * spec[size_t(k)];
        }
        fft.ClearFlag(Eigen::FFT<double>::HalfSpectrum);
        fft.inv(analytic, full);
        for (int64_t i = 0; i < n; ++i)
            out(i, c) = wrapAngle(std::arg(analytic[size_t(i)]));
    }
    return out;
}

} // namespace pl::torusgraph
