#pragma once
/// The sieve of FedGR (spec §3, our reconstruction of the server-side GMM): every client computes
/// the global model's loss l_i = CE(f(x_i; w_g), y~_i) on its rows and sends either a normalised
/// loss histogram (common bins over [0, the largest loss any client reports]) or the exact losses;
/// the server fits the two-component 1-D GMM (Gmm1d) to the pooled statistics, p_clean = the
/// posterior of the lower-mean component, and estimates each client's noise rate as
/// mean(1 - p_clean). Clients keep p_clean > 0.5 and relabel the rest to argmax f(x; w_g) when its
/// probability exceeds tau_conf, or drop them. The local-only baseline fits one GMM per client to
/// its own local model's losses. Pure; any thread.
#include "robusttrain/FedTraining.h"
#include "robusttrain/Gmm1d.h"

namespace pl::robusttrain {

struct SieveConfig {
    bool histogram = true; ///< clients send histograms (else exact losses)
    int bins = 50;
    double relabelConfidence = 0.9; ///< tau_conf
};

struct SieveOutcome {
    Gmm1d gmm;
    bool fitted = false;               ///< false: the losses were all equal, every row is kept
    std::vector<double> loss;          ///< per training row: the GMM's input (bin centre or exact loss)
    std::vector<double> pClean;        ///< per training row
    std::vector<double> noiseEstimate; ///< per client: mean(1 - p_clean)
    std::vector<char> kept;            ///< per training row: p_clean > 0.5
    LocalTargets targets;              ///< refined labels; weight 0 = dropped
    int relabelled = 0, dropped = 0;
    double maxLoss = 0; ///< upper end of the histogram bins
};

/// The server-side sieve with the global model \a global.
SieveOutcome globalSieve(const Mlp& global, const Federation& f, const SieveConfig& c);

/// The local-only baseline: client k sieves its rows with a GMM fitted to the losses of its own
/// model \a local[k] (no relabelling; the rest is dropped).
LocalTargets localSieve(const std::vector<Mlp>& local, const Federation& f);

/// Per client: precision |kept and clean| / |kept| and recall |kept and clean| / |clean| of the
/// kept set against the rows whose observed label equals the clean label (NaN when undefined).
void sieveQuality(const SieveOutcome& s, const Federation& f, std::vector<double>& precision,
                  std::vector<double>& recall);

/// Density histogram of \a x over \a bins equal bins on [0, hi]: bin centres and densities.
void densityHistogram(const std::vector<double>& x, double hi, int bins, std::vector<double>& centres,
                      std::vector<double>& density);

/// Pearson correlation of two equally long vectors (NaN when either is constant).
double pearson(const std::vector<double>& a, const std::vector<double>& b);

} // namespace pl::robusttrain
