#pragma once
/// The message-passing relation predictor of CURVE-lite (spec §2.2), on the paperlab_nn tape:
///   h_i = tanh(W_n x_i)                                      node encoder
///   [mu_ij, log s2_ij] = MLP_e([h_i, h_j, e_ij])             variational edge (logit of "edge exists")
///   z_ij = mu_ij + s_ij eps (CURVE) or mu_ij (baseline);  a_ij = sigmoid(z_ij / tau)
///   m_j = sum_i a_ij W_m [h_i, e_ij];  h_j <- tanh(h_j + W_u [h_j, m_j])   (L layers)
///   u_ij = tanh(W_r [h_i, h_j, e_ij]);  CURVE: u' = u - softmax(u P^T / tau_p) P  (prototypes)
///   logits_ij = [0, z_ij + t_1, z_ij + t_2],  t = W_o u'      (none / approaching / following)
/// The edge variable z_ij is both the message gate and the "relation exists" logit, so its
/// posterior variance s2_ij is the model's uncertainty about that edge of the scene graph.
/// Stand-ins: tanh residual updates instead of LayerNorm; prototypes start at small random
/// values instead of per-environment means. A plain value type: copy it to fine-tune a copy.
#include "curve/GraphBatch.h"

#include "nn/Tape.h"

namespace pl::curve {

struct ModelConfig {
    int hidden = 16;
    int layers = 2;
    bool variational = false; ///< CURVE: sample z; baseline: z = mu
    bool prototypes = false;  ///< CURVE: prototype-conditioned debiasing
    int prototypeCount = 2;   ///< one per training environment
    double prototypeTemperature = 1.0;
};

class RelationModel {
public:
    RelationModel(const ModelConfig& cfg, Rng rng);

    struct Forward {
        nn::Var mu, logvar, z, a; ///< edges x 1
        nn::Var pairRep;          ///< pairs x hidden (after debiasing)
        nn::Var protoLogits;      ///< pairs x prototypes (invalid without prototypes)
        nn::Var logits;           ///< pairs x kRelations
    };
    /// Builds the forward pass on `tape`. eps: edges x 1 standard normals (ignored unless the
    /// model is variational; nullptr = use the mean). tau: gate temperature.
    Forward forward(nn::Tape& tape, const GraphBatch& b, const nn::Mat* eps, double tau);

    std::vector<nn::Parameter*> parameters();
    const ModelConfig& config() const { return m_cfg; }

private:
    ModelConfig m_cfg;
    nn::Parameter m_wn, m_bn;                          // node encoder
    nn::Parameter m_we1, m_be1, m_we2, m_be2;          // edge MLP
    std::vector<nn::Parameter> m_wm, m_bm, m_wu, m_bu; // message passing layers
    nn::Parameter m_wr, m_br, m_wo, m_bo;              // relation head
    nn::Parameter m_proto;                             // prototypes x hidden
};

} // namespace pl::curve
