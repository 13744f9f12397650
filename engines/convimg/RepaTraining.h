#pragma once
/// REPA-P training and sampling on Darcy fields: the data set (random permeabilities solved by the
/// finite-volume solver), the normalisation of fields into network channels, DDPM training of the
/// x0-predicting denoiser with the data, output-residual and head-residual losses, and ancestral
/// sampling.
///
/// Channels: Conditional: input [x_t(p), log K, g, x, y], output [p]; Joint: input [x_t(p), x_t(log K),
/// x, y], output [p, log K]; fields normalised by the training set's mean and spread.
/// Pure functions of their arguments; one thread per call.
#include "convimg/Darcy.h"
#include "convimg/RepaNet.h"

#include <functional>
#include <string>
#include <vector>

namespace pl::convimg {

/// A set of Darcy samples (N x N each) with their left Dirichlet values.
struct FieldSet {
    std::vector<Eigen::MatrixXd> K, p;
    std::vector<double> g;
    int size() const { return int(K.size()); }
};

/// The problem: task, grid, source and the normalisation of the fields.
struct RepaProblem {
    DarcyTask task = DarcyTask::Conditional;
    int n = 16;
    Eigen::MatrixXd f;
    double pMean = 0, pScale = 1, lkMean = 0, lkScale = 1;
    int inChannels() const { return task == DarcyTask::Conditional ? 5 : 4; }
    int outChannels() const { return task == DarcyTask::Conditional ? 1 : 2; }
    /// x0 channels of samples idx (outChannels x B*N*N).
    Mat x0Of(const FieldSet& set, const std::vector<int>& idx) const;
    /// Network input: the noisy channels x_t followed by the conditioning of samples idx.
    Mat inputOf(const Mat& xt, const FieldSet& set, const std::vector<int>& idx) const;
    /// A decoded network output (outChannels x B*N*N) as N x N pressure fields and, for Joint, K fields
    /// (Conditional: the conditioning K of idx).
    void decode(const Mat& out, const FieldSet& cond, const std::vector<int>& idx,
                std::vector<Eigen::MatrixXd>& p, std::vector<Eigen::MatrixXd>& K) const;
    /// Mean over samples and cells of R^2 (fv, or the fd residual) of decoded fields.
    double meanSquaredResidual(const std::vector<Eigen::MatrixXd>& p, const std::vector<Eigen::MatrixXd>& K,
                               const std::vector<double>& g, bool fd) const;
};

/// Draws \a count samples: K from randomPermeability, g uniform in [gLo, gHi] (Conditional), p solved.
FieldSet makeFields(const RepaProblem& pr, int count, Rng rng, double gLo, double gHi,
                    const std::function<void(double)>& tick);
/// p solved for given permeabilities (g per field).
FieldSet solveFields(const RepaProblem& pr, std::vector<Eigen::MatrixXd> K, std::vector<double> g);
/// Sets the normalisation constants from a training set.
void fitNormaliser(RepaProblem& pr, const FieldSet& train);

/// Training settings.
struct RepaTrainSettings {
    int iterations = 300;
    int batch = 8;
    int steps = 50; ///< diffusion steps T
    double lr = 2e-3;
    double cOut = 1e-3;
    double cProj = 0.01;
};

/// Per-iteration training curves.
struct TrainCurves {
    std::vector<double> data, outResidual, headResidual, total;
};

/// Trains \a net (heads used when cProj > 0 and the net has heads). Batch draws from \a rng.
/// tick(fraction) is called every iteration (cancellation and progress).
TrainCurves trainRepa(RepaNet& net, const RepaProblem& pr, const FieldSet& train, const RepaTrainSettings& s,
                      bool withHeads, Rng rng, const std::function<void(double)>& tick);

/// DDPM ancestral sampling of x0 for the conditioning of samples idx of \a cond (Joint: unconditional,
/// idx only sets the batch size). Returns outChannels x B*N*N in network units.
Mat sampleRepa(RepaNet& net, const RepaProblem& pr, const FieldSet& cond, const std::vector<int>& idx,
               int steps, Rng rng, const std::function<void()>& tick);

/// Multiply-accumulates of one denoiser call on one N x N sample (heads included or not).
int64_t denoiserMacs(RepaNet& net, const RepaProblem& pr, bool withHeads);

} // namespace pl::convimg
