#pragma once
/// The `moe_lm` of tinylm (gemq-moe-quant): its plain forward pass with the routing decisions, the
/// same forward pass on the paperlab_nn tape (every tensor a Var chosen by the caller: parameter,
/// constant or variable), and training with Adam plus the Switch load-balancing loss
/// E sum_e f_e P_e. Pure functions; one thread per call.
#include "core/Rng.h"
#include "nn/Tape.h"
#include "tinylm/TinyModel.h"

#include <functional>
#include <vector>

namespace pl::tinylm {

/// The last `window` tokens before position t of \a seq, oldest first, `pad_id` before the start.
std::vector<int> moeContext(const MoeLmModel& m, const std::vector<int>& seq, int t);
/// Every (context, next token) pair of \a seqs, in order.
void moePairs(const MoeLmModel& m, const std::vector<std::vector<int>>& seqs,
              std::vector<std::vector<int>>& contexts, std::vector<int>& targets);

/// The chosen experts of one token row in one layer, ascending by expert index (size top_k).
using ExpertSet = std::vector<int>;

struct MoeOutput {
    Mat logits;                                ///< rows x V
    std::vector<std::vector<ExpertSet>> route; ///< [layer][row] the top-k experts
    std::vector<Mat> routerProbs;              ///< [layer] rows x E full softmax of the router logits
    std::vector<Mat> gates;                    ///< [layer] rows x E, gates of the chosen experts, 0 else
    std::vector<Mat> inputs;                   ///< [layer] rows x d, the block inputs h (when kept)
};

/// The top-k experts of each row of router logits (ties to the lower index) and their gates.
void routeTopK(const Mat& routerLogits, int k, std::vector<ExpertSet>& chosen, Mat& gates);

/// Forward pass of a batch of contexts. \a keepInputs stores each block's input h.
MoeOutput moeForward(const MoeLmModel& m, const std::vector<std::vector<int>>& contexts,
                     bool keepInputs = false);
/// Mean cross-entropy (nats) of the next tokens \a targets.
double moeLoss(const MoeLmModel& m, const std::vector<std::vector<int>>& contexts,
               const std::vector<int>& targets);

/// Vars of one expert on a tape.
struct MoeExpertVars {
    nn::Var w1, b1, w2, b2;
};
/// Vars of every tensor of a moe_lm on one tape (the caller picks param/constant/variable).
struct MoeVars {
    nn::Var tokEmb, wIn, bIn, head, headBias;
    std::vector<nn::Var> router;                    ///< [layer]
    std::vector<std::vector<MoeExpertVars>> expert; ///< [layer][expert]
};
/// Wraps every tensor of \a m as a constant of \a tape.
MoeVars moeConstants(nn::Tape& tape, const MoeLmModel& m);

/// The nodes of one expert in one layer (for Fisher traces): rows routed to it, its input x, its
/// pre-activation a = x w1 + b1, its hidden relu(a) and its output y (before the gate).
struct ExpertNodes {
    std::vector<int> rows;
    nn::Var x, a, hidden, y;
};

struct MoeTapeOutput {
    nn::Var logits;                              ///< rows x V
    nn::Var balance;                             ///< 1x1, sum over layers of E sum_e f_e P_e
    std::vector<nn::Var> routerLogits;           ///< [layer] rows x E
    std::vector<nn::Var> blockInputs;            ///< [layer] rows x d, h entering the block
    std::vector<std::vector<ExpertNodes>> nodes; ///< [layer][expert]; rows empty when unused
};

/// The forward pass on a tape (routing decided on the values, gates differentiable).
MoeTapeOutput moeTapeForward(nn::Tape& tape, const MoeVars& v, const MoeLmModel& shape,
                             const std::vector<std::vector<int>>& contexts);

struct MoeTrainConfig {
    int embed = 8, window = 4, dModel = 32, hidden = 64, layers = 4, experts = 8, topK = 2, padId = 0;
    std::vector<double> layerScales; ///< s_l (size layers; empty: all 1)
    int epochs = 6, batch = 128;
    double lr = 3e-3;
    double balanceWeight = 0.01; ///< weight of the Switch balancing loss
};

/// Trains a fresh moe_lm of vocabulary \a vocab on every (context, next token) pair of \a sequences
/// (Glorot init from \a rng). \a epochLoss gets the mean cross-entropy per epoch; \a tick is
/// called once per minibatch with the fraction done (may throw to cancel).
MoeLmModel trainMoeLm(const std::vector<std::vector<int>>& sequences, int vocab, const MoeTrainConfig& c,
                      Rng rng, std::vector<double>* epochLoss = nullptr,
                      const std::function<void(double)>& tick = {});

} // namespace pl::tinylm
