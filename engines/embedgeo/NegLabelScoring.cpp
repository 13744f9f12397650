#include "NegLabelScoring.h"

#include "DroDuals.h"
#include "EmbedGeometry.h"

#include "core/Rng.h"

#include <algorithm>
#include <numeric>

namespace pl::embedgeo {

ScoreSet scoreImages(const Eigen::MatrixXd& idText, const Eigen::MatrixXd& negText,
                     const Eigen::MatrixXd& images, const ScoreOptions& o, RunContext& ctx) {
    const Eigen::Index N = images.rows(), M = negText.rows();
    const Eigen::MatrixXd sid = cosineMatrix(images, idText), sneg = cosineMatrix(images, negText);
    const int G = int(std::clamp<Eigen::Index>(o.groups, 1, M));
    std::vector<int> perm(static_cast<size_t>(M));
    std::iota(perm.begin(), perm.end(), 0);
    Rng rng(o.groupSeed);
    for (Eigen::Index i = M - 1; i > 0; --i)
        std::swap(perm[size_t(i)], perm[size_t(rng.uniformInt(uint64_t(i + 1)))]);
    ScoreSet out;
    for (Eigen::Index i = 0; i < N; ++i) {
        if ((i & 63) == 0)
            ctx.throwIfCancelled();
        const Eigen::VectorXd s = sid.row(i).transpose(), sn = sneg.row(i).transpose();
        if (o.neglabel) {
            double acc = 0;
            for (int g = 0; g < G; ++g) {
                const Eigen::Index b = M * g / G, e = M * (g + 1) / G;
                Eigen::VectorXd part(e - b);
                for (Eigen::Index j = b; j < e; ++j)
                    part(j - b) = sn(perm[size_t(j)]);
                acc += negLabelScore(s, part, o.tau);
            }
            out.neglabel.push_back(acc / G);
        }
        const double energy = (o.kl || o.renyi) ? temperedLogSumExp(s, o.tau) : 0.0;
        if (o.kl)
            out.kl.push_back(energy - klDual(sn, o.rhoKl).value);
        if (o.renyi)
            out.renyi.push_back(energy - renyiDual(sn, o.alpha, o.rhoRenyi).value);
        if (o.ess) {
            out.essKl.push_back(effectiveSampleSize(klWeights(sn, o.rhoKl)));
            out.essRenyi.push_back(effectiveSampleSize(renyiWeights(sn, o.alpha, o.rhoRenyi)));
        }
    }
    return out;
}

} // namespace pl::embedgeo
