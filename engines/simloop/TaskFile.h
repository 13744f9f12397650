#pragma once
/// The embodied-act task JSON: {task, plant: {num, den}, u_max, t_end, specs: {overshoot,
/// settling_time}, budget} (every member optional but `task`; `plant`, `u_max` and `specs` for
/// task = pid only). Errors are pl::InputError with file, line and reason: unknown member or spec
/// key, improper or zero-leading plant, non-positive specs or t_end, negative budget, malformed
/// JSON. An unstable open loop is allowed and warned about. No Qt.

#include "simloop/PidTask.h"

#include "core/Engine.h"

#include <optional>

namespace pl::simloop {

struct TaskInput : LoadedInput {
    std::string task; ///< pid | robertson | energy | identify
    PidSpec pid;      ///< plant and specs (task = pid)
    std::optional<double> tEnd;
    std::optional<long> budget;
    std::vector<std::string> warnings;
};

/// Parses and validates \a path. Throws InputError(path, reason, line).
std::shared_ptr<const TaskInput> loadTaskFile(const std::string& path);
/// The same on text already read (\a name is the file name used in errors).
std::shared_ptr<const TaskInput> parseTaskText(const std::string& text, const std::string& name);

} // namespace pl::simloop
