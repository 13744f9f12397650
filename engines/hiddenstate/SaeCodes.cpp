#include "SaeCodes.h"

#include <algorithm>

namespace pl::hiddenstate {

Eigen::MatrixXd saePreActivations(const SaeLayer& sae, const Eigen::MatrixXd& A) {
    Eigen::MatrixXd pre = (A.rowwise() - sae.decoderBias) * sae.encoder;
    pre.rowwise() += sae.encoderBias;
    return pre;
}

SparseCode topKCode(const Eigen::Ref<const Eigen::RowVectorXd>& pre, int k) {
    std::vector<int> pos;
    for (Eigen::Index j = 0; j < pre.size(); ++j)
        if (pre(j) > 0)
            pos.push_back(int(j));
    const auto kk = std::min(pos.size(), size_t(std::max(k, 0)));
    std::partial_sort(pos.begin(), pos.begin() + std::ptrdiff_t(kk), pos.end(),
                      [&](int a, int b) { return pre(a) > pre(b) || (pre(a) == pre(b) && a < b); });
    SparseCode c;
    c.index.assign(pos.begin(), pos.begin() + std::ptrdiff_t(kk));
    double sum = 0;
    for (int i : c.index) {
        c.value.push_back(pre(i));
        sum += pre(i);
    }
    for (double v : c.value)
        c.weight.push_back(v / sum);
    return c;
}

std::vector<SparseCode> topKCodes(const Eigen::MatrixXd& pre, int k) {
    std::vector<SparseCode> out;
    out.reserve(size_t(pre.rows()));
    for (Eigen::Index r = 0; r < pre.rows(); ++r)
        out.push_back(topKCode(pre.row(r), k));
    return out;
}

double fractionUnexplained(const SaeLayer& sae, const Eigen::MatrixXd& A, int k) {
    const Eigen::MatrixXd pre = saePreActivations(sae, A);
    const Eigen::RowVectorXd mean = A.colwise().mean();
    double err = 0, tot = 0;
    for (Eigen::Index r = 0; r < A.rows(); ++r) {
        const SparseCode c = topKCode(pre.row(r), k);
        Eigen::RowVectorXd rec = sae.decoderBias;
        for (size_t i = 0; i < c.index.size(); ++i)
            rec += c.value[i] * sae.decoder.row(c.index[i]);
        err += (A.row(r) - rec).squaredNorm();
        tot += (A.row(r) - mean).squaredNorm();
    }
    return tot > 0 ? err / tot : 0.0;
}

double deadFraction(const Eigen::MatrixXd& pre, int k) {
    std::vector<char> alive(size_t(pre.cols()), 0);
    for (Eigen::Index r = 0; r < pre.rows(); ++r)
        for (int i : topKCode(pre.row(r), k).index)
            alive[size_t(i)] = 1;
    return 1.0 - double(std::count(alive.begin(), alive.end(), char(1))) / double(pre.cols());
}

} // namespace pl::hiddenstate
