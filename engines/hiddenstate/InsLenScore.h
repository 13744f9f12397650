#pragma once
/// The instruction-lens hallucination score of the inslen-hallucination panel (spec §12, the
/// formulas of the public detector.py as the issue reads them) and its baselines, over a list of
/// captions. Object token t is scored at its first position a in answer_ids (skipped if absent,
/// if a = 0, or if the same (t, label) was already scored in that caption); h = answer state at
/// the text layer, position a − 1. Deterministic; any thread.

#include "hiddenstate/InsLenCaption.h"

#include <Eigen/Core>

#include <vector>

namespace pl::hiddenstate {

/// Layers count from 0; −1 = the last.
struct InsLenSettings {
    int imageLayer = -1, textLayer = -1, instructionLayer = -1;
    int k = 8;          ///< top-k patches by image-lens probability of the object token
    int contextNum = 4; ///< instruction tokens that most predict the object
    double bias = 1, scale = 0.1, weight = 0.4, glsimW = 0.5;
};

/// One entry per scored object, captions in input order, objects in array order.
struct InsLenScores {
    std::vector<double> inslen, calibratedLocal, contextConsistency, meanProb, glsim, svar, label;
    std::vector<int> caption, object; ///< indices of the scored objects
    int skipped = 0;
};

/// Precomputes the lens of every layer a sweep may need, then scores (image layer, text layer)
/// pairs cheaply. Holds pointers to the captions and the head (the caller keeps them alive).
class InsLenScorer {
public:
    /// \a sweep: precompute every image layer (for aurocLayers), else only the settings' one.
    /// Throws UsageError if a layer is outside [−1, L).
    InsLenScorer(const std::vector<const InsLenCaption*>& captions, const Eigen::MatrixXd& lmHead,
                 const InsLenSettings& s, bool sweep);
    /// Scores at the given resolved layers (0 ≤ l < L).
    InsLenScores score(int imageLayer, int textLayer) const;
    /// Scores at the settings' layers.
    InsLenScores score() const { return score(m_imageLayer, m_textLayer); }
    /// AUROC of InsLen (real = positive) for every (image layer, text layer): L x L (built with
    /// sweep = true; otherwise the rows of layers not precomputed are NaN).
    Eigen::MatrixXd aurocLayers() const;
    /// Image-lens probability of object \a obj of the scored list, per patch, at the image layer.
    const Eigen::VectorXd& patchProb(size_t obj) const { return m_objects[obj].patchProb; }
    /// The top-k patches of scored object \a obj at the settings' image layer.
    const std::vector<int>& topPatches(size_t obj) const { return m_objects[obj].top[size_t(m_imageLayer)]; }
    int layers() const { return m_layers; }

private:
    struct Scored {
        int caption, object, token, position, label;
        double w, meanCtx;
        Eigen::VectorXd ctxMean;           ///< mean of the top-context instruction states
        std::vector<std::vector<int>> top; ///< per image layer (empty if not computed)
        Eigen::VectorXd patchProb;         ///< at the settings' image layer
    };
    int resolve(int layer, const char* name) const;
    std::vector<const InsLenCaption*> m_captions;
    InsLenSettings m_s;
    int m_layers = 0, m_imageLayer = 0, m_textLayer = 0, m_instrLayer = 0, m_skipped = 0;
    std::vector<Scored> m_objects;
};

} // namespace pl::hiddenstate
