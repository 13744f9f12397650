#pragma once
/// The computation of the protovar-distillation panel, stage by stage: the data (procedural glyphs
/// or the user's images), the real-data classifier (phi = its penultimate layer), the multi-scale
/// tokeniser, the class prototypes, the generator, then per IPC the pools, the probability filter,
/// the selectors and the students of every method. Pure functions of their arguments; any thread.
#include "distill/MultiScaleQuantiser.h"
#include "distill/ProtovarInputs.h"
#include "distill/ScaleGenerator.h"
#include "distill/Selectors.h"
#include "distill/Student.h"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace pl::distill {

/// The settings of one run (from the parameters).
struct ProtovarSettings {
    int codebook = 128;
    int prototypes = 3;
    double beta = 3;
    double cfg = 1;
    double temperature = 1;
    int poolFactor = 5;
    double tau = 0.5;
    Selector selector = Selector::Herding;
    bool pixelSpace = false; ///< feature_space = pixels
    int studentInits = 3;
    int generatorSteps = 250;
    int studentSteps = 200;
};

/// Training images per class the generator learns from (the first ones of each class).
inline constexpr int kGeneratorImagesPerClass = 100;

/// beta_k = beta 0.5^(k-1), k = 1..K.
std::vector<double> betaSchedule(double beta, int scales);

/// The models every method shares: classifier, tokeniser, prototypes and generator.
struct ProtovarModels {
    std::unique_ptr<Student> classifier;
    std::unique_ptr<MultiScaleQuantiser> quantiser;
    std::unique_ptr<ScaleGenerator> generator;
    /// prototypes[c][k][m]: latent of prototype m of class c at scale k (k-means++ over f_hat_<=k).
    std::vector<std::vector<std::vector<Eigen::MatrixXd>>> prototypes;
    Eigen::MatrixXd realFeatures; ///< selector features of the training images (phi or pixels)
    Eigen::MatrixXd realPhi;      ///< phi of the training images
    Eigen::MatrixXd classMeans;   ///< classes x selector-feature dim (real training images)
    double reconstructionMse = 0; ///< tokeniser, full depth, test images (per pixel)
};

/// Rows \a idx of \a X.
Eigen::MatrixXd rowsOf(const Eigen::MatrixXd& X, const std::vector<int>& idx);

/// The five +-1 px shifts (none, left, right, up, down; zero fill) of every row (side x side
/// images), rows shift-major; \a y repeated to match.
Eigen::MatrixXd shiftAugment(const Eigen::MatrixXd& X, int side, const std::vector<int>& y,
                             std::vector<int>& yOut);

/// Trains the shared models (stages "classifier", "tokeniser", "prototypes", "generator").
ProtovarModels buildModels(const ImageSet& train, const ImageSet& test, const ProtovarSettings& s,
                           const Rng& root, const std::function<void(double, const std::string&)>& poll);

/// A generated pool of one class with its images, phi, selector features and class probabilities.
struct ClassPool {
    Eigen::MatrixXd images;   ///< rows = samples, pixels clamped to [0, 1]
    Eigen::MatrixXd phi;      ///< classifier features
    Eigen::MatrixXd features; ///< selector features (phi or pixels)
    Eigen::VectorXd prob;     ///< classifier probability of the pool's class
    SampledPool sampled;
};

/// Samples \a count images of class \a c with beta_1 = \a beta (0: unguided) from \a rng.
ClassPool generatePool(const ProtovarModels& m, const ProtovarSettings& s, int c, int count, double beta,
                       Rng rng);

/// The probability filter then the selector: \a ipc indices into the pool (selection order). When
/// fewer than ipc pass tau, the highest-probability rejected samples fill up (counted in \a
/// filledUp).
std::vector<int> filterAndSelect(const ClassPool& pool, const Eigen::RowVectorXd& mu, int ipc,
                                 const ProtovarSettings& s, int* passed = nullptr, int* filledUp = nullptr);

/// Test accuracy of a student trained on (X, y) with +-1 px shifts, mean over s.studentInits inits
/// (init streams "student/init/<i>", batches "student/fit/<tag>/<i>").
double studentAccuracy(const Eigen::MatrixXd& X, const std::vector<int>& y, const ImageSet& test, int side,
                       int classes, const ProtovarSettings& s, const Rng& root, const std::string& tag,
                       const std::function<void(double)>& poll);

/// An image grid: tiles (side x side) in rows, 1-px black (0) separators; tiles flagged in \a framed get
/// a frame of 1.0 in their separator ring.
Eigen::MatrixXd imageGrid(const std::vector<std::vector<Eigen::VectorXd>>& tiles, int side,
                          const std::vector<std::vector<char>>& framed = {});

} // namespace pl::distill
