#include "InverseGram.h"

namespace pl::bandits {

InverseGram::InverseGram(const Eigen::MatrixXd& arms, double lambda)
    : m_arms(&arms), m_inv(Eigen::MatrixXd::Identity(arms.cols(), arms.cols()) / lambda),
      m_norms(arms.rowwise().squaredNorm() / lambda) {}

void InverseGram::addArm(int arm) {
    add(m_arms->row(arm).transpose());
}

void InverseGram::add(const Eigen::VectorXd& x) {
    m_u.noalias() = m_inv * x;
    const double denom = 1.0 + x.dot(m_u);
    m_xu.noalias() = *m_arms * m_u;
    m_norms.array() -= m_xu.array().square() / denom;
    m_inv.noalias() -= (m_u / denom) * m_u.transpose();
}

} // namespace pl::bandits
