#pragma once
/// The tiny language models of the tinylm engine, in double, with y = x W (weights stored
/// input-major, as in the `.safetensors` files):
/// - `transformer`: h = tok_emb[x_t] + pos_emb[t]; per layer h += Attn(N1(h)), then h += MLP(N2(h))
///   when the layer has one; logits = N_f(h) head. N = LayerNorm (eps 1e-5, biased variance) or the
///   identity; attention splits wq/wk/wv into n_heads equal column slices, q.k / sqrt(d_head),
///   softmax over the visible keys, heads concatenated, times wo; MLP act(x w1 + b1) w2 + b2 with
///   act = relu | gelu (erf).
/// - `mlp_lm`: the last `window` token embeddings concatenated oldest first (`pad_id` before the
///   start) -> act(. w1 + b1) -> act(. w2 + b2) = hidden state -> . head + head_bias, act = tanh | relu.
/// - `moe_lm` (gemq-moe-quant): the window embedding as in mlp_lm -> . w_in + b_in = h; per layer l
///   h += s_l sum_{e in top-k} g_e FFN_e(h), FFN_e = relu(h w1 + b1) w2 + b2, g = softmax over the
///   chosen router logits h router (ties to the lower expert); logits = h head + head_bias. s_l is
///   the fixed layer scale (optional tensor `layers.<l>.scale`, default 1; the `hetero` knob).
/// Plain data; immutable after construction, shareable between threads.
#include "tinylm/SafeTensors.h"

#include <Eigen/Core>

#include <string>
#include <vector>

namespace pl::tinylm {

using Mat = Eigen::MatrixXd;
using RowVec = Eigen::RowVectorXd;

enum class Norm { LayerNorm, None };
enum class Act { Relu, Gelu, Tanh };

/// "relu" | "gelu" | "tanh" (throws std::invalid_argument otherwise).
Act actFromName(const std::string& s);
std::string actName(Act a);
/// Applies the activation elementwise in place.
void applyAct(Act a, Mat& x);

struct TransformerLayer {
    RowVec ln1w, ln1b, ln2w, ln2b; ///< empty when the norm is none
    Mat wq, wk, wv, wo;            ///< d x d
    bool hasMlp = false;
    Mat w1, w2; ///< d x f, f x d
    RowVec b1, b2;
};

struct TransformerModel {
    int nHeads = 1;
    Norm norm = Norm::None;
    Act act = Act::Relu;
    Mat tokEmb; ///< V x d
    Mat posEmb; ///< P x d (P = the longest sequence)
    std::vector<TransformerLayer> layers;
    RowVec lnfw, lnfb; ///< empty when the norm is none
    Mat head;          ///< d x V
    int vocab() const { return int(tokEmb.rows()); }
    int dModel() const { return int(tokEmb.cols()); }
    int maxPositions() const { return int(posEmb.rows()); }
    int dHead() const { return dModel() / nHeads; }
};

struct MlpLmModel {
    int window = 4;
    int padId = 0;
    Act act = Act::Tanh;
    Mat tokEmb;      ///< V x e
    Mat w1;          ///< (window e) x h1
    RowVec b1;       ///< h1
    Mat w2;          ///< h1 x h2
    RowVec b2;       ///< h2
    Mat head;        ///< h2 x V
    RowVec headBias; ///< V
    int vocab() const { return int(tokEmb.rows()); }
    int hidden() const { return int(w2.cols()); }
};

/// One expert FFN of a moe_lm block: relu(h w1 + b1) w2 + b2.
struct MoeExpert {
    Mat w1;    ///< d x f
    RowVec b1; ///< f
    Mat w2;    ///< f x d
    RowVec b2; ///< d
};

struct MoeLayer {
    Mat router;    ///< d x E
    double scale = 1; ///< s_l, fixed (not trained)
    std::vector<MoeExpert> experts;
};

struct MoeLmModel {
    int window = 4;
    int padId = 0;
    int topK = 2;
    Mat tokEmb;      ///< V x e
    Mat wIn;         ///< (window e) x d
    RowVec bIn;      ///< d
    std::vector<MoeLayer> layers;
    Mat head;        ///< d x V
    RowVec headBias; ///< V
    int vocab() const { return int(tokEmb.rows()); }
    int dModel() const { return int(wIn.cols()); }
    int nLayers() const { return int(layers.size()); }
    int nExperts() const { return layers.empty() ? 0 : int(layers[0].experts.size()); }
};

/// A model read from a file: `arch` says which member is set.
struct LoadedModel {
    std::string arch; ///< "transformer" | "mlp_lm" | "moe_lm"
    TransformerModel transformer;
    MlpLmModel mlp;
    MoeLmModel moe;
};

/// Builds a model from a parsed `.safetensors` file (metadata `arch, n_layers, n_heads, norm, act,
/// window, pad_id`; moe_lm: `n_layers, n_experts, top_k, window, pad_id`). A missing or misshaped tensor is named in the pl::InputError (file \a path).
LoadedModel modelFromSafeTensors(const SafeTensorsFile& f, const std::string& path);
/// The file form of a model (F64 tensors and metadata); inverse of modelFromSafeTensors().
SafeTensorsFile toSafeTensors(const TransformerModel& m);
SafeTensorsFile toSafeTensors(const MlpLmModel& m);
SafeTensorsFile toSafeTensors(const MoeLmModel& m);

} // namespace pl::tinylm
