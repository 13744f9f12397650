#include "nn/SpikingOps.h"

#include "core/Errors.h"

#include <cmath>
#include <string>

namespace pl::nn {

namespace {

Tape& tapeOf(Var a) {
    if (!a.tape || a.id < 0)
        throw EngineError("nn: invalid Var");
    return *a.tape;
}

void checkSteps(const char* op, const Mat& a, int steps) {
    if (steps <= 0 || a.rows() % steps != 0)
        throw EngineError(std::string("nn::") + op + ": " + std::to_string(a.rows()) +
                          " rows are not a whole number of " + std::to_string(steps) + " time steps");
}

} // namespace

double fastSigmoidGrad(double x, double slope) {
    const double d = 1.0 + slope * std::abs(x);
    return 1.0 / (d * d);
}

Var spike(Var u, double threshold, double slope) {
    Tape& t = tapeOf(u);
    Mat out = (u.value().array() > threshold).cast<double>().matrix();
    return t.push(std::move(out), t.requiresGrad(u), [u, threshold, slope](Tape& t, const Mat& g) {
        const Mat d = u.value().unaryExpr([&](double x) { return fastSigmoidGrad(x - threshold, slope); });
        t.accumulate(u, g.cwiseProduct(d));
    });
}

Var lifRecurrence(Var current, Var beta, int steps, double threshold, double slope, Mat* membrane) {
    Tape& t = tapeOf(current);
    const Mat& in = current.value();
    checkSteps("lifRecurrence", in, steps);
    if (beta.rows() != 1 || beta.cols() != 1)
        throw EngineError("nn::lifRecurrence: beta must be 1x1");
    const Eigen::Index b = in.rows() / steps, h = in.cols();
    const double bt = beta.scalar();
    Mat u(in.rows(), h), s(in.rows(), h);
    for (int k = 0; k < steps; ++k) {
        auto uk = u.middleRows(k * b, b);
        if (k == 0)
            uk = in.middleRows(0, b);
        else
            uk = bt * u.middleRows((k - 1) * b, b) + in.middleRows(k * b, b) -
                 threshold * s.middleRows((k - 1) * b, b);
        s.middleRows(k * b, b) = (uk.array() > threshold).cast<double>().matrix();
    }
    if (membrane)
        *membrane = u;
    const bool needs = t.requiresGrad(current) || t.requiresGrad(beta);
    return t.push(std::move(s), needs,
                  [current, beta, steps, threshold, slope, b, h, u = std::move(u)](Tape& t, const Mat& g) {
                      const double bt = beta.scalar();
                      Mat gu(u.rows(), h);
                      double gBeta = 0;
                      for (int k = steps - 1; k >= 0; --k) {
                          auto guk = gu.middleRows(k * b, b);
                          guk = g.middleRows(k * b, b).cwiseProduct(u.middleRows(k * b, b).unaryExpr(
                              [&](double x) { return fastSigmoidGrad(x - threshold, slope); }));
                          if (k + 1 < steps)
                              guk += bt * gu.middleRows((k + 1) * b, b);
                          if (k > 0)
                              gBeta += guk.cwiseProduct(u.middleRows((k - 1) * b, b)).sum();
                      }
                      if (t.requiresGrad(current))
                          t.accumulate(current, gu);
                      if (t.requiresGrad(beta))
                          t.accumulate(beta, Mat::Constant(1, 1, gBeta));
                  });
}

Var timeMean(Var a, int steps) {
    Tape& t = tapeOf(a);
    checkSteps("timeMean", a.value(), steps);
    const Eigen::Index b = a.rows() / steps;
    Mat out = Mat::Zero(b, a.cols());
    for (int k = 0; k < steps; ++k)
        out += a.value().middleRows(k * b, b);
    out /= double(steps);
    return t.push(std::move(out), t.requiresGrad(a), [a, steps](Tape& t, const Mat& g) {
        t.accumulate(a, (g / double(steps)).replicate(steps, 1));
    });
}

} // namespace pl::nn
