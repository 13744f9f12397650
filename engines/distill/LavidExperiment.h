#pragma once
/// The computation of the lavid-distillation panel, stage by stage: the problem (synthetic world or
/// user files), the students of every method over several initialisations, and the sweeps over
/// images per class and teacher noise. Pure functions of their arguments; any thread.
#include "distill/LavidInputs.h"
#include "distill/LavidWorld.h"
#include "distill/Student.h"

#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace pl::distill {

/// Everything a run trains on.
struct LavidProblem {
    std::vector<std::string> classes;
    std::vector<std::string> questionLabels;
    int questions = 0, options = 0;
    Eigen::MatrixXd signatures;      ///< classes x (Q*O), as read or as the teacher answered
    Eigen::MatrixXi answers;         ///< classes x Q: the knowledge base's option (files: signature argmax)
    DistillData train, test;         ///< features standardised with the training mean and sd
    std::optional<LavidWorld> world; ///< synthetic runs only
    Eigen::RowVectorXd mean, sd;     ///< the training set's raw column mean and sd (sd >= 1e-9)
};

/// The student settings shared by every method of a run.
struct LavidSettings {
    int hidden = 64;
    int features = 32;
    int epochs = 40;
    double lr = 3e-3;
    double gamma = 1, beta = 1;
    SignatureLoss loss = SignatureLoss::Mse;
};

/// Standardises both sets with the training set's column mean and sd (sd < 1e-9 -> 1); returns
/// (mean, sd).
std::pair<Eigen::RowVectorXd, Eigen::RowVectorXd> standardise(DistillData& train, DistillData& test);
/// (X - mean) / sd, row by row.
Eigen::MatrixXd standardised(const Eigen::MatrixXd& X, const Eigen::RowVectorXd& mean,
                             const Eigen::RowVectorXd& sd);

/// Cosine similarity between the rows of \a M (zero rows give 0).
Eigen::MatrixXd cosineRows(const Eigen::MatrixXd& M);

/// Minimum accuracy over the (group, background) cells that hold rows, or over classes when the
/// rows have no group/background.
double worstGroupAccuracy(const std::vector<int>& pred, const DistillData& d);

/// Per-question accuracy of the question head: argmax of each option block vs answers(y, q).
std::vector<double> probeAccuracy(const Student& s, const DistillData& d, const Eigen::MatrixXi& answers,
                                  int options);

/// Class-mean features g(x) over \a d (classes x features; classes without rows are zero).
Eigen::MatrixXd classMeanFeatures(const Student& s, const DistillData& d, int classes);

/// One method's training targets: signatures (or none), teacher logits on the train rows (or none).
struct MethodTargets {
    Eigen::MatrixXd signatures;
    Eigen::MatrixXd teacherLogits;
};

/// Trains a student with init stream \a init and batch stream \a fit, returns it.
Student trainStudent(const LavidProblem& p, const DistillData& train, const MethodTargets& t,
                     const LavidSettings& s, const Rng& init, const Rng& fit,
                     const std::function<void(double)>& poll, std::vector<double>* losses = nullptr);

} // namespace pl::distill
