#pragma once
/// Every parameter key and result key of the visual-persuasion panel (PersuasionEngine), declared
/// once; the engine writes under these names and the figures read through the same constants.

namespace pl::convimg::persuasion::keys {

/// Parameter keys.
namespace param {
inline constexpr char kAgent[] = "agent";          ///< planted | brightness | layout (stand-in agents)
inline constexpr char kProducts[] = "products";    ///< products rendered (1-20)
inline constexpr char kImageSize[] = "image_size"; ///< pixels per side
inline constexpr char kOptimiser[] = "optimiser";  ///< vfd | cvpo | vtg
inline constexpr char kQueries[] = "queries";      ///< agent duels the optimiser may ask
inline constexpr char kIterations[] = "iterations";
inline constexpr char kTau[] = "tau";              ///< decision temperature
inline constexpr char kBPos[] = "b_pos";           ///< position bias (first shown)
inline constexpr char kBtL2[] = "bt_l2";           ///< L2 on utilities / coefficients
inline constexpr char kBootstrap[] = "bootstrap";  ///< bootstrap resamples for the CIs
inline constexpr char kEvalDuels[] = "eval_duels"; ///< fresh duels, optimised vs original
} // namespace param

/// ResultDocument::metrics keys.
namespace metric {
inline constexpr char kSpearman[] = "spearman_bt_true"; ///< mid-ranks
inline constexpr char kDuels[] = "duels";               ///< fresh evaluation duels
inline constexpr char kDuelWins[] = "duel_wins";        ///< won by the optimised image
inline constexpr char kWinRate[] = "win_rate";
inline constexpr char kWinRateLcb[] = "win_rate_lcb";               ///< Wilson 95% lower bound
inline constexpr char kWinRateNormalised[] = "win_rate_normalised"; ///< both images normalised
inline constexpr char kWinRateNormalisedLcb[] = "win_rate_normalised_lcb";
inline constexpr char kExcessRemoved[] = "excess_removed"; ///< 1 - (wr_norm - 0.5) / (wr - 0.5)
inline constexpr char kQueriesUsed[] = "queries_used";
inline constexpr char kFirstShownWinRate[] = "first_shown_win_rate"; ///< search duels
inline constexpr char kChallengerFirstWinRate[] = "challenger_first_win_rate";
inline constexpr char kChallengerSecondWinRate[] = "challenger_second_win_rate";
inline constexpr char kSearchPositionBias[] = "search_position_bias"; ///< BT position term, search log
inline constexpr char kAgentFitR2[] = "agent_fit_r2";                 ///< readout v vs the planted taste
inline constexpr char kPositionBias[] = "position_bias";              ///< with a log: BT position term
inline constexpr char kLogLikelihood[] = "log_likelihood";            ///< with a log: unpenalised
inline constexpr char kLogDuels[] = "log_duels";
} // namespace metric

/// ResultDocument::series keys.
namespace series {
inline constexpr char kWinRateVsIteration[] = "win_rate_vs_iteration"; ///< monitor duels
inline constexpr char kWinRateLower[] = "win_rate_lower";              ///< Wilson 95% band
inline constexpr char kWinRateUpper[] = "win_rate_upper";
} // namespace series

/// ResultDocument::vectors keys.
namespace vector {
inline constexpr char kBtCoef[] = "bt_coef";                 ///< per edit (order of the edit vocabulary)
inline constexpr char kBtCoefLo[] = "bt_coef_lo";            ///< bootstrap 2.5%
inline constexpr char kBtCoefHi[] = "bt_coef_hi";            ///< bootstrap 97.5%
inline constexpr char kTrueCoef[] = "true_coef";             ///< planted mean effect of the edit alone / tau
inline constexpr char kOptimisedEdits[] = "optimised_edits"; ///< 0/1 per edit
inline constexpr char kBtUtility[] = "bt_utility"; ///< with a log: per image, names sorted byte-wise
} // namespace vector

/// ResultDocument::matrices keys.
namespace matrix {
inline constexpr char kImages[] = "images";          ///< luminance: original | optimised, per product row
inline constexpr char kPairwise[] = "pairwise_wins"; ///< row beats column, top variants
inline constexpr char kEdits[] = "edits";            ///< edit x (bt, lo, hi, true), row labels = edits
inline constexpr char kLogUtility[] = "log_utility"; ///< with a log: image x utility, row labels
} // namespace matrix

/// Claim::id values.
namespace claim {
inline constexpr char kWins[] = "c1-optimised-wins";
inline constexpr char kSpearman[] = "c2-bt-recovers-preferences";
inline constexpr char kNormalisation[] = "c3-normalisation-mitigates";
} // namespace claim

} // namespace pl::convimg::persuasion::keys
