#pragma once
/// Every parameter key and result key of the inslen-hallucination panel (InsLenEngine), declared
/// once; the engine writes under these names and the figures read through the same constants.

namespace pl::hiddenstate::inslen::keys {

/// Parameter keys.
namespace param {
inline constexpr char kMode[] = "mode"; ///< file | toy
inline constexpr char kImageLayer[] = "image_layer";
inline constexpr char kTextLayer[] = "text_layer";
inline constexpr char kInstructionLayer[] = "instruction_layer";
inline constexpr char kK[] = "k";
inline constexpr char kContextNum[] = "context_num";
inline constexpr char kBias[] = "bias";
inline constexpr char kScale[] = "scale";
inline constexpr char kWeight[] = "weight";
inline constexpr char kGlsimW[] = "glsim_w";
inline constexpr char kObjects[] = "objects";   ///< toy
inline constexpr char kPatches[] = "patches";   ///< toy
inline constexpr char kDim[] = "d";             ///< toy
inline constexpr char kLayers[] = "layers";     ///< toy
inline constexpr char kSteps[] = "steps";       ///< toy
inline constexpr char kCaptions[] = "captions"; ///< toy
} // namespace param

/// ResultDocument::metrics keys.
namespace metric {
inline constexpr char kAurocInslen[] = "auroc_inslen";
inline constexpr char kAurocGlsim[] = "auroc_glsim";
inline constexpr char kAurocMeanProb[] = "auroc_mean_prob";
inline constexpr char kAurocSvar[] = "auroc_svar";
inline constexpr char kAurocCalibratedLocal[] = "auroc_calibrated_local";
inline constexpr char kAurocContext[] = "auroc_context_consistency";
inline constexpr char kAuprInslen[] = "aupr_inslen";
inline constexpr char kFpr95Inslen[] = "fpr95_inslen";
inline constexpr char kObjectsScored[] = "objects_scored";
inline constexpr char kObjectsSkipped[] = "objects_skipped";
inline constexpr char kHallucinationRate[] = "hallucination_rate";
} // namespace metric

/// ResultDocument::vectors keys (one entry per scored object).
namespace vector {
inline constexpr char kInslen[] = "inslen";
inline constexpr char kCalibratedLocal[] = "calibrated_local";
inline constexpr char kContextConsistency[] = "context_consistency";
inline constexpr char kMeanProb[] = "mean_prob";
inline constexpr char kGlsim[] = "glsim";
inline constexpr char kSvar[] = "svar";
inline constexpr char kLabel[] = "label";
inline constexpr char kCaption[] = "caption"; ///< 0-based caption index of each scored object
} // namespace vector

/// ResultDocument::series keys.
namespace series {
inline constexpr char kRocPrefix[] = "roc_";                  ///< + detector id
inline constexpr char kDensityRealPrefix[] = "density_real_"; ///< + detector id
inline constexpr char kDensityHallPrefix[] = "density_hallucinated_";
inline constexpr char kTrainLoss[] = "train_loss"; ///< toy
} // namespace series

/// ResultDocument::matrices keys.
namespace matrix {
inline constexpr char kAurocLayers[] = "auroc_layers";    ///< image layer x text layer
inline constexpr char kPatchGrid[] = "patch_grid";        ///< first scored object's image-lens probabilities
inline constexpr char kTopPatchGrid[] = "top_patch_grid"; ///< 1 on its top-k patches, else 0
} // namespace matrix

/// Claim::id values.
namespace claim {
inline constexpr char kReport[] = "c1-detector-auroc-report"; ///< report only: no ranking asserted
} // namespace claim

/// Detector ids used in series keys, in figure order.
inline constexpr const char* kDetectors[] = {
    "inslen", "calibrated_local", "context_consistency", "mean_prob", "glsim", "svar"};

} // namespace pl::hiddenstate::inslen::keys
