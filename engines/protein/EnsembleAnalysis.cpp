#include "EnsembleAnalysis.h"

#include "ProteinKeys.h"
#include "Superposition.h"

#include "core/ResultBuilders.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace pl::protein {

namespace {
namespace P = protein::keys::param;
namespace M = protein::keys::metric;
namespace S = protein::keys::series;
namespace X = protein::keys::matrix;
namespace V = protein::keys::vector;
namespace L = protein::keys::label;
} // namespace

Matrix toMatrix(const Eigen::MatrixXd& m, const std::vector<std::string>& rowLabels,
                const std::vector<std::string>& colLabels) {
    return matrixOf(m, rowLabels, colLabels);
}

EnsembleAnalysis analyseEnsemble(const std::vector<Eigen::Matrix3Xd>& models, const ParamSet& p,
                                 RunContext& ctx, double p0, double p1) {
    EnsembleAnalysis a;
    const double span = p1 - p0;
    a.rmsd = rmsdMatrix(
        models,
        [&](double f) {
            ctx.throwIfCancelled();
            ctx.progress(p0 + 0.5 * span * f, "all-vs-all RMSD");
        },
        ctx.threads());
    ctx.progress(p0 + 0.5 * span, "clustering");
    a.clustering = clusterStates(a.rmsd, p.getString(P::kClusterMethod), int(p.getInt(P::kMaxStates)),
                                 p.getDouble(P::kMinSilhouette), [&] { ctx.throwIfCancelled(); });
    ctx.progress(p0 + 0.8 * span, "PCA and RMSF");
    a.aligned = iterativeAlign(models, 3);
    a.pca = pcaMap(a.aligned);
    const long L = models.empty() ? 0 : models.front().cols();
    Eigen::Matrix3Xd mean = Eigen::Matrix3Xd::Zero(3, L);
    for (const auto& m : a.aligned)
        mean += m;
    if (!a.aligned.empty())
        mean /= double(a.aligned.size());
    a.rmsf.assign(size_t(L), 0.0);
    for (const auto& m : a.aligned)
        for (long i = 0; i < L; ++i)
            a.rmsf[size_t(i)] += (m.col(i) - mean.col(i)).squaredNorm();
    for (auto& v : a.rmsf)
        v = std::sqrt(v / std::max<size_t>(1, a.aligned.size()));
    if (a.clustering.k >= 2) {
        const Eigen::Matrix3Xd& m0 = models[size_t(a.clustering.medoids[0])];
        const Eigen::Matrix3Xd& m1 = models[size_t(a.clustering.medoids[1])];
        const Eigen::Matrix3Xd fit = kabsch(m1, m0).apply(m1);
        a.deviation.resize(size_t(L));
        for (long i = 0; i < L; ++i)
            a.deviation[size_t(i)] = (fit.col(i) - m0.col(i)).norm();
    } else {
        a.deviation = a.rmsf;
    }
    ctx.progress(p1, "ensemble analysed");
    return a;
}

void writeDisplay(ResultDocument& doc, const std::vector<Eigen::Matrix3Xd>& models,
                  const std::vector<int>& states, const std::vector<int>& modelIndex,
                  const std::vector<std::string>& rowNames) {
    if (models.empty())
        return;
    const long L = models.front().cols();
    Eigen::Vector3d centre = Eigen::Vector3d::Zero();
    for (const auto& m : models)
        centre += m.rowwise().mean();
    centre /= double(models.size());
    Eigen::MatrixXd D(long(models.size()), 3 * L);
    for (size_t r = 0; r < models.size(); ++r)
        for (long i = 0; i < L; ++i)
            for (int c = 0; c < 3; ++c)
                D(long(r), 3 * i + c) = models[r](c, i) - centre(c);
    doc.matrices[X::kDisplayCoords] = toMatrix(D, rowNames);
    doc.labels[L::kDisplayState] = std::vector<int64_t>(states.begin(), states.end());
    doc.labels[L::kDisplayModel] = std::vector<int64_t>(modelIndex.begin(), modelIndex.end());
}

