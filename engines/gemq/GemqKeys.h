#pragma once
/// Every parameter key and result key of the gemq-moe-quant panel (GemqEngine), declared once; the
/// engine writes under these names and the figures read through the same constants.

namespace pl::gemq::keys {

namespace param {
inline constexpr char kBits[] = "bits";
inline constexpr char kAvgBits[] = "avg_bits";
inline constexpr char kGroup[] = "group";
inline constexpr char kImportance[] = "importance";
inline constexpr char kRouterSteps[] = "router_steps";
inline constexpr char kHetero[] = "hetero";
inline constexpr char kStages[] = "stages";
inline constexpr char kLayers[] = "layers";
inline constexpr char kExperts[] = "experts";
inline constexpr char kTopK[] = "top_k";
inline constexpr char kDModel[] = "d_model";
inline constexpr char kCalibTokens[] = "calib_tokens";
inline constexpr char kTrainEpochs[] = "train_epochs";
} // namespace param

namespace matrix {
inline constexpr char kCost[] = "cost";                    ///< L*E rows (layer, expert) x bit options
inline constexpr char kBitsGlobal[] = "bits_global";       ///< L x E
inline constexpr char kBitsLayerwise[] = "bits_layerwise"; ///< L x E
inline constexpr char kExpertLoad[] = "expert_load";       ///< L x E token share, full precision
inline constexpr char kExpertLoadQuant[] = "expert_load_quantised"; ///< L x E, GEMQ before router tuning
} // namespace matrix

namespace vector {
inline constexpr char kParams[] = "params";            ///< per (layer, expert): weights of w1 and w2
inline constexpr char kBitOptions[] = "bit_options";   ///< the bit-widths
inline constexpr char kFisherTrace[] = "fisher_trace"; ///< per layer: sum of F over expert w1, w2
inline constexpr char kShiftBefore[] = "routing_shift_layer_before_ft"; ///< per layer
inline constexpr char kShiftAfter[] = "routing_shift_layer_after_ft";   ///< per layer
inline constexpr char kHullExperts[] = "hull_experts"; ///< item index (l E + e) of each hull series
} // namespace vector

namespace series {
inline constexpr char kUniform[] = "loss_vs_bits_uniform";
inline constexpr char kGlobal[] = "loss_vs_bits_global";
inline constexpr char kLayerwise[] = "loss_vs_bits_layerwise";
inline constexpr char kLpGlobal[] = "lp_objective_vs_budget_global";
inline constexpr char kLpLayerwise[] = "lp_objective_vs_budget_layerwise";
inline constexpr char kHullPrefix[] = "hull_";       ///< + layer: hull of the layer's busiest expert
inline constexpr char kOptionsPrefix[] = "options_"; ///< + layer: every option of that expert
inline constexpr char kStageLoss[] = "stage_loss";   ///< GEMQ loss after each stage vs its budget
} // namespace series

namespace metric {
inline constexpr char kLpGlobal[] = "lp_objective_global";
inline constexpr char kLpLayerwise[] = "lp_objective_layerwise";
inline constexpr char kCostGlobal[] = "cost_global"; ///< cost of the rounded global allocation
inline constexpr char kCostLayerwise[] = "cost_layerwise";
inline constexpr char kAvgBitsGlobal[] = "avg_bits_global";
inline constexpr char kAvgBitsLayerwise[] = "avg_bits_layerwise";
inline constexpr char kMinAvgBits[] = "min_avg_bits";
inline constexpr char kLpClpGlobal[] = "lp_objective_global_clp";
inline constexpr char kLpClpLayerwise[] = "lp_objective_layerwise_clp";
inline constexpr char kLossFp[] = "loss_fp";
inline constexpr char kLossUniform[] = "loss_uniform";
inline constexpr char kUniformBits[] = "uniform_bits";
inline constexpr char kLossGlobal[] = "loss_global";
inline constexpr char kLossLayerwise[] = "loss_layerwise";
inline constexpr char kLossGlobalBeforeFt[] = "loss_global_before_ft";
inline constexpr char kLossOneShot[] = "loss_one_shot";
inline constexpr char kShiftBefore[] = "routing_shift_before_ft";
inline constexpr char kShiftAfter[] = "routing_shift_after_ft";
inline constexpr char kGlobalGain[] = "global_gain_vs_layerwise"; ///< relative, on the excess loss
inline constexpr char kFisherSpread[] = "fisher_trace_spread";    ///< max / min over layers
inline constexpr char kTrainLoss[] = "train_loss";
inline constexpr char kBytesFp[] = "bytes_fp32";
inline constexpr char kBytesGlobal[] = "bytes_global";
} // namespace metric

namespace claim {
inline constexpr char kGreedyLp[] = "c1-greedy-equals-lp";
inline constexpr char kGlobalBeats[] = "c2-global-not-worse";
inline constexpr char kGlobalGain[] = "c3-global-gain-heterogeneous";
inline constexpr char kRouterShift[] = "c4-router-tuning-lowers-shift";
inline constexpr char kRouterLoss[] = "c5-router-tuning-lowers-loss";
} // namespace claim

} // namespace pl::gemq::keys
