#pragma once
/// Readers of the olaf-world inputs, staged and validated (pl::InputError with file, line and
/// reason; exit 3 in the CLI):
/// - clips: a `.npy` array N x T x H x W (or T x H x W: one clip); a folder of PNG frames
///   `frame_<y>.png` (one clip) or of clip folders `clip_<x>/frame_<y>.png`;
/// - `contexts.csv`: `clip,context` (clip: a clip name such as clip_3 or a 0-based index);
/// - `actions.csv`: `clip,t,action` (action: right, left, up, down, stay or 0..4), evaluation only.
/// assembleClips() joins them and checks what needs all inputs together (frame sizes, clip lengths
/// against the window, unknown clips). No Qt.

#include "gridworld/ClipSet.h"

#include <string>
#include <vector>

namespace pl::gridworld {

/// Clips read from one `.npy` file or PNG folder, with their frames and warnings.
struct ClipFile {
    std::string path;
    int height = 0, width = 0;
    std::vector<std::string> names;     ///< one per clip (folder name, or clip_<index in file>)
    std::vector<Eigen::MatrixXd> clips; ///< T x (height·width) each
    std::vector<std::string> warnings;  ///< numbering gaps, colour converted
    bool numbered = false;              ///< names are clip_<index> (renumbered over all files)
};

/// One row of contexts.csv or actions.csv, with its line for messages.
struct ClipLabel {
    std::string clip;
    int t = 0;         ///< actions only
    std::string value; ///< context name, or action as written
    int line = 0;
};

struct LabelFile {
    std::string path;
    bool actions = false; ///< actions.csv (3 columns) rather than contexts.csv (2 columns)
    std::vector<ClipLabel> rows;
};

/// Reads a `.npy` clip array. Throws InputError on bad shape, NaN or infinity.
ClipFile readClipNpy(const std::string& path);
/// Parses `.npy` bytes (for the fuzz target); \a name in messages.
ClipFile parseClipNpy(const std::string& bytes, const std::string& name);
/// Reads a PNG folder (one clip of frame_<y>.png, or clip_<x>/ subfolders).
ClipFile readClipFolder(const std::string& path);
/// Reads contexts.csv or actions.csv (told apart by the column count).
LabelFile readLabelFile(const std::string& path);
/// Parses CSV text (for the fuzz target).
LabelFile parseLabelFile(const std::string& text, const std::string& name);
/// Action index of "right" … "stay" or "0" … "4"; −1 when neither.
int parseAction(const std::string& text);

/// Joins clip files (in order) with their labels. Throws InputError when frame sizes differ, a clip
/// is shorter than window + 1 frames (all such clips listed), a label names an unknown clip or step,
/// or some clips have no context while others do. Appends notes (gaps, colour, defaults) to \a notes.
ClipSet assembleClips(const std::vector<const ClipFile*>& files, const std::vector<const LabelFile*>& labels,
                      int window, std::vector<std::string>& notes);

} // namespace pl::gridworld
