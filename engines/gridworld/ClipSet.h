#pragma once
/// A set of grayscale video clips for the olaf-world panel: frames of all clips stacked row by row,
/// the context of every clip and, when known, the action of every transition (evaluation only).
/// Plain data; copy freely between threads. No Qt.

#include <Eigen/Core>

#include <string>
#include <vector>

namespace pl::gridworld {

/// Actions of SpriteWorld: the four moves (0..3) and "stay" (4); kUnknownAction where unlabelled.
inline constexpr int kMoveCount = 4;
inline constexpr int kActionCount = 5;
inline constexpr int kUnknownAction = -1;
/// "right", "left", "up", "down", "stay" for 0..4.
const char* actionName(int action);

struct ClipSet {
    int height = 0;                        ///< frame rows (px)
    int width = 0;                         ///< frame columns (px)
    Eigen::MatrixXd frames;                ///< (sum of clip lengths) x (height·width), row-major pixels
    std::vector<int> start;                ///< first frame row of each clip; size clips + 1
    std::vector<std::string> names;        ///< one per clip
    std::vector<int> context;              ///< context index of each clip
    std::vector<std::string> contextNames; ///< one per context
    std::vector<int> actions;              ///< one per transition (rows as transitionRow), or empty

    int clips() const { return int(names.size()); }
    int length(int clip) const { return start[size_t(clip) + 1] - start[size_t(clip)]; }
    int pixels() const { return height * width; }
    int contexts() const { return int(contextNames.size()); }
    /// Transitions of all clips (sum of length − 1).
    int transitions() const { return int(frames.rows()) - clips(); }
    /// Row of transition (clip, t) in latents and actions: clip i·(T − 1) + t for equal lengths.
    int transitionRow(int clip, int t) const { return start[size_t(clip)] - clip + t; }
    /// Frame row of o_t of transition row r, and the clip of r.
    int frameOfTransition(int r) const;
    int clipOfTransition(int r) const;
    bool labelled() const { return !actions.empty(); }
};

} // namespace pl::gridworld
