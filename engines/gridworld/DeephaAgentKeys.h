#pragma once
/// Every parameter key and result key of the deepha-agent panel (DeephaAgentEngine), declared once.

namespace pl::deepha::keys {

/// Parameter keys.
namespace param {
inline constexpr char kStage[] = "stage"; ///< plan (tech tree, closures, expert) | full (train + evaluate)
inline constexpr char kGrid[] = "grid";   ///< side of the generated maps (cells)
inline constexpr char kDemosPerTask[] = "demos_per_task";
inline constexpr char kEpisodeCap[] = "episode_cap"; ///< steps per episode
inline constexpr char kHidden[] = "hidden";          ///< units per hidden layer (2 layers)
inline constexpr char kHistory[] = "history";        ///< H: steps of history in the context
inline constexpr char kFullWindow[] = "full_window"; ///< m: recent steps kept in full when compressed
inline constexpr char kIterations[] = "iterations";  ///< Adam steps per policy
inline constexpr char kLearningRate[] = "learning_rate";
inline constexpr char kDemoNoise[] = "demo_noise"; ///< probability of a random executed demo action
inline constexpr char kTrainMaps[] = "train_maps"; ///< generated maps the demos come from
inline constexpr char kEvalMaps[] = "eval_maps";   ///< held-out generated maps (when no map file is given)
} // namespace param

/// Decoding modes, as in the metric names success_<mode>_4plus.
namespace mode {
inline constexpr char kDirect[] = "direct";
inline constexpr char kHaDecoupled[] = "ha_decoupled";
inline constexpr char kCoaGreedy[] = "coa_greedy";
inline constexpr char kCoaEager[] = "coa_eager";
inline constexpr char kCoaCompressed[] = "coa_greedy_compressed"; ///< CoA-greedy on compressed context
} // namespace mode

/// ResultDocument::metrics keys.
namespace metric {
inline constexpr char kSuccessDirect4[] = "success_direct_4plus"; ///< held-out maps, tasks with ≥ 4 subgoals
inline constexpr char kSuccessHa4[] = "success_ha_decoupled_4plus";
inline constexpr char kSuccessCoaGreedy4[] = "success_coa_greedy_4plus";
inline constexpr char kSuccessCoaEager4[] = "success_coa_eager_4plus";
inline constexpr char kSuccessCompressed4[] = "success_coa_greedy_compressed_4plus";
inline constexpr char kContextReduction[] = "context_reduction"; ///< 1 − mean compressed / mean full tokens
inline constexpr char kCompressionDrop[] = "compression_success_drop"; ///< full − compressed CoA success
inline constexpr char kMeanContextFull[] = "mean_context_full";        ///< tokens per decision
inline constexpr char kMeanContextCompressed[] = "mean_context_compressed"; ///< tokens per decision
inline constexpr char kExpertSuccess[] = "expert_success_rate";             ///< feasible (task, map) pairs
inline constexpr char kDemoSteps[] = "demo_steps";
inline constexpr char kTasks4Plus[] = "tasks_4plus";
inline constexpr char kInfeasibleTasks[] = "infeasible_tasks";
inline constexpr char kEpisodes4Plus[] = "episodes_4plus"; ///< (task, map) pairs behind each success_*_4plus
} // namespace metric

/// ResultDocument::series keys.
namespace series {
inline constexpr char kContextFull[] = "context_tokens_full"; ///< x = step, y = mean tokens over episodes
inline constexpr char kContextCompressed[] = "context_tokens_compressed";
inline constexpr char kLossDirect[] = "bc_loss_direct"; ///< x = Adam step, y = minibatch cross-entropy
inline constexpr char kLossCoa[] = "bc_loss_coa";
inline constexpr char kLossCoaCompressed[] = "bc_loss_coa_compressed";
inline constexpr char kLossHaHigh[] = "bc_loss_ha_high";
inline constexpr char kLossHaLow[] = "bc_loss_ha_low";
inline constexpr char kReplayPath[] = "replay_path"; ///< x = column, y = row of the replayed episode
} // namespace series

/// ResultDocument::matrices keys.
namespace matrix {
inline constexpr char kSuccessBySubgoals[] = "success_by_subgoals"; ///< rows: subgoal counts, cols: modes
inline constexpr char kSkillConfusion[] = "skill_confusion";        ///< rows: expert L3, cols: CoA-greedy L3
inline constexpr char kReplayMap[] = "replay_map";                  ///< tile codes of the replayed map
inline constexpr char kReplayTokens[] = "replay_tokens"; ///< rows L3, L2, L1; cols steps; token ids
inline constexpr char kVocabulary[] = "vocabulary";      ///< one row per token (label = name), level
} // namespace matrix

/// ResultDocument::vectors keys (per task, in file order).
namespace vector {
inline constexpr char kSubgoals[] = "subgoals";
inline constexpr char kFeasible[] = "feasible";
inline constexpr char kExpertSuccess[] = "expert_success";
} // namespace vector

/// ResultDocument::graphs keys.
namespace graph {
inline constexpr char kTechTree[] = "tech_tree"; ///< nodes: items (label); edges prerequisite → product
} // namespace graph

/// Claim::id values.
namespace claim {
inline constexpr char kCoaBeatsDirect[] = "coa-beats-direct";
inline constexpr char kCompression[] = "compression";
inline constexpr char kCoaVsHa[] = "coa-vs-ha";
} // namespace claim

} // namespace pl::deepha::keys
