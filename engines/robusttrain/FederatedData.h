#pragma once
/// Federated data of the fedgr-noisy-labels panel (spec §3): a class-wise Dirichlet partition of
/// rows over clients, per-client label-noise injection (symmetric, pair flip, or a mix of clients
/// of either kind, rate ~ U[noise_min, noise_max]) and the assembled Federation (training rows in
/// file order with observed and clean labels, the client of each row, a clean test set), built
/// from synthetic data, a labelled CSV (`client_id`, `clean_label`, `split`) or an IDX pair.
/// Pure; deterministic in the Rng given; any thread.
#include "robusttrain/Datasets.h"
#include "robusttrain/RobustInputs.h"

#include <cstdint>
#include <string>
#include <vector>

namespace pl::robusttrain {

enum class LabelNoise { Symmetric, PairFlip, Mixed };

/// Client index (0..clients-1) of each row: for every class, its rows (in order, shuffled) are cut
/// by proportions p ~ Dirichlet(alpha 1_clients). Redrawn (at most 100 times) until every client
/// holds at least \a minRows rows; the last draw is kept otherwise.
std::vector<int> dirichletSplit(const std::vector<int>& y, int classes, int clients, double alpha, Rng rng,
                                int minRows = 2);

/// Observed labels after injection, and what was drawn per client.
struct InjectedNoise {
    std::vector<int> observed; ///< per row
    std::vector<double> rate;  ///< per client: the drawn flip probability
    std::vector<int> pairFlip; ///< per client: 1 = pair flip (y -> y + 1 mod K), 0 = symmetric
};
/// Flips each row of client k with probability rate_k ~ U[lo, hi]: symmetric to a uniformly drawn
/// other class, pair flip to (y + 1) mod K; mixed draws each client's kind with probability 1/2.
/// Client k draws from rng.fork("client/<k>") (independent of the other clients).
InjectedNoise injectLabelNoise(const std::vector<int>& clean, const std::vector<int>& client, int clients,
                               int classes, LabelNoise kind, double lo, double hi, const Rng& rng);

/// The training rows of all clients and the clean test set.
struct Federation {
    Dataset train;                         ///< observed (possibly noisy) labels, file order
    std::vector<int> clean;                ///< clean label of each training row
    std::vector<int> client;               ///< client index of each training row
    std::vector<std::vector<int>> members; ///< training rows of each client, ascending
    std::vector<int64_t> clientIds;        ///< id of each client (ascending)
    std::vector<double> injectedRate;      ///< per client; empty when nothing was injected
    Dataset test;                          ///< labels are clean labels
    std::vector<std::string> notes;        ///< warnings (clients with fewer than 2 rows, ...)
    int clients() const { return int(members.size()); }
};

/// How to build the federation.
struct FederationConfig {
    int clients = 10, samplesPerClient = 300, testSamples = 1000;
    std::string dataset = "blobs";
    int classes = 10, dim = 32;
    double separation = 3.0, alpha = 0.5, noiseMin = 0.0, noiseMax = 0.6;
    LabelNoise noise = LabelNoise::Symmetric;
};

/// Synthetic data (streams "layout", "train", "test"), or the user's dataset in \a g: `client_id`
/// fixes the clients (else a Dirichlet split, stream "dirichlet"), `clean_label` switches the
/// injection off (else the file's labels are taken as clean and noise is injected, stream
/// "noise"), `split` marks test rows (else 20 % are held out, stream "split"). Throws
/// pl::InputError when the file leaves no training or no test rows.
Federation buildFederation(const GatheredInputs& g, const FederationConfig& c, const Rng& root);

/// Rows of each client (indices into \a client), clients 0..n-1.
std::vector<std::vector<int>> membersOf(const std::vector<int>& client, int clients);

} // namespace pl::robusttrain
