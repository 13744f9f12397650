#pragma once
/// Reader of scene-graph datasets in JSON Lines (one scene per line, schema in the panel's
/// help.md). Every error names the file, the 1-based line and the field:
///   {"env": "rain-city", "split": "train",
///    "objects": [{"id": "ego", "type": "car", "x": 0, "y": -1.75, "vx": 10, "vy": 0},
///                {"id": "w", "type": "weather", "rain": 1}],
///    "relations": [{"source": "ego", "target": "a1", "relation": "approaching"}]}
/// Blank lines and lines starting with '#' are skipped. Limits: 64 objects per scene,
/// 100 000 scenes, finite numbers only, |coordinate| <= 1e4, |velocity| <= 1e3.
#include "curve/SceneGraph.h"

#include <string>

namespace pl::curve {

/// Parses `text` (the contents of `fileName`). Throws pl::InputError(file, reason, line).
SceneSet parseSceneGraphLines(const std::string& text, const std::string& fileName);
/// Reads and parses a file (InputError when it cannot be read).
SceneSet readSceneGraphFile(const std::string& path);

} // namespace pl::curve
