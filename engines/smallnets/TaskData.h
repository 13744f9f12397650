#pragma once
/// Labelled data split into sequential tasks (continual-forgetting panel): the orthogonal
/// XOR-cluster generator and the `task,y,x1..xd` CSV reader. No Qt.
#include "core/Rng.h"

#include <Eigen/Dense>

#include <cstdint>
#include <string>
#include <vector>

namespace pl::smallnets {

/// The samples of one task: rows of X (n x d) with labels y in {-1, +1}.
struct TaskBatch {
    Eigen::MatrixXd X;
    Eigen::VectorXd y;
};

/// Tasks in ascending id, with the directions that span each task's means (for the Q view).
struct TaskSet {
    std::vector<TaskBatch> tasks;
    std::vector<int64_t> ids;                ///< task id of tasks[k] (ascending)
    std::vector<Eigen::MatrixXd> directions; ///< per task: d x r orthonormal directions (r <= 2)
    int dim() const { return tasks.empty() ? 0 : int(tasks.front().X.cols()); }
};

/// Generator settings: K tasks of n samples in d dimensions.
struct XorTaskSpec {
    int d = 32, tasks = 3, n = 500;
    double sigma = 0.3, muNorm = 1.0;
};

/// 2K orthonormal means (Q factor of a d x 2K Gaussian matrix drawn from \a meansRng: a random
/// orientation); the same means for every call with the same generator state.
Eigen::MatrixXd orthonormalMeans(int d, int tasks, Rng meansRng);

/// Task k: clusters +-mu_{k,1} (y = +1) and +-mu_{k,2} (y = -1), chosen uniformly per sample,
/// scaled by muNorm, plus N(0, sigma^2 I) noise; samples drawn from \a sampleRng. Requires d >= 2K.
TaskSet makeXorTasks(const XorTaskSpec& spec, const Eigen::MatrixXd& means, Rng sampleRng);

/// Parses `task,y,x1..xd` CSV text (comma separated; '#' comments and blank lines skipped; an
/// optional first row whose first field is "task" is a header). Throws pl::InputError naming
/// \a name, the 1-based line and the reason for a non-numeric cell, a non-integer task id,
/// y not in {-1, 1}, a ragged row, no feature column, or fewer than two tasks.
TaskSet parseTaskCsv(const std::string& text, const std::string& name);

/// Reads and parses a file (size cap 256 MiB).
TaskSet readTaskCsv(const std::string& path);

/// K x K overlap tr(M_i M_j) / (|M_i|_F |M_j|_F) of the second-moment matrices M_k = X_k^T X_k / n_k
/// (0 for tasks on orthogonal subspaces, 1 on the diagonal).
Eigen::MatrixXd taskOverlap(const TaskSet& s);

/// Orthonormal directions of each task of a file: the top eigenvectors (up to 2) of M_k, in task
/// order, with earlier tasks' directions projected out.
void estimateDirections(TaskSet& s);

} // namespace pl::smallnets
