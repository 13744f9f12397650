#include "gridworld/OlafReadouts.h"

#include "core/Numeric.h"
#include "core/ResultBuilders.h"
#include "gridworld/LatentProbes.h"
#include "gridworld/OlafWorldKeys.h"

#include <cmath>
#include <cstdio>
#include <limits>

namespace pl::olaf {

using namespace pl::gridworld;

namespace {

constexpr int kRolloutSteps = 6;
constexpr int kNotReached = 320; ///< labels_to_90 when 160 labels do not reach 90 %

std::string fmt(double v, int digits = 2) {
    char b[32];
    std::snprintf(b, sizeof b, "%.*f", digits, v);
    return b;
}

/// Writes \a frame (pixels) into block (row block, col block) of a strip with 1-px NaN gaps.
void place(Eigen::MatrixXd& strip, int rb, int cb, const Eigen::RowVectorXd& frame, int h, int w) {
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x)
            strip(rb * (h + 1) + y, cb * (w + 1) + x) = frame(y * w + x);
}

/// The 1-px gaps between frames (NaN) set to the brightest pixel, drawn as white separators.
Eigen::MatrixXd fillGaps(Eigen::MatrixXd m) {
    double hi = -std::numeric_limits<double>::infinity();
    for (Eigen::Index i = 0; i < m.size(); ++i)
        if (std::isfinite(m.data()[i]))
            hi = std::max(hi, m.data()[i]);
    for (Eigen::Index i = 0; i < m.size(); ++i)
        if (!std::isfinite(m.data()[i]))
            m.data()[i] = std::isfinite(hi) ? hi : 0.0;
    return m;
}

/// Column centroid of the brightness above \a background (px).
double centroidX(const Eigen::RowVectorXd& frame, const Eigen::RowVectorXd& background, int h, int w) {
    double m = 0, mx = 0;
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
            const double v = std::max(0.0, frame(y * w + x) - background(y * w + x));
            m += v;
            mx += v * x;
        }
    return m > 0 ? mx / m : kNaN;
}

struct ModelReadout {
    Eigen::MatrixXd latents;
    double cosine = kNaN, probe = kNaN, procrustes = kNaN, adapter = kNaN, shift = kNaN, recon = kNaN;
    int labels90 = kNotReached;
    std::vector<double> curve;
    Eigen::MatrixXd pairCos;
};

ModelReadout readModel(const ClipSet& clips, const LatentActionModel& m, const std::vector<int>& ctxRows,
                       int probeLabels, const Rng& rng, Eigen::MatrixXd& strip, int stripRow) {
    ModelReadout r;
    r.latents = m.encodeAll(clips);
    const int n = clips.transitions(), p = clips.pixels();
    Eigen::MatrixXd from(n, p), to(n, p);
    for (int t = 0; t < n; ++t) {
        const int f = clips.frameOfTransition(t);
        from.row(t) = clips.frames.row(f);
        to.row(t) = clips.frames.row(f + 1);
    }
    r.recon = (m.decode(from, r.latents) - to).squaredNorm() / double(std::max(1, n * p));
    if (!clips.labelled())
        return r;
    const LabelledLatents l{&r.latents, &clips.actions, &ctxRows, clips.contexts()};
    r.cosine = crossContextCosine(l, &r.pairCos);
    r.probe = probeTransfer(l, probeLabels, rng.fork("probe"));
    r.procrustes = procrustesResidual(l);
    r.curve = labelCurve(l, probeLabels, labelCounts(), rng.fork("curve"));
    for (size_t k = 0; k < r.curve.size(); ++k)
        if (r.curve[k] >= 0.9) {
            r.labels90 = labelCounts()[k];
            break;
        }
    // action adapter in the new (last) context: fit on probeLabels rows, test on the rest
    const int fresh = clips.contexts() - 1;
    std::vector<int> rows;
    for (int t = 0; t < n; ++t)
        if (ctxRows[size_t(t)] == fresh && clips.actions[size_t(t)] >= 0)
            rows.push_back(t);
    Rng shuffle = rng.fork("adapter");
    for (size_t i = rows.size(); i > 1; --i)
        std::swap(rows[i - 1], rows[size_t(shuffle.uniformInt(i))]);
    const size_t k = std::min(rows.size() / 2, size_t(probeLabels));
    if (k > 0) {
        const std::vector<int> fit(rows.begin(), rows.begin() + long(k)),
            test(rows.begin() + long(k), rows.end());
        const Eigen::MatrixXd a = fitActionAdapter(l, fit);
        Eigen::MatrixXd o(Eigen::Index(test.size()), p), next(Eigen::Index(test.size()), p),
            z(Eigen::Index(test.size()), a.cols());
        for (size_t i = 0; i < test.size(); ++i) {
            o.row(Eigen::Index(i)) = from.row(test[i]);
            next.row(Eigen::Index(i)) = to.row(test[i]);
            z.row(Eigen::Index(i)) = a.row(clips.actions[size_t(test[i])]);
        }
        const double copy = (o - next).squaredNorm();
        r.adapter = copy > 0 ? (m.decode(o, z) - next).squaredNorm() / copy : kNaN;
    }
    // rollout: the mean latent of "right" in context A (0) applied from a frame of context B (1)
    const Eigen::MatrixXd means = classMeans(l, kActionCount);
    const int ca = 0, cb = clips.contexts() > 1 ? 1 : 0;
    int clipB = 0;
    while (clipB < clips.clips() && clips.context[size_t(clipB)] != cb)
        ++clipB;
    if (clipB < clips.clips() && means.row(ca * kActionCount).allFinite()) {
        Eigen::RowVectorXd background = Eigen::RowVectorXd::Zero(p);
        int count = 0;
        for (int c = 0; c < clips.clips(); ++c)
            if (clips.context[size_t(c)] == cb) {
                background +=
                    clips.frames.middleRows(clips.start[size_t(c)], clips.length(c)).colwise().sum();
                count += clips.length(c);
            }
        background /= std::max(1, count);
        // start from the clip of B whose sprite starts furthest left, so that "right" has room
        double best =
            centroidX(clips.frames.row(clips.start[size_t(clipB)]), background, clips.height, clips.width);
        for (int c = clipB + 1; c < clips.clips(); ++c) {
            const double x = clips.context[size_t(c)] == cb
                                 ? centroidX(clips.frames.row(clips.start[size_t(c)]), background,
                                             clips.height, clips.width)
                                 : kNaN;
            if (std::isfinite(x) && (!std::isfinite(best) || x < best)) {
                best = x;
                clipB = c;
            }
        }
        Eigen::MatrixXd frame = clips.frames.row(clips.start[size_t(clipB)]);
        const Eigen::MatrixXd zr = means.row(ca * kActionCount);
        const double x0 = centroidX(frame.row(0), background, clips.height, clips.width);
        place(strip, stripRow, 0, frame.row(0), clips.height, clips.width);
        for (int s = 1; s <= kRolloutSteps; ++s) {
            frame = m.decode(frame, zr);
            place(strip, stripRow, s, frame.row(0), clips.height, clips.width);
        }
        r.shift = (centroidX(frame.row(0), background, clips.height, clips.width) - x0) / kRolloutSteps;
    }
    return r;
}

