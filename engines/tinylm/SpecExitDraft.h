#pragma once
/// The SpecExit draft (specs-004 §17; EAGLE/MTP-style, feature level): input [F_j, emb(x_j)], the
/// target mlp_lm's hidden state before token j and the embedding of x_j (the target's own, frozen)
/// -> g = tanh(. Wg + bg) -> four heads: token logits g Wt + bt (x_{j+1}), confidence
/// sigmoid(g wc + bc), progress sigmoid(g wp + bp), remaining length softplus(g wr + br) (in units
/// of `remScale` tokens), plus the next feature g Wf + bf (an estimate of F_{j+1}) that drafting
/// feeds forward. Trained on the paperlab_nn tape with Adam: CE + a BCE + b MSE + c log-cosh
/// (a Huber-like loss) + the MSE of the feature. Plain data; pure functions; one thread per call.
#include "core/Rng.h"
#include "tinylm/TinyModel.h"

#include <functional>
#include <vector>

namespace pl::tinylm {

struct DraftModel {
    Mat wg, wt, wc, wp, wr, wf; ///< (h2 + e) x g, g x V, g x 1 (three heads), g x h2
    RowVec bg, bt, bc, bp, br, bf;
    double remScale = 32; ///< the remaining-length head predicts rem / remScale
    int vocab() const { return int(wt.cols()); }
};

/// One draft step for a batch of rows: features F (rows x h2) and tokens x (rows).
struct DraftOutput {
    Mat logits;                 ///< rows x V
    Eigen::VectorXd conf, prog; ///< in (0, 1)
    Eigen::VectorXd rem;        ///< tokens (>= 0)
    Mat nextFeature;            ///< rows x h2
};
DraftOutput draftForward(const DraftModel& d, const MlpLmModel& target, const Mat& features,
                         const std::vector<int>& tokens);

/// One training example: feature before token j, token j, next token and the signal labels.
struct DraftExample {
    Eigen::RowVectorXd feature, nextFeature;
    int token = 0, next = 0;
    double conf = 0, prog = 0, rem = 0; ///< rem in tokens
};

struct DraftTrainConfig {
    int hidden = 32, epochs = 6, batch = 128;
    double lr = 3e-3, wConf = 1, wProg = 1, wRem = 1, wFeature = 1;
};

/// Trains a fresh draft on \a examples (Glorot init from \a rng). \a tick gets the fraction done
/// once per minibatch (may throw to cancel); \a epochLoss, when given, the mean total loss per epoch.
DraftModel trainDraft(const MlpLmModel& target, const std::vector<DraftExample>& examples,
                      const DraftTrainConfig& c, Rng rng, std::vector<double>* epochLoss = nullptr,
                      const std::function<void(double)>& tick = {});

} // namespace pl::tinylm
