#pragma once
/// A small reverse-mode automatic-differentiation tape over dense Eigen matrices (double).
///
/// Why hand-written: Debian ships no C++ autodiff library that works on whole Eigen matrices
/// with scatter/gather over graph edges (adept/autodiff are scalar-level or absent), and the
/// engines need a deterministic, dependency-free trainer that runs on one core.
///
/// Usage: build a Tape per training step, wrap parameters with param() and data with
/// constant(), compose ops (free functions below, all returning Var), call backward(loss) on a
/// 1x1 Var; gradients are accumulated into each Parameter::grad. Every op's gradient is checked
/// against central finite differences in tests/nn.
///
/// Broadcasting (add, sub, mul, div): the second operand may have the shape of the first, be 1x1
/// (scalar), 1 x cols (one row, repeated down the rows) or rows x 1 (one column, repeated across).
///
/// Thread affinity: a Tape and the Vars made from it belong to one thread. Parameters may be
/// shared read-only between tapes only when no backward() runs concurrently.
#include "nn/Parameter.h"

#include <Eigen/Dense>

#include <functional>
#include <vector>

namespace pl::nn {

class Tape;

/// A handle to one value on a tape (cheap to copy). Invalid when default-constructed.
struct Var {
    Tape* tape = nullptr;
    int id = -1;
    const Mat& value() const;
    Eigen::Index rows() const { return value().rows(); }
    Eigen::Index cols() const { return value().cols(); }
    /// The value of a 1x1 Var.
    double scalar() const { return value()(0, 0); }
    /// The gradient accumulated by backward() (zero matrix of the value's shape if none reached).
    Mat grad() const;
};

class Tape {
public:
    Tape() = default;
    Tape(const Tape&) = delete;
    Tape& operator=(const Tape&) = delete;

    /// A value without gradient (data, labels, noise).
    Var constant(Mat value);
    /// A leaf that accumulates its gradient into p.grad on backward(). p must outlive the tape.
    Var param(Parameter& p);
    /// A leaf whose gradient is kept on the tape (read it with Var::grad(); for tests).
    Var variable(Mat value);

    /// Back-propagates d(loss)/d(every node) from a 1x1 loss; adds into Parameter::grad.
    void backward(Var loss);

    /// Number of nodes recorded so far.
    int size() const { return int(m_nodes.size()); }

    // ---- used by the op implementations ----
    using BackwardFn = std::function<void(Tape&, const Mat& gOut)>;
    /// Records an op result. requiresGrad = any input requires a gradient.
    Var push(Mat value, bool requiresGrad, BackwardFn fn);
    bool requiresGrad(Var v) const { return m_nodes[size_t(v.id)].requiresGrad; }
    const Mat& valueOf(int id) const { return m_nodes[size_t(id)].value; }
    /// grad(v) += g (no-op when v needs no gradient).
    void accumulate(Var v, const Mat& g);
    Mat gradOf(int id) const;

private:
    struct Node {
        Mat value;
        Mat grad;
        bool requiresGrad = false;
        bool hasGrad = false;
        Parameter* param = nullptr;
        BackwardFn backward;
    };
    std::vector<Node> m_nodes;
};

// ---- ops ----
Var matmul(Var a, Var b);       ///< a (n x k) * b (k x m)
Var add(Var a, Var b);          ///< a + b (b broadcast, see above)
Var sub(Var a, Var b);          ///< a - b (b broadcast)
Var mul(Var a, Var b);          ///< elementwise a * b (b broadcast)
Var div(Var a, Var b);          ///< elementwise a / b (b broadcast); b != 0
Var scale(Var a, double s);     ///< s * a
Var addScalar(Var a, double s); ///< a + s
Var neg(Var a);                 ///< -a
Var relu(Var a);
Var tanh(Var a);
Var sigmoid(Var a);
Var softplus(Var a); ///< log(1 + exp(a)), stable for large |a|
Var exp(Var a);
Var log(Var a); ///< natural log; a > 0
Var square(Var a);
Var sum(Var a);         ///< 1x1
Var mean(Var a);        ///< 1x1
Var rowSum(Var a);      ///< rows x 1
Var colMean(Var a);     ///< 1 x cols
Var logSumExp(Var a);   ///< rows x 1, log sum_j exp(a_ij), stable
Var softmaxRows(Var a); ///< row-wise softmax
/// Per-row cross-entropy of softmax(logits) against integer labels (rows x 1).
Var softmaxCrossEntropy(Var logits, const std::vector<int>& labels);
/// out_r = a_{idx[r]}: rows picked by index (rows may repeat).
Var gatherRows(Var a, const std::vector<int>& idx);
/// out_n = sum_{r : idx[r] = n} a_r, n in [0, outRows).
Var scatterSumRows(Var a, const std::vector<int>& idx, int outRows);
Var concatCols(const std::vector<Var>& parts);
Var sliceCols(Var a, int start, int count);
Var transpose(Var a); ///< a^T
/// Elementwise KL( N(mu, exp(logvar)) || N(mu0, var0) ).
Var klGaussian(Var mu, Var logvar, double mu0, double var0);
/// mu + exp(logvar / 2) * eps (reparameterised Gaussian sample; eps has mu's shape).
Var reparam(Var mu, Var logvar, const Mat& eps);

} // namespace pl::nn
