#pragma once
/// Darcy flow -div(K grad p) = f on the unit square, cell-centred finite volumes on N x N cells
/// (h = 1/N; fields are N x N matrices indexed [row = y][column = x], cell centres ((x + 0.5) h,
/// (y + 0.5) h)). Harmonic face means T = 2 Ka Kb / (Ka + Kb); a Dirichlet face is half a cell away
/// (T = 2 K). Discrete equations: sum over faces T (p_a - p_b) = f h^2.
///
/// Tasks: Joint = zero flux on every side, mean p = 0 (needs sum f = 0); Conditional = p = g on the
/// left side (x = 0), p = 0 on the right (x = 1), zero flux top and bottom.
///
/// Pure functions; any thread.
#include "core/Rng.h"

#include <Eigen/Core>

namespace pl::convimg {

enum class DarcyTask { Joint, Conditional };

/// The default source: +10 on cells whose centre has x, y <= 0.125, -10 where x, y >= 0.875.
Eigen::MatrixXd defaultSource(int n);

/// log K as a sum of \a bumps Gaussian bumps with N(0, amplitude) heights, centres uniform in the
/// square and widths uniform in [0.1, 0.3]; K = exp of it.
Eigen::MatrixXd randomPermeability(int n, Rng& rng, int bumps = 8, double amplitude = 1.0);

/// Throws pl::EngineError when task is Joint and |sum f| > 1e-9 sum |f| (the compatibility condition
/// of the pure Neumann problem).
void requireCompatibleSource(const Eigen::MatrixXd& f, DarcyTask task);

/// Outcome of one solve.
struct DarcySolution {
    Eigen::MatrixXd p;  ///< N x N pressure (Joint: mean removed)
    int iterations = 0; ///< CG iterations
    double error = 0;   ///< CG's relative residual estimate
};

/// Solves the discrete system with Eigen's ConjugateGradient (diagonal preconditioner) to a relative
/// residual of \a tol. K > 0 everywhere (not checked here); g is the left Dirichlet value
/// (Conditional only).
DarcySolution solveDarcy(const Eigen::MatrixXd& K, const Eigen::MatrixXd& f, DarcyTask task, double g,
                         double tol = 1e-10);

/// R = (A p - b) / h^2 with the solver's operator A and right-hand side b (N x N).
Eigen::MatrixXd fvResidual(const Eigen::MatrixXd& K, const Eigen::MatrixXd& p, const Eigen::MatrixXd& f,
                           DarcyTask task, double g);

/// The finite-difference residual of REPA-P's residuals_darcy.py (a reconstruction):
/// -(K p_xx + K_x p_x + K p_yy + K_y p_y) - f with central differences (numpy.gradient style,
/// one-sided at the edges), spacing h. Boundary conditions do not enter.
Eigen::MatrixXd fdResidual(const Eigen::MatrixXd& K, const Eigen::MatrixXd& p, const Eigen::MatrixXd& f);

/// Calls fn(a, b, dirichletValueIsG) for the faces of the N x N grid: every internal face between
/// cells a and b (indices y * n + x; the flag is unused, false), and with b = -1 every Dirichlet face
/// of cell a (Conditional only): left side (value g, flag true), right side (value 0, flag false).
template <class Fn> void forEachFace(int n, DarcyTask task, Fn fn) {
    for (int y = 0; y < n; ++y)
        for (int x = 0; x < n; ++x) {
            const int a = y * n + x;
            if (x + 1 < n)
                fn(a, a + 1, false);
            if (y + 1 < n)
                fn(a, a + n, false);
            if (task == DarcyTask::Conditional && x == 0)
                fn(a, -1, true);
            if (task == DarcyTask::Conditional && x == n - 1)
                fn(a, -1, false);
        }
}

} // namespace pl::convimg
