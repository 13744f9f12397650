#pragma once
/// A trainable matrix with its gradient and Adam moments, and initialisers drawn from pl::Rng.
#include "core/Rng.h"

#include <Eigen/Dense>

#include <string>
#include <vector>

namespace pl::nn {

using Mat = Eigen::MatrixXd;

/// One trainable matrix. grad is filled by Tape::backward and cleared by zeroGrad().
struct Parameter {
    std::string name;
    Mat value;
    Mat grad; ///< same shape as value
    Mat m;    ///< Adam first moment
    Mat v;    ///< Adam second moment
    Parameter() = default;
    Parameter(std::string n, Mat init);
    void zeroGrad() { grad.setZero(); }
};

/// Glorot/Xavier uniform init: U(-a, a), a = sqrt(6 / (rows + cols)).
Mat glorotUniform(int rows, int cols, Rng& rng);
/// rows x cols standard normals times sd.
Mat normalMatrix(int rows, int cols, double sd, Rng& rng);

/// Adam (Kingma & Ba) with optional global gradient-norm clipping. Not thread-safe.
class Adam {
public:
    explicit Adam(double lr = 1e-2, double beta1 = 0.9, double beta2 = 0.999, double eps = 1e-8);
    /// One update of every parameter from its grad; grads are left untouched.
    void step(const std::vector<Parameter*>& params);
    void setLearningRate(double lr) { m_lr = lr; }
    double learningRate() const { return m_lr; }
    /// Clip the joint gradient norm to this value before the update (<= 0: off).
    void setClipNorm(double c) { m_clip = c; }
    int steps() const { return m_t; }

private:
    double m_lr, m_b1, m_b2, m_eps;
    double m_clip = 0;
    int m_t = 0;
};

} // namespace pl::nn
