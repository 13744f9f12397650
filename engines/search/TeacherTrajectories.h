#pragma once
/// The teacher-trajectory file of the metadistill-bbo panel: JSON
///   {"dim": d, "functions": [{"function": "<BBOB name>",
///     "generations": [{"generation": g, "mean": [d numbers], "covariance": [[d numbers] x d]}, ...]}, ...]}
/// (per function and generation the search distribution's mean and covariance sigma^2 C). Checked:
/// known function names, at least two generations each, generation indices strictly increasing, every
/// mean of length d and every covariance d x d, symmetric and positive definite (the first generation
/// that is not is named). Errors are pl::InputError with the file and the line of the offending entry.
#include "core/Engine.h"

#include <Eigen/Core>

#include <string>
#include <vector>

namespace pl::search {

/// One function's trajectory.
struct TeacherTrajectory {
    std::string function;
    std::vector<int> generations;
    std::vector<Eigen::VectorXd> means;
    std::vector<Eigen::MatrixXd> covariances;
};

struct TeacherTrajectoriesInput : LoadedInput {
    int dim = 0;
    std::vector<TeacherTrajectory> trajectories;
};

/// Parses the text of a teacher-trajectory file named \a name. Throws InputError.
std::shared_ptr<const TeacherTrajectoriesInput> parseTeacherTrajectories(const std::string& text,
                                                                         const std::string& name);
/// Reads and parses \a path. Throws InputError.
std::shared_ptr<const TeacherTrajectoriesInput> loadTeacherTrajectories(const std::string& path);

} // namespace pl::search
