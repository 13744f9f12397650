#pragma once
/// Every parameter key and result key of the bimetric-ann panel (BimetricAnnEngine), declared
/// once; the engine writes under these names and the figures read through the same constants.

namespace pl::search::bimetric::keys {

namespace param {
inline constexpr char kQuota[] = "quota";            ///< Q: expensive calls per query
inline constexpr char kK[] = "k";                    ///< neighbours returned
inline constexpr char kLSearch[] = "l_search";       ///< stage-1 list size floor
inline constexpr char kDegree[] = "degree";          ///< R
inline constexpr char kLBuild[] = "l_build";         ///< L of the build
inline constexpr char kAlpha[] = "alpha";            ///< second-pass pruning factor
inline constexpr char kN[] = "n";                    ///< built-in base points
inline constexpr char kQueries[] = "queries";        ///< built-in queries
inline constexpr char kProxyDim[] = "proxy_dim";     ///< built-in proxy dimension
inline constexpr char kProxyNoise[] = "proxy_noise"; ///< built-in per-item error
} // namespace param

/// Query rules, in the order of the curves (suffixes of the per-method keys).
inline constexpr const char* kMethods[] = {"ours", "rerank", "single"};

namespace matrix {
inline constexpr char kNeighborsPrefix[] = "neighbors_";     ///< + method: queries x k, 0-based base rows
inline constexpr char kNeighborsExact[] = "neighbors_exact"; ///< brute force under D
} // namespace matrix

namespace vector {
inline constexpr char kExpensiveCallsPrefix[] = "expensive_calls_"; ///< + method: per query
inline constexpr char kQuotaGrid[] = "quota_grid";                  ///< the swept quotas Q
} // namespace vector

namespace metric {
inline constexpr char kRecallPrefix[] = "recall_";            ///< + method: mean recall@k at the run's quota
inline constexpr char kDistortion[] = "distortion";           ///< max / min of D/d over sampled pairs
inline constexpr char kDistortionQ99[] = "distortion_q99";    ///< 99th / 1st percentile of D/d
inline constexpr char kProxyCallsMean[] = "proxy_calls_mean"; ///< stage-1 d calls per query at the quota
inline constexpr char kBuildCallsProxy[] = "build_calls_proxy";
inline constexpr char kBuildCallsExpensive[] = "build_calls_expensive";
inline constexpr char kBaseRows[] = "base_rows";
inline constexpr char kQueryRows[] = "query_rows";
inline constexpr char kExpensiveDim[] = "expensive_dim";
inline constexpr char kProxyDimUsed[] = "proxy_dim_used";
inline constexpr char kMeanDegree[] = "mean_degree_proxy";
} // namespace metric

namespace series {
inline constexpr char kRecallVsQuotaPrefix[] = "recall_vs_quota_"; ///< + method: mean calls -> recall
inline constexpr char kRatioHist[] = "dd_ratio_hist";              ///< count vs (D/d) / median(D/d)
} // namespace series

namespace graph {
inline constexpr char kExplorer[] = "explorer"; ///< subset of the proxy graph around query 1
} // namespace graph

/// Node and edge attributes of the explorer graph.
namespace attr {
inline constexpr char kX[] = "x";       ///< first principal component (expensive space)
inline constexpr char kY[] = "y";       ///< second principal component
inline constexpr char kRole[] = "role"; ///< 0 other, 1 stage-1 (proxy) expanded, 2 stage-2 (D) expanded,
                                        ///< 3 true neighbour, 4 query, 5 returned by ours
inline constexpr char kStep[] = "step"; ///< expansion step within its stage (-1 none)
inline constexpr char kKind[] = "kind"; ///< edge: 0 graph edge, 1 stage-1 step, 2 stage-2 step
} // namespace attr

namespace claim {
inline constexpr char kBeatsRerank[] = "bimetric-beats-rerank";
inline constexpr char kRecall3000[] = "recall-at-3000";
inline constexpr char kQ100[] = "q100-equals-rerank";
} // namespace claim

} // namespace pl::search::bimetric::keys
