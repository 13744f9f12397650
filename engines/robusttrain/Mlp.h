#pragma once
/// A multilayer perceptron for the robusttrain panels: weight matrices W_l (in x out, y = x W + b)
/// with digital biases, ReLU or tanh between layers. Trained on the paperlab_nn tape; evaluated
/// with plain Eigen, optionally with perturbed weight matrices (one draw perturbs each matrix once,
/// for every row). Not thread-safe per instance.
#include "core/Rng.h"
#include "nn/Parameter.h"
#include "nn/Tape.h"

#include <Eigen/Core>

#include <string>
#include <vector>

namespace pl::robusttrain {

enum class Activation { Relu, Tanh };

struct Mlp {
    std::vector<nn::Parameter> W; ///< in x out per layer
    std::vector<nn::Parameter> b; ///< 1 x out per layer (digital: never perturbed)
    Activation act = Activation::Relu;
    int layers() const { return int(W.size()); }
    std::vector<nn::Parameter*> params();
    /// The weight matrices' values (for perturbation).
    std::vector<Eigen::MatrixXd> weights() const;
};

/// Glorot-uniform MLP with the layer sizes \a sizes (input, hidden..., classes); zero biases.
Mlp makeMlp(const std::vector<int>& sizes, Activation act, Rng& rng);

/// An affine perturbation of each weight matrix on the tape: W~ = W o M + A (M, A constants of
/// W's shape; an empty M means 1, an empty A means 0).
struct TapeNoise {
    std::vector<Eigen::MatrixXd> mul, add;
};

/// Logits on tape \a t (weights as parameters, perturbed by \a noise when given); \a penultimate,
/// when given, receives the last hidden layer's activations (the input when there is one layer).
nn::Var forwardTape(nn::Tape& t, Mlp& net, const Eigen::MatrixXd& X, const TapeNoise* noise = nullptr,
                    nn::Var* penultimate = nullptr);

/// Logits (n x classes) with the weight matrices \a Ws (one per layer, each of W_l's shape) and the
/// network's biases.
Eigen::MatrixXd forwardWith(const Mlp& net, const std::vector<Eigen::MatrixXd>& Ws, const Eigen::MatrixXd& X);
/// Logits with the network's own weights; \a penultimate, when given, receives the last hidden
/// layer's activations.
Eigen::MatrixXd forward(const Mlp& net, const Eigen::MatrixXd& X, Eigen::MatrixXd* penultimate = nullptr);

} // namespace pl::robusttrain
