#pragma once
/// Seeded synthetic MLA decoding workload ("topic mixture with head specialisation", spec
/// section 1.3): shared keys in contiguous topic runs, V = the first d_v coordinates of K (MLA
/// latent), heads that prefer a few topics with strength s (specialisation), MTP rows as small
/// perturbations of the head's query, an attention-sink token, recent tokens on the current
/// topic and needle keys attended by retrieval heads. Deterministic in (spec, Rng).

#include "core/Rng.h"

#include <Eigen/Dense>

#include <vector>

namespace pl::tilesparse {

struct WorkloadSpec {
    int heads = 32;
    int mtpTokens = 2;
    int context = 4096;
    int dk = 64;
    int dv = 64;
    int topics = 16;
    int topicsPerHead = 2;
    double specialisation = 0.7; ///< s in [0, 1]; 0 = every head likes every topic equally
    double sharpness = 6.0;      ///< logit of a preferred-topic key (logit units)
    double keyNoise = 0.5;       ///< norm of the key noise relative to the topic component
    double queryNoise = 0.3;     ///< per-step query noise relative to the topic component
    double meanRunLength = 64;   ///< mean length of a topic run (geometric)
    int recentTokens = 16;       ///< last tokens that share the current topic
    int needles = 4;
    double retrievalFraction = 0.125;
    int steps = 6; ///< decode steps (query sets) generated
};

struct Workload {
    Eigen::MatrixXd K;              ///< context x d_k
    Eigen::MatrixXd V;              ///< context x d_v (= K's first d_v columns)
    std::vector<Eigen::MatrixXd> Q; ///< per step: (heads x mtp) x d_k, row = h * mtp + t
    std::vector<int> topicOfKey;    ///< topic index per token (-1 sink, -2 needle)
    std::vector<int> needleKey;     ///< token index of each needle
    std::vector<int> retrievalHead; ///< per head: needle index it retrieves, or -1
    int heads = 0;
    int mtpTokens = 1;
};

/// Throws pl::UsageError for inconsistent sizes (d_v > d_k, topics per head > topics).
Workload generateWorkload(const WorkloadSpec& spec, const Rng& rng);

} // namespace pl::tilesparse
