#pragma once
/// LES-lite: a small learned evolution strategy (after Lange et al. 2023, attention-free). The search
/// distribution is diagonal, x_i = m + sigma (.) z_i. A member's recombination weight is
/// w = softmax_i(MLP_w(z-scored fitness_i, centred rank_i)); two learning rates
/// (alpha_m, alpha_sigma) = sigmoid(MLP_alpha(progress g/G, tanh(log10(mean sigma / 2) / 4))). Update:
/// m' = m + alpha_m sum_i w_i (x_i - m); sigma' = (1 - alpha_sigma) sigma + alpha_sigma sqrt(sum_i w_i (x_i -
/// m)^2). Both MLPs have one tanh layer of kHidden units: 9 kHidden + 3 = 147 parameters theta. The
/// distillation loss and its exact gradient (hand-written backpropagation, checked by finite differences in
/// the tests) live here too. Pure functions of their arguments; any thread.
#include "core/Rng.h"

#include <Eigen/Core>

#include <functional>
#include <vector>

namespace pl::search {

/// A teacher's search distribution at one generation, with what the distillation loss needs.
struct TeacherState {
    Eigen::VectorXd mean;
    Eigen::MatrixXd covariance;
    Eigen::VectorXd sigma;     ///< sqrt of the covariance's diagonal
    Eigen::MatrixXd precision; ///< covariance^-1
    double logDet = 0;         ///< log det covariance
    /// Fills sigma, precision and logDet from mean and covariance (covariance SPD).
    static TeacherState of(const Eigen::VectorXd& mean, const Eigen::MatrixXd& covariance);
};

/// The loss weights of one distillation step.
struct DistillWeights {
    double kl = 1.0;   ///< c_KL on log(1 + KL / d) (the clipped, dimension-normalised KL)
    double fit = 0.2;  ///< c_fit on sum_i w_i (f_i - f_min) / (f_max - f_min)
    double div = 0.02; ///< c_div on -log det diag(sigma'^2) / d
};

/// The three terms of one distillation step (unweighted).
struct DistillTerms {
    double kl = 0, fit = 0, div = 0;
};

class LesStudent {
public:
    static constexpr int kHidden = 16;
    static constexpr double kSigma0 = 2.0; ///< the initial step size of every run

    /// Number of parameters (147).
    static int paramCount() { return 9 * kHidden + 3; }
    /// Initial parameters: Gaussian weights of scale 1/sqrt(fan-in), zero biases.
    static Eigen::VectorXd initialTheta(Rng& rng);

    explicit LesStudent(Eigen::VectorXd theta);
    const Eigen::VectorXd& theta() const { return m_theta; }

    /// Recombination weights of a population with fitness \a f (minimised).
    Eigen::VectorXd weights(const Eigen::VectorXd& f) const;
    /// (alpha_m, alpha_sigma) at progress \a progress in [0, 1] with step sizes \a sigma.
    Eigen::Vector2d rates(double progress, const Eigen::VectorXd& sigma) const;
    /// One update of (m, sigma) from the population rows \a X and fitness \a f.
    void update(Eigen::VectorXd& m, Eigen::VectorXd& sigma, const Eigen::MatrixXd& X,
                const Eigen::VectorXd& f, double progress) const;

    /// The teacher-forced distillation loss of one generation: the student update applied to the
    /// population \a X (fitness \a f) drawn around the teacher state \a from, compared with the teacher
    /// state \a to of the next generation. Adds d loss / d theta to \a grad (same size as theta) when
    /// not null; \a terms receives the unweighted terms.
    double distillLoss(const TeacherState& from, const TeacherState& to, const Eigen::MatrixXd& X,
                       const Eigen::VectorXd& f, double progress, const DistillWeights& c,
                       Eigen::VectorXd* grad, DistillTerms* terms) const;

    /// One run of \a generations generations of \a lambda from a uniform start in [-4, 4]^d with
    /// sigma = kSigma0: the best f so far after each generation. \a onPopulation (may be empty) sees
    /// every generation's population.
    std::vector<double> run(const std::function<double(const Eigen::VectorXd&)>& f, int d, int lambda,
                            int generations, Rng& rng,
                            const std::function<void(int, const Eigen::MatrixXd&)>& onPopulation = {}) const;

private:
    struct Features {
        Eigen::MatrixXd in; ///< lambda x 2
        Eigen::MatrixXd h;  ///< lambda x H (tanh)
        Eigen::VectorXd w;
    };
    Features forwardWeights(const Eigen::VectorXd& f) const;
    Eigen::VectorXd m_theta;
};

/// The progress features' sigma entry: tanh(log10(geometric mean of sigma / kSigma0) / 4).
double sigmaFeature(const Eigen::VectorXd& sigma);

} // namespace pl::search
