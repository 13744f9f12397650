#pragma once
/// The finite-volume Darcy residual as a tape op, so a network's decoded fields can be penalised
/// by their PDE residual (REPA-P's output and head losses).
///
/// Thread affinity: as nn::Tape.
#include "convimg/ConvOps.h"
#include "convimg/Darcy.h"

#include <vector>

namespace pl::convimg {

/// R = (A_K p - b) / h^2 per cell for a batch of fields: p and K are 1 x (B * N * N) maps (layout of
/// ConvOps.h, H = W = N), f the N x N source shared by the batch and g[b] the left Dirichlet value of
/// sample b (Conditional; ignored for Joint). Differentiable in p and in K (K > 0). Equal to
/// fvResidual() per sample.
Var fvResidualOp(Var p, Var K, const MapShape& s, const Eigen::MatrixXd& f, DarcyTask task,
                 const std::vector<double>& g);

} // namespace pl::convimg
