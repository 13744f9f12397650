#pragma once
/// Fourteen noiseless BBOB functions as defined by Hansen, Finck, Ros and Auger (2009), "Real-parameter
/// black-box optimization benchmarking 2009: noiseless functions definitions", with f_opt = 0. An
/// instance draws x_opt uniformly in [-4, 4]^d and two random orthogonal matrices R and Q (Gram-Schmidt
/// of a Gaussian matrix); the transformations T_osz, T_asy^beta and Lambda^alpha are those of the
/// definitions. Deviations: Rosenbrock's x_opt is scaled by 0.75 (the 2009 text draws it in [-3, 3]),
/// Buche-Rastrigin takes |x_opt_i| on odd coordinates (1-based), Griewank-Rosenbrock is shifted by x_opt
/// (z = max(1, sqrt(d)/8) R (x - x_opt) + 1) so that every function has the same x_opt rule.
/// Plain values, any thread.
#include "core/Rng.h"

#include <Eigen/Core>

#include <string>
#include <vector>

namespace pl::search {

/// The function names, in the order of the panel's `function` choice (BBOB ids 1, 2, 3, 4, 8, 10, 11,
/// 12, 13, 15, 16, 17, 19, 21).
const std::vector<std::string>& bbobNames();
/// The BBOB id of a name (e.g. "sphere" -> 1); -1 when unknown.
int bbobId(const std::string& name);

/// T_osz applied to every coordinate.
Eigen::VectorXd tOsz(const Eigen::VectorXd& x);
/// T_asy^beta.
Eigen::VectorXd tAsy(const Eigen::VectorXd& x, double beta);
/// The diagonal of Lambda^alpha: alpha^(0.5 (i-1)/(d-1)).
Eigen::VectorXd lambdaDiag(int d, double alpha);
/// f_pen(x) = sum max(0, |x_i| - 5)^2.
double fPen(const Eigen::VectorXd& x);
/// A random orthogonal d x d matrix (Gram-Schmidt of a standard Gaussian matrix).
Eigen::MatrixXd randomOrthogonal(int d, Rng& rng);

/// One instance of a BBOB function.
class BbobFunction {
public:
    /// Draws an instance of \a name (one of bbobNames()) in dimension \a d >= 2 from \a rng.
    BbobFunction(const std::string& name, int d, Rng& rng);

    /// f(x) >= 0 with f(x_opt) = 0. \a x has d entries.
    double operator()(const Eigen::VectorXd& x) const;
    /// f of every row of \a X (n x d).
    Eigen::VectorXd evalRows(const Eigen::MatrixXd& X) const;

    const std::string& name() const { return m_name; }
    int dim() const { return m_d; }
    const Eigen::VectorXd& xOpt() const { return m_xopt; }
    const Eigen::MatrixXd& rotationR() const { return m_R; }
    const Eigen::MatrixXd& rotationQ() const { return m_Q; }
    /// Gallagher: the 21 local optima y_i (rows; y_1 = x_opt) and the diagonals of C_i (rows).
    const Eigen::MatrixXd& peaks() const { return m_peaks; }
    const Eigen::MatrixXd& peakScales() const { return m_peakC; }
    const Eigen::VectorXd& peakWeights() const { return m_peakW; }

private:
    std::string m_name;
    int m_id = 1;
    int m_d = 2;
    Eigen::VectorXd m_xopt;
    Eigen::MatrixXd m_R, m_Q;
    Eigen::VectorXd m_l10, m_l100inv, m_cond6; ///< Lambda^10, Lambda^(1/100), 10^(6 (i-1)/(d-1))
    Eigen::MatrixXd m_peaks, m_peakC, m_peaksR;
    Eigen::VectorXd m_peakW;
    double m_f0 = 0; ///< Weierstrass offset
};

} // namespace pl::search
