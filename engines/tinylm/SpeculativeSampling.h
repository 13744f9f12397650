#pragma once
/// Speculative sampling (Leviathan et al. 2023; Chen et al. 2023) over any target and draft given
/// as next-token distributions of a prefix: the draft proposes gamma tokens from q; each is accepted
/// with probability min(1, p/q); at the first rejection a token is drawn from norm(max(0, p - q));
/// when all are accepted a bonus token is drawn from p. With temperature 0 both distributions are
/// one-hot argmaxes (lowest index on ties): a draft is accepted iff it is the target's argmax, so
/// the output equals greedy autoregressive decoding. Shared by specexit-decoding (mlp_lm target,
/// feature-level draft) and its tests; a chi-square tail for the law checks.
/// Pure functions; randomness only from the Rng passed in.
#include "core/Rng.h"

#include <Eigen/Core>

#include <functional>
#include <vector>

namespace pl::tinylm {

/// softmax(logits / temperature); temperature 0: one-hot at the argmax.
Eigen::VectorXd tempered(const Eigen::VectorXd& logits, double temperature);
/// A draw from a distribution (inverse CDF on one uniform).
int sampleFrom(const Eigen::VectorXd& p, Rng& rng);

/// Next-token distribution of a prefix.
using NextDist = std::function<Eigen::VectorXd(const std::vector<int>& prefix)>;

struct SpecStepResult {
    std::vector<int> tokens; ///< accepted drafts, then the correction or bonus token
    int accepted = 0;        ///< drafts accepted (0..gamma)
};

/// One verification: \a drafts with their draft distributions \a q (gamma of them) against the
/// target's distributions \a p (gamma + 1: after the prefix and after each draft).
SpecStepResult verifyDrafts(const std::vector<int>& drafts, const std::vector<Eigen::VectorXd>& q,
                            const std::vector<Eigen::VectorXd>& p, Rng& rng);

struct SpecDecodeStats {
    std::vector<int> tokens;
    std::vector<int> acceptLens; ///< drafts accepted per target call
    int targetCalls = 0, draftCalls = 0;
};

/// Speculative decoding of \a n tokens after \a prompt (gamma drafts per target call).
SpecDecodeStats decodeSpeculative(const NextDist& target, const NextDist& draft,
                                  const std::vector<int>& prompt, int n, int gamma, Rng& rng);
/// Autoregressive sampling of \a n tokens from \a target.
std::vector<int> decodeAutoregressive(const NextDist& target, const std::vector<int>& prompt, int n,
                                      Rng& rng);

/// P(X > x) for X ~ chi-square with \a dof degrees of freedom (regularised upper incomplete gamma).
double chiSquareTail(double x, double dof);

} // namespace pl::tinylm
