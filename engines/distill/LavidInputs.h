#pragma once
/// User files of the lavid-distillation panel, parsed into staged inputs:
///  - signatures (.json) in the LaViD repository's format: an object mapping each class name to Q
///    lists of O numbers (the teacher's option logits); every class must have the same Q and O, and
///    every number must be finite;
///  - questions (.txt): blocks separated by blank lines, one block per question (first line = its
///    label), in file order;
///  - features (.csv) with a header: feature columns, `label` (class name), `split` (train | test),
///    optional `group` and `background` (any text; cells of the worst-group accuracy).
/// Class order everywhere: names sorted byte-wise. Errors are pl::InputError with file, line and
/// reason. Pure; any thread.
#include "core/Engine.h"
#include "distill/LavidWorld.h"

#include <Eigen/Core>

#include <string>
#include <vector>

namespace pl::distill {

struct SignatureInput : LoadedInput {
    std::vector<std::string> classes; ///< sorted byte-wise
    std::vector<int64_t> lines;       ///< 1-based line of each class's key
    Eigen::MatrixXd values;           ///< classes x (Q*O), question-major
    int questions = 0, options = 0;
};
struct QuestionsInput : LoadedInput {
    std::vector<std::string> labels; ///< first line of each block
};
struct FeatureInput : LoadedInput {
    std::vector<std::string> featureNames;
    Eigen::MatrixXd X;
    std::vector<std::string> label, group, background; ///< group/background empty when absent
    std::vector<char> isTest;
    std::vector<int64_t> lines;
};

SignatureInput parseSignatures(const std::string& text, const std::string& name);
QuestionsInput parseQuestions(const std::string& text, const std::string& name);
FeatureInput parseFeatureCsv(const std::string& text, const std::string& name);

/// Reads one file, by extension (.json, .txt, .csv).
std::shared_ptr<const LoadedInput> loadLavidInput(const std::string& path);

/// A run's data from files: the features' classes (sorted), their signatures in that order, the
/// question labels (from the .txt, or "Q1".."QQ"), train and test rows.
struct LavidFileData {
    std::vector<std::string> classes;
    Eigen::MatrixXd signatures;
    std::vector<std::string> questionLabels;
    int questions = 0, options = 0;
    DistillData train, test;
    std::vector<int> testFileRow; ///< file row (0-based) of each test row
    std::string featurePath;
};

/// Pairs the inputs: exactly one signature file and one feature file, at most one questions file.
/// Throws pl::InputError for missing pieces, classes missing from the signatures (listing them), a
/// questions file whose block count differs from Q, or a split without train or test rows.
LavidFileData gatherLavidInputs(const InputList& inputs);

} // namespace pl::distill
