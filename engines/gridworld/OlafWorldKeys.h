#pragma once
/// Every parameter key and result key of the olaf-world panel (OlafWorldEngine), declared once.

namespace pl::olaf::keys {

/// Parameter keys.
namespace param {
inline constexpr char kPhi[] = "phi";                  ///< pca | sfa: the frozen feature map φ
inline constexpr char kPhiDim[] = "phi_dim";           ///< features of φ
inline constexpr char kDz[] = "dz";                    ///< latent action dimension
inline constexpr char kBeta[] = "beta";                ///< weight of KL(q ‖ N(0, I))
inline constexpr char kLambdaAlign[] = "lambda_align"; ///< weight of the SeqΔ-REPA loss (aligned model)
inline constexpr char kWindow[] = "window";            ///< k: transitions integrated in Z
inline constexpr char kIterations[] = "iterations";    ///< Adam steps per model
inline constexpr char kContexts[] = "contexts";        ///< SpriteWorld contexts (generated data only)
inline constexpr char kDistractors[] = "distractors";  ///< moving distractor blobs per frame (generated)
inline constexpr char kClipsPerContext[] = "clips_per_context"; ///< generated data only
inline constexpr char kClipLength[] = "clip_length";            ///< frames per generated clip
inline constexpr char kFrame[] = "frame";                       ///< side of generated frames (px)
inline constexpr char kHidden[] = "hidden"; ///< hidden units of encoder, decoder, projector
inline constexpr char kLearningRate[] = "learning_rate";
inline constexpr char kBatch[] = "batch";              ///< windows per Adam step
inline constexpr char kProbeLabels[] = "probe_labels"; ///< labels of context A for the probe (50)
inline constexpr char kSfaFeatures[] = "sfa_features"; ///< random Fourier features of φ = sfa
} // namespace param

/// ResultDocument::metrics keys (<model> = baseline | aligned).
namespace metric {
inline constexpr char kCosineBaseline[] = "cross_context_cosine_baseline";
inline constexpr char kCosineAligned[] = "cross_context_cosine_aligned";
inline constexpr char kProbeBaseline[] = "probe_transfer_baseline"; ///< accuracy in [0, 1]
inline constexpr char kProbeAligned[] = "probe_transfer_aligned";
inline constexpr char kLabels90Baseline[] = "labels_to_90_baseline"; ///< labels of the new context
inline constexpr char kLabels90Aligned[] = "labels_to_90_aligned";
inline constexpr char kProcrustesBaseline[] = "procrustes_residual_baseline"; ///< relative, [0, 1]
inline constexpr char kProcrustesAligned[] = "procrustes_residual_aligned";
inline constexpr char kAdapterBaseline[] = "adapter_mse_ratio_baseline"; ///< D(o, A(a)) MSE / copy MSE
inline constexpr char kAdapterAligned[] = "adapter_mse_ratio_aligned";
inline constexpr char kReconBaseline[] = "recon_mse_baseline"; ///< D(o_t, μ) vs o_{t+1}, per pixel
inline constexpr char kReconAligned[] = "recon_mse_aligned";
inline constexpr char kRolloutBaseline[] = "rollout_shift_baseline"; ///< px per step of A's "right" in B
inline constexpr char kRolloutAligned[] = "rollout_shift_aligned";
inline constexpr char kAlignCosAligned[] = "align_cosine_aligned"; ///< mean cos(h(Z), Δφ), all windows
inline constexpr char kPhiExplained[] = "phi_explained_variance";  ///< PCA: fraction of pixel variance
inline constexpr char kClips[] = "clips";
inline constexpr char kTransitions[] = "transitions";
inline constexpr char kContextCount[] = "context_count";
inline constexpr char kLabelled[] = "labelled_transitions";
} // namespace metric

/// ResultDocument::series keys (x = Adam step).
namespace series {
inline constexpr char kReconBaseline[] = "loss_recon_baseline";
inline constexpr char kReconAligned[] = "loss_recon_aligned";
inline constexpr char kKlBaseline[] = "loss_kl_baseline";
inline constexpr char kKlAligned[] = "loss_kl_aligned";
inline constexpr char kAlignAligned[] = "loss_align_aligned";
inline constexpr char kLabelCurveBaseline[] = "label_curve_baseline"; ///< x = labels, y = accuracy
inline constexpr char kLabelCurveAligned[] = "label_curve_aligned";
} // namespace series

/// ResultDocument::matrices keys.
namespace matrix {
inline constexpr char kPhiBasis[] = "phi_basis";             ///< pixels x phi_dim
inline constexpr char kLatentBaseline[] = "latent_baseline"; ///< row i·(T−1)+t: posterior mean
inline constexpr char kLatentAligned[] = "latent_aligned";
inline constexpr char kPairCosine[] = "context_pair_cosine"; ///< C x 2C: baseline | aligned
inline constexpr char kRollout[] = "rollout_strip";          ///< rows: 3 H (B frames, baseline, aligned)
inline constexpr char kContextFrames[] = "context_frames";   ///< H x C·W: one frame per context
} // namespace matrix

/// ResultDocument::labels keys (per transition, rows as the latent matrices).
namespace label {
inline constexpr char kAction[] = "action";   ///< 0 right, 1 left, 2 up, 3 down, 4 stay; −1 unknown
inline constexpr char kContext[] = "context"; ///< context index
} // namespace label

/// Claim::id values.
namespace claim {
inline constexpr char kAlignedLatents[] = "aligned-latents";
inline constexpr char kCosineMargin[] = "cosine-margin";
inline constexpr char kProbeMargin[] = "probe-margin";
inline constexpr char kLabelEfficiency[] = "label-efficiency";
} // namespace claim

} // namespace pl::olaf::keys
