#pragma once
/// Quantisation costs of the experts of a moe_lm (specs-004 §19): c[l,e,b] = 1/2 sum_w F_w (w - Q_b(w))^2
/// over the expert's w1 and w2, where F is
/// - `fisher`: the diagonal empirical Fisher E_t[(d loss_t / d w)^2] over the calibration tokens
///   (per-token gradients, exact: for y = x W the squared per-token gradient of W is x^2 (x) g^2;
///   tokens not routed to the expert contribute 0), measured on the model as it is at that stage;
/// - `output`: the output proxy 1/2 E_t[g_e(t)^2 (|x_t dW1|^2 + |relu(x_t w1 + b1) dW2|^2)] (not
///   diagonal: through the routed inputs' Gram matrices);
/// - `weight_error`: F = 1.
/// Pure functions; one thread per call; \a tick may throw to cancel.
#include "tinylm/TinyModel.h"

#include <functional>
#include <string>
#include <vector>

namespace pl::gemq {

enum class Importance { Fisher, Output, WeightError };
/// "fisher" | "output" | "weight_error" (std::invalid_argument otherwise).
Importance importanceFromName(const std::string& s);

/// What the costs need from the calibration data, per item (l E + e).
struct Sensitivity {
    Importance kind = Importance::WeightError;
    std::vector<Eigen::MatrixXd> a1, a2; ///< fisher: F of w1, w2; output: Gram of the inputs, hiddens
};

/// Measures the sensitivity of every expert of \a m on (contexts, targets) (nothing to measure for
/// weight_error). Batches of 256 tokens; \a tick(fraction) after each.
Sensitivity measureSensitivity(const tinylm::MoeLmModel& m, Importance kind,
                               const std::vector<std::vector<int>>& contexts, const std::vector<int>& targets,
                               const std::function<void(double)>& tick = {});

/// The cost matrix (L E) x bits.size() of quantising the experts of \a fp (full precision) at each
/// bit-width with groups of \a group rows.
Eigen::MatrixXd expertCosts(const tinylm::MoeLmModel& fp, const Sensitivity& s, const std::vector<int>& bits,
                            int group);

/// Per layer: the Fisher trace sum of F over the experts' w1 and w2 (fisher sensitivity only).
std::vector<double> fisherTracePerLayer(const Sensitivity& s, int layers, int experts);

/// Weights of w1 and w2 per item (l E + e).
std::vector<double> expertParams(const tinylm::MoeLmModel& m);

} // namespace pl::gemq
