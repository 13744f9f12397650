#pragma once
// Shared by the tape's gradient tests (tst_nn, tst_nn_special): backward() against central finite
// differences of a scalar loss built from an op.
#include "nn/Parameter.h"
#include "nn/Tape.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <vector>

namespace pl::nn::test {

/// loss = sum(W .* f(inputs)) with a fixed random W, so that every output entry matters.
using Builder = std::function<Var(Tape&, const std::vector<Var>&)>;

inline double maxRelError(const std::vector<Mat>& inputs, const Builder& f, uint64_t seed = 5,
                          double h = 1e-6) {
    pl::Rng rng(seed);
    Mat W;
    auto lossOf = [&](const std::vector<Mat>& xs, std::vector<Mat>* grads) {
        Tape t;
        std::vector<Var> vs;
        for (const Mat& x : xs)
            vs.push_back(t.variable(x));
        Var y = f(t, vs);
        if (W.size() == 0)
            W = normalMatrix(int(y.rows()), int(y.cols()), 1.0, rng);
        Var loss = sum(mul(y, t.constant(W)));
        if (grads) {
            t.backward(loss);
            for (const Var& v : vs)
                grads->push_back(v.grad());
        }
        return loss.scalar();
    };
    std::vector<Mat> analytic;
    lossOf(inputs, &analytic);
    double worst = 0;
    for (size_t k = 0; k < inputs.size(); ++k)
        for (Eigen::Index i = 0; i < inputs[k].size(); ++i) {
            std::vector<Mat> p = inputs, m = inputs;
            p[k](i) += h;
            m[k](i) -= h;
            const double num = (lossOf(p, nullptr) - lossOf(m, nullptr)) / (2 * h);
            const double an = analytic[k](i);
            worst = std::max(worst, std::abs(num - an) / std::max(1.0, std::abs(num) + std::abs(an)));
        }
    return worst;
}

} // namespace pl::nn::test