void putClaims(const ModelReadout& b, const ModelReadout& a, ResultDocument& d) {
    using namespace keys::claim;
    const bool labels = std::isfinite(a.cosine);
    const std::string none = "needs actions.csv and at least two contexts";
    d.claims.push_back(
        claimOf(kAlignedLatents,
                "SeqΔ-REPA latents share one coordinate system: cross-context "
                "cosine of per-move mean latents ≥ 0.7",
                labels && a.cosine >= 0.7, labels ? a.cosine : kNaN, 0.7,
                labels ? "mean over the four moves and context pairs; baseline " + fmt(b.cosine) : none));
    d.claims.push_back(claimOf(kCosineMargin,
                               "SeqΔ-REPA raises the same-action cross-context cosine by ≥ 0.2 over "
                               "the baseline (same seed and steps, λ = 0)",
                               labels && a.cosine - b.cosine >= 0.2, labels ? a.cosine - b.cosine : kNaN, 0.2,
                               labels ? "aligned " + fmt(a.cosine) + " vs baseline " + fmt(b.cosine) : none));
    d.claims.push_back(claimOf(kProbeMargin,
                               "Zero-shot probe transfer A → B (50 labels, nearest class mean) is ≥ 10 "
                               "points better with SeqΔ-REPA",
                               labels && a.probe - b.probe >= 0.10, labels ? a.probe - b.probe : kNaN, 0.10,
                               labels ? "aligned " + fmt(a.probe) + " vs baseline " + fmt(b.probe) +
                                            " (mean over ordered context pairs)"
                                      : none));
    d.claims.push_back(claimOf(kLabelEfficiency,
                               "Fewer labels of a new context are needed to reach 90 % probe "
                               "accuracy with SeqΔ-REPA",
                               labels && a.labels90 < b.labels90,
                               labels ? double(b.labels90 - a.labels90) : kNaN, 0,
                               labels ? "labels to 90 %: aligned " + std::to_string(a.labels90) +
                                            ", baseline " + std::to_string(b.labels90) + " (" +
                                            std::to_string(kNotReached) + " = not reached with 160)"
                                      : none));
}

} // namespace

const std::vector<int>& labelCounts() {
    static const std::vector<int> kCounts{0, 5, 10, 20, 40, 80, 160};
    return kCounts;
}

