#pragma once
/// The methods of the fedgr-noisy-labels panel, run round by round on one Federation: FedAvg,
/// FedProx, local-only sieving, centralised training on the pooled noisy rows, FedGR and its
/// ablations (no sieve, no EMA teacher, no representation term). FedAvg, local sieving and the
/// FedGR variants share the warm-up rounds (plain FedAvg) and branch after them. Pure;
/// deterministic in the Rng given; any thread.
#include "robusttrain/FedSieve.h"

#include <map>
#include <string>

namespace pl::robusttrain {

/// Method keys, in display order.
inline constexpr const char* kFedMethods[] = {"fedavg", "fedprox",        "local_sieve",  "centralised",
                                              "fedgr",  "fedgr_no_sieve", "fedgr_no_ema", "fedgr_no_rep"};

struct FedSchedule {
    int rounds = 40, warmup = 10;
    LocalConfig local; ///< epochs, batch, lr, kd temperature, EMA momentum (weights set per method)
    SieveConfig sieve;
    double kdWeight = 1.0, repWeight = 0.1, reviseBeta = 0.5, proxMu = 0.01;
};

/// Per round (index 0 = after round 1).
struct MethodTrace {
    std::vector<double> testAcc, memorisation;
};

struct FedRunOutput {
    std::map<std::string, MethodTrace> traces; ///< by method key
    SieveOutcome lastSieve;                    ///< FedGR's last sieve (the final model's when none ran)
    int sieveRound = 0;                        ///< round whose start it was (rounds + 1: after the end)
};

/// Runs every method. \a progress(fraction, what) is called after each round and may throw to
/// cancel; \a poll is called after every local step and may throw.
FedRunOutput runFedMethods(const Federation& f, const Mlp& init, const FedSchedule& s, const Rng& root,
                           const std::function<void(double, const std::string&)>& progress,
                           const std::function<void()>& poll);

/// One FedAvg-style round from \a global: every client trains a copy on its rows with targets
/// \a t (teacher k distilled when \a teachers is given); returns the weighted average and, in
/// \a local when given, the clients' models.
Mlp federatedRound(const Mlp& global, const Federation& f, const LocalTargets& t, const LocalConfig& c,
                   std::vector<Mlp>* teachers, const Rng& rng, const std::function<void()>& poll,
                   std::vector<Mlp>* local = nullptr);

} // namespace pl::robusttrain
