#include "gridworld/FrozenEncoder.h"

#include "core/Errors.h"
#include "core/Numeric.h"
#include "core/SymmetricEigen.h"

#include <Eigen/Cholesky>
#include <Eigen/Dense>

#include <algorithm>
#include <cmath>
#include <numbers>

namespace pl::gridworld {

GeneralizedEigen generalizedEigen(const Eigen::MatrixXd& a, const Eigen::MatrixXd& b) {
    const Eigen::LLT<Eigen::MatrixXd> llt(b);
    if (llt.info() != Eigen::Success)
        throw EngineError("generalised eigenproblem: the feature covariance is not positive definite");
    const Eigen::MatrixXd l = llt.matrixL();
    // M = L⁻¹ A L⁻ᵀ
    const Eigen::MatrixXd x = l.triangularView<Eigen::Lower>().solve(a);
    const Eigen::MatrixXd m = l.triangularView<Eigen::Lower>().solve(x.transpose());
    const SymmetricEigen e = symmetricEigen(0.5 * (m + m.transpose()));
    if (!e.ok)
        throw EngineError("generalised eigenproblem: the symmetric QR iteration did not converge");
    GeneralizedEigen out;
    out.values = e.values;
    out.vectors = l.transpose().triangularView<Eigen::Upper>().solve(e.vectors); // v = L⁻ᵀ y
    return out;
}

void fixSigns(Eigen::MatrixXd& columns) {
    for (Eigen::Index c = 0; c < columns.cols(); ++c) {
        Eigen::Index arg = 0;
        columns.col(c).cwiseAbs().maxCoeff(&arg);
        if (columns(arg, c) < 0)
            columns.col(c) *= -1.0;
    }
}

FrozenEncoder FrozenEncoder::pca(const Eigen::MatrixXd& frames, int dim) {
    FrozenEncoder f;
    f.m_kind = "pca";
    f.m_mean = frames.colwise().mean();
    const Eigen::MatrixXd xc = frames.rowwise() - f.m_mean;
    const Eigen::MatrixXd cov = (xc.transpose() * xc) / double(std::max<Eigen::Index>(1, frames.rows() - 1));
    const SymmetricEigen e = symmetricEigen(cov);
    if (!e.ok)
        throw EngineError("PCA: the symmetric QR iteration did not converge");
    const int p = int(cov.rows());
    dim = std::min(dim, p);
    f.m_pixelBasis.resize(p, dim);
    f.m_spectrum.resize(dim);
    for (int k = 0; k < dim; ++k) { // descending variance
        f.m_pixelBasis.col(k) = e.vectors.col(p - 1 - k);
        f.m_spectrum(k) = e.values(p - 1 - k);
    }
    fixSigns(f.m_pixelBasis);
    const double total = cov.trace();
    f.m_explained = total > 0 ? f.m_spectrum.sum() / total : 0.0;
    return f;
}

Eigen::MatrixXd FrozenEncoder::fourierFeatures(const Eigen::MatrixXd& frames) const {
    Eigen::MatrixXd z = (frames.rowwise() - m_mean) * m_omega;
    z.rowwise() += m_bias;
    return std::sqrt(2.0 / double(m_omega.cols())) * z.array().cos().matrix();
}

FrozenEncoder FrozenEncoder::sfa(const ClipSet& clips, int dim, int features, const Rng& rng) {
    FrozenEncoder f;
    f.m_kind = "sfa";
    const Eigen::MatrixXd& x = clips.frames;
    f.m_mean = x.colwise().mean();
    // bandwidth: median distance between 200 seeded pairs of frames
    Rng r = rng.fork("sfa bandwidth");
    std::vector<double> d;
    for (int k = 0; k < 200; ++k)
        d.push_back((x.row(Eigen::Index(r.uniformInt(uint64_t(x.rows())))) -
                     x.row(Eigen::Index(r.uniformInt(uint64_t(x.rows())))))
                        .norm());
    std::nth_element(d.begin(), d.begin() + 100, d.end());
    const double sigma = std::max(1e-6, d[100]);
    Rng w = rng.fork("sfa features");
    f.m_omega.resize(x.cols(), features);
    for (Eigen::Index i = 0; i < f.m_omega.size(); ++i)
        f.m_omega.data()[i] = w.normal() / sigma;
    f.m_bias.resize(features);
    for (int j = 0; j < features; ++j)
        f.m_bias(j) = w.uniform(0.0, 2.0 * std::numbers::pi);
    const Eigen::MatrixXd feat = f.fourierFeatures(x);
    f.m_featMean = feat.colwise().mean();
    const Eigen::MatrixXd fc = feat.rowwise() - f.m_featMean;
    Eigen::MatrixXd cov = fc.transpose() * fc / double(std::max<Eigen::Index>(1, fc.rows() - 1));
    Eigen::MatrixXd diff(clips.transitions(), features);
    for (int r2 = 0; r2 < clips.transitions(); ++r2) {
        const int fr = clips.frameOfTransition(r2);
        diff.row(r2) = feat.row(fr + 1) - feat.row(fr);
    }
    const Eigen::MatrixXd dcov = diff.transpose() * diff / double(std::max<Eigen::Index>(1, diff.rows() - 1));
    cov.diagonal().array() += 1e-6 * cov.trace() / double(features); // ridge: RFF may be collinear
    const GeneralizedEigen g = generalizedEigen(dcov, cov);
    dim = std::min(dim, features);
    f.m_slow = g.vectors.leftCols(dim);
    fixSigns(f.m_slow);
    f.m_spectrum = g.values.head(dim);
    f.m_explained = kNaN;
    // pixel-space picture of φ: ridge least squares from centred pixels to φ
    const Eigen::MatrixXd xc = x.rowwise() - f.m_mean;
    Eigen::MatrixXd gram = xc.transpose() * xc;
    gram.diagonal().array() += 1e-3 * gram.trace() / double(gram.rows());
    f.m_pixelBasis = gram.ldlt().solve(xc.transpose() * (fc * f.m_slow));
    return f;
}

Eigen::MatrixXd FrozenEncoder::encode(const Eigen::MatrixXd& frames) const {
    if (m_kind == "pca")
        return (frames.rowwise() - m_mean) * m_pixelBasis;
    return (fourierFeatures(frames).rowwise() - m_featMean) * m_slow;
}

} // namespace pl::gridworld
