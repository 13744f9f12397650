#pragma once
/// Router fine-tuning of a quantised moe_lm (specs-004 §19): the experts stay frozen and only each
/// layer's router is trained with Adam on the calibration tokens to minimise KL(p_fp || p_q), read
/// here (our reconstruction) as the mean over layers of the KL between the full-precision router
/// distribution over experts and the quantised model's, each router fitted on its own block input.
/// An optional next-token KL term (weight 0 by default) back-propagates through the whole model; on
/// the stand-in its gradient through the hard top-k flipped routes and raised loss and shift.
/// Also the routing shift, the
/// share of (token, layer) pairs whose top-k expert set differs from full precision. Pure functions;
/// one thread per call; \a tick may throw to cancel.
#include "core/Rng.h"
#include "tinylm/MoeLm.h"

#include <functional>
#include <vector>

namespace pl::gemq {

/// Row-wise softmax of logits (the teacher's next-token distributions).
Eigen::MatrixXd softmaxRows(const Eigen::MatrixXd& logits);

/// Mean KL(p || softmax(logits)) over rows (nats).
double meanKl(const Eigen::MatrixXd& p, const Eigen::MatrixXd& logits);

struct RouterTuneConfig {
    int steps = 200;
    int batch = 64;
    double lr = 1e-3;
    double routerKlWeight = 1.0; ///< weight of the router-distribution KL term
    double outputKlWeight = 0.0; ///< weight of the next-token KL term
};

/// The full-precision targets of router tuning on the calibration rows.
struct TuneTargets {
    Eigen::MatrixXd pOut;                ///< rows x V next-token distributions
    std::vector<Eigen::MatrixXd> pRoute; ///< [layer] rows x E router distributions
};

/// Trains the routers of \a q in place for cfg.steps minibatches (cyclic over a shuffle of the rows
/// drawn from \a rng) against the full-precision targets \a t of \a contexts. Returns the minibatch
/// objective after each step.
std::vector<double> tuneRouters(tinylm::MoeLmModel& q, const std::vector<std::vector<int>>& contexts,
                                const TuneTargets& t, const RouterTuneConfig& cfg, Rng rng,
                                const std::function<void(double)>& tick = {});

/// Share of (row, layer) pairs whose expert set differs between \a a and \a b; \a perLayer gets
/// the share per layer.
double routingShift(const tinylm::MoeOutput& a, const tinylm::MoeOutput& b, std::vector<double>* perLayer);

/// Token share routed to each expert (L x E; each row sums to 1).
Eigen::MatrixXd expertLoad(const tinylm::MoeOutput& o, int experts);

} // namespace pl::gemq
