#pragma once
/// The pool selectors of the protovar-distillation panel, exactly as issue 30 defines them, on
/// feature rows phi (one row per candidate) and a class mean mu:
///  - herding: at step k (1-based) pick the i not yet in S minimising
///    || mu - (sum_{j in S} phi_j + phi_i) / k ||;
///  - kcenter: start at the candidate nearest mu, then repeatedly take the candidate farthest from
///    S (largest minimum distance to the chosen ones).
/// Ties go to the lowest index. Both return min(count, rows) indices in selection order. Pure.
#include "core/Rng.h"

#include <Eigen/Core>

#include <vector>

namespace pl::distill {

enum class Selector { Herding, KCenter };

std::vector<int> herding(const Eigen::MatrixXd& phi, const Eigen::RowVectorXd& mu, int count);
std::vector<int> kcenter(const Eigen::MatrixXd& phi, const Eigen::RowVectorXd& mu, int count);
std::vector<int> selectWith(Selector s, const Eigen::MatrixXd& phi, const Eigen::RowVectorXd& mu, int count);

/// \a count distinct indices of 0..n-1 drawn uniformly (partial Fisher-Yates), in draw order.
std::vector<int> randomSubset(int n, int count, Rng& rng);

} // namespace pl::distill