void writeEnsemble(ResultDocument& doc, const EnsembleAnalysis& a, const std::vector<std::string>& modelNames,
                   const std::vector<std::string>& residueLabels, int maxShown) {
    const long N = a.rmsd.rows();
    doc.matrices[X::kRmsd] = toMatrix(a.rmsd, modelNames, modelNames);
    const auto& lab = a.clustering.labels;
    doc.labels[L::kState] = std::vector<int64_t>(lab.begin(), lab.end());
    // Order by state, then by distance to the state's medoid.
    std::vector<int> order(static_cast<size_t>(N));
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](int x, int y) {
        if (lab[size_t(x)] != lab[size_t(y)])
            return lab[size_t(x)] < lab[size_t(y)];
        const int mx = a.clustering.medoids[size_t(lab[size_t(x)])];
        return a.rmsd(x, mx) < a.rmsd(y, mx);
    });
    doc.vectors[V::kOrder] = std::vector<double>(order.begin(), order.end());
    doc.vectors[V::kPc1] = a.pca.pc1;
    doc.vectors[V::kPc2] = a.pca.pc2;
    doc.metrics[M::kPc1Explained] = a.pca.explained1;
    doc.metrics[M::kPc2Explained] = a.pca.explained2;
    doc.metrics[M::kNStates] = a.clustering.k;
    doc.metrics[M::kSilhouette] = a.clustering.silhouette;
    doc.metrics[M::kModels] = double(N);
    doc.metrics[M::kResidues] = double(a.rmsf.size());
    double maxR = 0, sumR = 0;
    for (long i = 0; i < N; ++i)
        for (long j = i + 1; j < N; ++j) {
            maxR = std::max(maxR, a.rmsd(i, j));
            sumR += a.rmsd(i, j);
        }
    doc.metrics[M::kRmsdMax] = maxR;
    doc.metrics[M::kRmsdMean] = N > 1 ? sumR / (0.5 * double(N) * double(N - 1)) : 0.0;
    Series sil;
    for (size_t i = 0; i < a.clustering.silhouetteByK.size(); ++i) {
        sil.x.push_back(double(i + 2));
        sil.y.push_back(a.clustering.silhouetteByK[i]);
    }
    sil.xlabel = "number of states k";
    sil.ylabel = "mean silhouette";
    doc.series[S::kSilhouetteVsK] = sil;
    std::vector<double> occ(size_t(a.clustering.k), 0.0);
    for (int l : lab)
        occ[size_t(l)] += 1.0 / double(std::max<long>(1, N));
    doc.vectors[V::kStateOccupancy] = occ;
    const long L = long(a.rmsf.size());
    Eigen::MatrixXd pr(L, 2);
    for (long i = 0; i < L; ++i) {
        pr(i, 0) = a.rmsf[size_t(i)];
        pr(i, 1) = a.deviation[size_t(i)];
    }
    doc.matrices[X::kPerResidue] = toMatrix(pr, residueLabels, {"rmsf", "deviation"});
    // Models shown in 3D: the medoids first, then the others spread over each state.
    std::vector<int> shown;
    for (int m : a.clustering.medoids)
        shown.push_back(m);
    const int budget = std::max(int(shown.size()), maxShown);
    const int perStep = std::max<int>(1, int(N) / std::max(1, budget));
    for (long i = 0; i < N && int(shown.size()) < budget; i += perStep)
        if (std::find(shown.begin(), shown.end(), order[size_t(i)]) == shown.end())
            shown.push_back(order[size_t(i)]);
    std::vector<Eigen::Matrix3Xd> sm;
    std::vector<int> ss;
    std::vector<std::string> names;
    for (int m : shown) {
        sm.push_back(a.aligned[size_t(m)]);
        ss.push_back(lab[size_t(m)]);
        names.push_back(modelNames[size_t(m)]);
    }
    writeDisplay(doc, sm, ss, shown, names);
}

} // namespace pl::protein
