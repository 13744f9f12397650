#pragma once
/// V⁻¹ of a regularised Gram matrix V = λI + Σ_t x_t x_tᵀ over a fixed arm set, kept up to date by
/// Sherman–Morrison, together with every arm's squared norm ‖x_i‖²_{V⁻¹} (O(K·d + d²) per update
/// instead of O(K·d²)). Plain value type; one thread.

#include <Eigen/Core>

namespace pl::bandits {

class InverseGram {
public:
    /// \a arms holds one arm per row (K x d); V starts as \a lambda · I (lambda > 0).
    InverseGram(const Eigen::MatrixXd& arms, double lambda);

    /// V ← V + x xᵀ for arm \a arm (0-based row of the arm matrix).
    void addArm(int arm);
    /// V ← V + x xᵀ for any vector x of length d.
    void add(const Eigen::VectorXd& x);

    /// V⁻¹ (d x d).
    const Eigen::MatrixXd& inverse() const { return m_inv; }
    /// ‖x_i‖²_{V⁻¹} for every arm (length K).
    const Eigen::VectorXd& norms() const { return m_norms; }

private:
    const Eigen::MatrixXd* m_arms;
    Eigen::MatrixXd m_inv;
    Eigen::VectorXd m_norms;
    Eigen::VectorXd m_u;
    Eigen::VectorXd m_xu;
};

} // namespace pl::bandits
