#include "MultiScaleQuantiser.h"

#include "KMeans.h"
#include "Selectors.h"
#include "core/Errors.h"

#include <algorithm>
#include <cmath>

namespace pl::distill {

namespace {

Eigen::MatrixXd kron(const Eigen::MatrixXd& A, const Eigen::MatrixXd& B) {
    Eigen::MatrixXd K(A.rows() * B.rows(), A.cols() * B.cols());
    for (Eigen::Index i = 0; i < A.rows(); ++i)
        for (Eigen::Index j = 0; j < A.cols(); ++j)
            K.block(i * B.rows(), j * B.cols(), B.rows(), B.cols()) = A(i, j) * B;
    return K;
}

} // namespace

Eigen::MatrixXd areaPool1d(int n, int m) {
    Eigen::MatrixXd P = Eigen::MatrixXd::Zero(m, n);
    for (int a = 0; a < m; ++a) {
        const int lo = (a * n) / m, hi = ((a + 1) * n + m - 1) / m;
        for (int i = lo; i < hi; ++i)
            P(a, i) = 1.0 / (hi - lo);
    }
    return P;
}

Eigen::MatrixXd bilinear1d(int m, int n) {
    Eigen::MatrixXd U = Eigen::MatrixXd::Zero(n, m);
    for (int i = 0; i < n; ++i) {
        const double src = std::max(0.0, (i + 0.5) * m / n - 0.5);
        const int i0 = std::min(int(std::floor(src)), m - 1), i1 = std::min(i0 + 1, m - 1);
        const double l = src - i0;
        U(i, i0) += 1 - l;
        U(i, i1) += l;
    }
    return U;
}

std::vector<int> scalesForGrid(int grid) {
    return grid <= 4 ? std::vector<int>{1, 2, 3, 4} : std::vector<int>{1, 2, 3, 4, 6, 8};
}

MultiScaleQuantiser::MultiScaleQuantiser(int side, std::vector<int> scales, int codebookSize)
    : m_side(side), m_grid(side / 4), m_v(codebookSize), m_scales(std::move(scales)) {
    if (side % 4 != 0 || m_scales.empty() || m_scales.back() != m_grid)
        throw EngineError(
            "MultiScaleQuantiser: the side must be a multiple of 4 and the last scale side / 4");
    for (int s : m_scales) {
        const Eigen::MatrixXd d = areaPool1d(m_grid, s), u = bilinear1d(s, m_grid);
        m_down.push_back(kron(d, d));
        m_up.push_back(kron(u, u));
    }
    m_codebook = Eigen::MatrixXd::Zero(m_v, 16);
}

Eigen::MatrixXd MultiScaleQuantiser::latent(const Eigen::VectorXd& img) const {
    Eigen::MatrixXd f(m_grid * m_grid, 16);
    for (int gi = 0; gi < m_grid; ++gi)
        for (int gj = 0; gj < m_grid; ++gj)
            for (int a = 0; a < 4; ++a)
                for (int b = 0; b < 4; ++b)
                    f(gi * m_grid + gj, a * 4 + b) =
                        (img((gi * 4 + a) * m_side + gj * 4 + b) - m_mean) / m_sd;
    return f;
}

Eigen::VectorXd MultiScaleQuantiser::image(const Eigen::MatrixXd& f) const {
    Eigen::VectorXd img(m_side * m_side);
    for (int gi = 0; gi < m_grid; ++gi)
        for (int gj = 0; gj < m_grid; ++gj)
            for (int a = 0; a < 4; ++a)
                for (int b = 0; b < 4; ++b)
                    img((gi * 4 + a) * m_side + gj * 4 + b) = f(gi * m_grid + gj, a * 4 + b) * m_sd + m_mean;
    return img;
}

ScaleTokens MultiScaleQuantiser::encode(const Eigen::MatrixXd& f, std::vector<Eigen::MatrixXd>* cum) const {
    ScaleTokens t;
    Eigen::MatrixXd fhat = Eigen::MatrixXd::Zero(f.rows(), f.cols());
    if (cum)
        cum->clear();
    for (int k = 0; k < scaleCount(); ++k) {
        const Eigen::MatrixXd z = m_down[size_t(k)] * (f - fhat);
        t.push_back(nearestCentres(z, m_codebook));
        Eigen::MatrixXd q(z.rows(), z.cols());
        for (Eigen::Index p = 0; p < z.rows(); ++p)
            q.row(p) = m_codebook.row(t.back()[size_t(p)]);
        fhat += m_up[size_t(k)] * q;
        if (cum)
            cum->push_back(fhat);
    }
    return t;
}

Eigen::MatrixXd MultiScaleQuantiser::decode(const ScaleTokens& tokens, int upTo) const {
    const int K = upTo < 0 ? int(tokens.size()) : std::min(upTo, int(tokens.size()));
    Eigen::MatrixXd fhat = Eigen::MatrixXd::Zero(m_grid * m_grid, 16);
    for (int k = 0; k < K; ++k) {
        Eigen::MatrixXd q(tokens[size_t(k)].size(), 16);
        for (size_t p = 0; p < tokens[size_t(k)].size(); ++p)
            q.row(Eigen::Index(p)) = m_codebook.row(tokens[size_t(k)][p]);
        fhat += m_up[size_t(k)] * q;
    }
    return fhat;
}

void MultiScaleQuantiser::fit(const Eigen::MatrixXd& images, Rng& rng, int maxVectors,
                              const std::function<void()>& poll) {
    m_mean = images.size() > 0 ? images.mean() : 0.0;
    const double var = images.size() > 0 ? (images.array() - m_mean).square().mean() : 1.0;
    m_sd = var > 1e-12 ? std::sqrt(var) : 1.0;
    int perImage = 0;
    for (int s : m_scales)
        perImage += s * s;
    const int n = int(images.rows());
    const int use = std::max(1, std::min(n, maxVectors / std::max(1, perImage)));
    for (int round = 0; round < 3; ++round) {
        const std::vector<int> rows = randomSubset(n, use, rng);
        Eigen::MatrixXd pooled(Eigen::Index(rows.size()) * perImage, 16);
        Eigen::Index at = 0;
        for (int r : rows) {
            const Eigen::MatrixXd f = latent(images.row(r).transpose());
            Eigen::MatrixXd fhat = Eigen::MatrixXd::Zero(f.rows(), 16);
            for (int k = 0; k < scaleCount(); ++k) {
                const Eigen::MatrixXd z = m_down[size_t(k)] * (f - fhat);
                pooled.middleRows(at, z.rows()) = z;
                at += z.rows();
                Eigen::MatrixXd q = z; // round 0: unquantised residuals
                if (round > 0) {
                    const std::vector<int> lab = nearestCentres(z, m_codebook);
                    for (Eigen::Index p = 0; p < z.rows(); ++p)
                        q.row(p) = m_codebook.row(lab[size_t(p)]);
                }
                fhat += m_up[size_t(k)] * q;
            }
        }
        if (round == 0) {
            KMeansResult km = kmeans(pooled, m_v, rng, 25, poll);
            m_codebook = km.centres;
            if (m_codebook.rows() < m_v) { // fewer vectors than codewords: repeat the last
                Eigen::MatrixXd E(m_v, 16);
                for (int v = 0; v < m_v; ++v)
                    E.row(v) = m_codebook.row(std::min<Eigen::Index>(v, m_codebook.rows() - 1));
                m_codebook = E;
            }
        } else
            m_codebook = lloyd(pooled, m_codebook, 10).centres;
        if (poll)
            poll();
    }
}

} // namespace pl::distill
