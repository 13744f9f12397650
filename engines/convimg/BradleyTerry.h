#pragma once
/// Bradley-Terry fits of pairwise choices (for the visual-persuasion panel, spec 004 §14): a
/// penalised logistic regression on difference features by Newton's method (IRLS), with an L2
/// penalty on the utility coefficients only (the position term is not penalised), and the reader of
/// choice logs. Pure functions; any thread.
#include <Eigen/Core>

#include <string>
#include <vector>

namespace pl::convimg {

/// The outcome of a fit.
struct BtFit {
    Eigen::VectorXd coef;     ///< utility coefficients (one per column of the features)
    double positionBias = 0;  ///< coefficient of the order term o (+1: the first shown is favoured)
    double logLikelihood = 0; ///< unpenalised sum of log sigma(s z) at the optimum
    int iterations = 0;       ///< Newton steps
};

/// Maximises sum_i log sigma(s_i (x_i . coef + b o_i)) - (l2 / 2) ||coef||^2 over coef and b, with
/// x_i the rows of \a X (difference features of the pair), s_i = +1 when the first item of the pair
/// was chosen, else -1, and o_i = +1 / -1 the order term. l2 > 0. Newton with step halving, to a
/// gradient max-norm of \a tol.
BtFit fitBradleyTerry(const Eigen::MatrixXd& X, const std::vector<int>& s, const std::vector<int>& o,
                      double l2, int maxIter = 100, double tol = 1e-10);

/// A choice log: one row per duel.
struct ChoiceLog {
    std::vector<std::string> names; ///< the images, sorted byte-wise
    std::vector<int> a, b;          ///< indices into names
    std::vector<int> s;             ///< +1: image_a chosen, -1: image_b chosen
    std::vector<int> o;             ///< +1: order ab (image_a shown first), -1: ba
    std::vector<int> lines;         ///< line of each row in the file (1-based)
    /// X for fitBradleyTerry with one utility per image: row i = e_a - e_b.
    Eigen::MatrixXd differenceFeatures() const;
    /// True when every duel was won by the image shown first, or every duel by the second, or every
    /// duel by image_a (a log that identifies nothing but a direction).
    bool degenerate() const;
};

/// Reads a CSV with header `image_a,image_b,chosen,order` (chosen = a | b, order = ab | ba). Throws
/// pl::InputError with file, line and reason for a missing header, a wrong field count, an empty
/// name, an image against itself or a bad token.
ChoiceLog parseChoiceLog(const std::string& text, const std::string& name);
ChoiceLog readChoiceLog(const std::string& path);

} // namespace pl::convimg