void writeReadouts(const ClipSet& clips, const FrozenEncoder& phi, const Eigen::MatrixXd& phiFrames,
                   const TrainedPair& models, int probeLabels, const Rng& rng, ResultDocument& d) {
    using namespace keys;
    std::vector<int> ctxRows(size_t(clips.transitions()));
    for (int t = 0; t < clips.transitions(); ++t)
        ctxRows[size_t(t)] = clips.context[size_t(clips.clipOfTransition(t))];
    const int h = clips.height, w = clips.width;
    Eigen::MatrixXd strip =
        Eigen::MatrixXd::Constant(2 * (h + 1) - 1, (kRolloutSteps + 1) * (w + 1) - 1, kNaN);
    const ModelReadout b = readModel(clips, *models.baseline, ctxRows, probeLabels, rng, strip, 0);
    const ModelReadout a = readModel(clips, *models.aligned, ctxRows, probeLabels, rng, strip, 1);

    d.metrics[metric::kClips] = clips.clips();
    d.metrics[metric::kTransitions] = clips.transitions();
    d.metrics[metric::kContextCount] = clips.contexts();
    int labelled = 0;
    for (int v : clips.actions)
        labelled += v >= 0;
    d.metrics[metric::kLabelled] = labelled;
    d.metrics[metric::kPhiExplained] = phi.explained();
    d.metrics[metric::kReconBaseline] = b.recon;
    d.metrics[metric::kReconAligned] = a.recon;
    d.metrics[metric::kAlignCosAligned] = models.aligned->alignCosine(clips, phiFrames);
    d.matrices[matrix::kPhiBasis] =
        matrixOf(phi.pixelBasis(), numberedLabels("px ", phi.pixelBasis().rows(), 0),
                 numberedLabels("φ", phi.dim(), 1));
    d.matrices[matrix::kLatentBaseline] = matrixOf(b.latents, {}, numberedLabels("z", b.latents.cols(), 1));
    d.matrices[matrix::kLatentAligned] = matrixOf(a.latents, {}, numberedLabels("z", a.latents.cols(), 1));
    d.labels[label::kContext] = std::vector<int64_t>(ctxRows.begin(), ctxRows.end());
    if (clips.labelled())
        d.labels[label::kAction] = std::vector<int64_t>(clips.actions.begin(), clips.actions.end());
    // one frame per context
    Eigen::MatrixXd frames = Eigen::MatrixXd::Constant(h, clips.contexts() * (w + 1) - 1, kNaN);
    for (int c = 0; c < clips.contexts(); ++c)
        for (int i = 0; i < clips.clips(); ++i)
            if (clips.context[size_t(i)] == c) {
                place(frames, 0, c, clips.frames.row(clips.start[size_t(i)]), h, w);
                break;
            }
    d.matrices[matrix::kContextFrames] = matrixOf(fillGaps(frames), {}, {});

    auto curve = [](const LamCurves& c, const std::vector<double>& y) {
        return seriesOf(c.step, y, "Adam step", "loss");
    };
    d.series[series::kReconBaseline] = curve(models.baselineCurves, models.baselineCurves.recon);
    d.series[series::kReconAligned] = curve(models.alignedCurves, models.alignedCurves.recon);
    d.series[series::kKlBaseline] = curve(models.baselineCurves, models.baselineCurves.kl);
    d.series[series::kKlAligned] = curve(models.alignedCurves, models.alignedCurves.kl);
    d.series[series::kAlignAligned] = curve(models.alignedCurves, models.alignedCurves.align);

    if (!clips.labelled()) {
        putClaims(b, a, d);
        return;
    }
    d.metrics[metric::kCosineBaseline] = b.cosine;
    d.metrics[metric::kCosineAligned] = a.cosine;
    d.metrics[metric::kProbeBaseline] = b.probe;
    d.metrics[metric::kProbeAligned] = a.probe;
    d.metrics[metric::kLabels90Baseline] = b.labels90;
    d.metrics[metric::kLabels90Aligned] = a.labels90;
    d.metrics[metric::kProcrustesBaseline] = b.procrustes;
    d.metrics[metric::kProcrustesAligned] = a.procrustes;
    d.metrics[metric::kAdapterBaseline] = b.adapter;
    d.metrics[metric::kAdapterAligned] = a.adapter;
    d.metrics[metric::kRolloutBaseline] = b.shift;
    d.metrics[metric::kRolloutAligned] = a.shift;
    std::vector<double> xs(labelCounts().begin(), labelCounts().end());
    d.series[series::kLabelCurveBaseline] =
        seriesOf(xs, b.curve, "labels of the new context", "probe accuracy");
    d.series[series::kLabelCurveAligned] =
        seriesOf(xs, a.curve, "labels of the new context", "probe accuracy");
    Eigen::MatrixXd pair(clips.contexts(), 2 * clips.contexts());
    pair << b.pairCos, a.pairCos;
    std::vector<std::string> cols;
    for (const char* m : {"baseline ", "aligned "})
        for (const auto& n : clips.contextNames)
            cols.push_back(m + n);
    d.matrices[matrix::kPairCosine] = matrixOf(pair, clips.contextNames, cols);
    d.matrices[matrix::kRollout] = matrixOf(fillGaps(strip), {}, {});
    putClaims(b, a, d);
}

} // namespace pl::olaf
