#include "NashGap.h"

#include "core/Errors.h"

namespace pl::games {

ZeroSumCertificate zeroSumCertificate(const Eigen::MatrixXd& A, const Eigen::VectorXd& x,
                                      const Eigen::VectorXd& y) {
    const Eigen::VectorXd Ay = A * y;
    const Eigen::VectorXd Atx = A.transpose() * x;
    ZeroSumCertificate c;
    c.upper = Ay.maxCoeff();
    c.lower = Atx.minCoeff();
    c.value = x.dot(Ay);
    return c;
}

double dualityGap(const Eigen::MatrixXd& A, const Eigen::VectorXd& x, const Eigen::VectorXd& y) {
    return zeroSumCertificate(A, x, y).gap();
}

std::vector<int> bestResponses(const Eigen::VectorXd& payoffs, double tol) {
    std::vector<int> br;
    if (payoffs.size() == 0)
        return br;
    const double best = payoffs.maxCoeff();
    for (Eigen::Index i = 0; i < payoffs.size(); ++i)
        if (payoffs[i] >= best - tol)
            br.push_back(int(i));
    return br;
}

double bimatrixNashGap(const Eigen::MatrixXd& A, const Eigen::MatrixXd& B, const Eigen::VectorXd& x,
                       const Eigen::VectorXd& y) {
    const Eigen::VectorXd Ay = A * y;
    const Eigen::VectorXd Btx = B.transpose() * x;
    return (Ay.maxCoeff() - x.dot(Ay)) + (Btx.maxCoeff() - Btx.dot(y));
}

Eigen::VectorXd purePayoffs(const NormalFormGame& game, const std::vector<Eigen::VectorXd>& sigma,
                            int player) {
    const int P = game.numPlayers();
    if (int(sigma.size()) != P)
        throw EngineError("purePayoffs: one mixed strategy per player is needed");
    for (int p = 0; p < P; ++p)
        if (sigma[size_t(p)].size() != game.numStrategies[size_t(p)])
            throw EngineError("purePayoffs: strategy size mismatch for player " + std::to_string(p));
    Eigen::VectorXd out = Eigen::VectorXd::Zero(game.numStrategies[size_t(player)]);
    const int64_t profiles = game.numProfiles();
    const auto& pay = game.payoffs[size_t(player)];
    std::vector<int> s(size_t(P), 0); // current profile, player 0 fastest
    for (int64_t k = 0; k < profiles; ++k) {
        double w = 1;
        for (int p = 0; p < P && w != 0; ++p)
            if (p != player)
                w *= sigma[size_t(p)][s[size_t(p)]];
        if (w != 0)
            out[s[size_t(player)]] += w * pay[size_t(k)];
        for (int p = 0; p < P; ++p) {
            if (++s[size_t(p)] < game.numStrategies[size_t(p)])
                break;
            s[size_t(p)] = 0;
        }
    }
    return out;
}

double nashGap(const NormalFormGame& game, const std::vector<Eigen::VectorXd>& sigma) {
    double gap = 0;
    for (int p = 0; p < game.numPlayers(); ++p) {
        const Eigen::VectorXd u = purePayoffs(game, sigma, p);
        gap += u.maxCoeff() - u.dot(sigma[size_t(p)]);
    }
    return gap;
}

} // namespace pl::games
