#include "Quantiser.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace pl::gemq {

Eigen::MatrixXd quantiseGroupwise(const Eigen::MatrixXd& w, int bits, int group) {
    if (bits < 1 || bits > 16 || group < 1)
        throw std::invalid_argument("quantiseGroupwise: bits in [1, 16], group >= 1");
    const double levels = std::ldexp(1.0, bits) - 1.0;
    Eigen::MatrixXd out(w.rows(), w.cols());
    for (Eigen::Index c = 0; c < w.cols(); ++c)
        for (Eigen::Index g0 = 0; g0 < w.rows(); g0 += group) {
            const Eigen::Index n = std::min<Eigen::Index>(group, w.rows() - g0);
            const auto in = w.col(c).segment(g0, n);
            const double mn = in.minCoeff(), mx = in.maxCoeff();
            const double scale = (mx - mn) / levels;
            if (!(scale > 0)) {
                out.col(c).segment(g0, n) = in;
                continue;
            }
            const double z = std::nearbyint(-mn / scale);
            for (Eigen::Index r = 0; r < n; ++r) {
                const double q = std::clamp(std::nearbyint(in(r) / scale) + z, 0.0, levels);
                out(g0 + r, c) = scale * (q - z);
            }
        }
    return out;
}

double quantisedBytes(Eigen::Index rows, Eigen::Index cols, int bits, int group) {
    const double groups = std::ceil(double(rows) / double(group)) * double(cols);
    return (double(rows) * double(cols) * bits + groups * 32.0) / 8.0;
}

} // namespace pl::gemq
