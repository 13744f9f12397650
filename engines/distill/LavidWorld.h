#pragma once
/// The stand-in world of the lavid-distillation panel (spec §12, our construction): a symbolic
/// knowledge base gives each class an attribute vector (six rendered attributes plus habitat and
/// diet, which the pixels do not show); fine-grained classes are made from a few family bases by
/// changing one or two rendered attributes. Multiple-choice questions ask about one attribute type
/// each, with O options (each option covers a fixed set of the attribute's values; options that
/// cover none are distractors). The language-only teacher answers with option logits
///   l_{c,q,o} = margin * 1[o = answer_{c,q}] + sigma_T * z_{c,q,o},
/// where, with probability h, the answer is replaced by another option (hallucination). It never
/// calls a language model. Pure; any thread.
#include "distill/AttributeRenderer.h"

#include <Eigen/Core>

#include <string>
#include <vector>

namespace pl::distill {

struct LavidWorld {
    std::vector<AttributeVector> classAttrs; ///< per class
    std::vector<int> group;                  ///< per class: habitat (0 land, 1 water)
    std::vector<int> questionAttr;           ///< per question: the attribute type it asks about
    std::vector<std::vector<int>> optionOf;  ///< per question: attribute value -> option
    Eigen::MatrixXi answer;                  ///< classes x questions: the knowledge base's option
    int options = 0;
    int classes() const { return int(classAttrs.size()); }
    int questions() const { return int(questionAttr.size()); }
    std::string className(int c) const; ///< "class_07"
    std::string questionText(int q) const;
};

/// A world of \a classes classes and \a questions questions with \a options options (>= 2).
LavidWorld makeLavidWorld(int classes, int questions, int options, Rng& rng);

/// The teacher's signatures (classes x questions*options, question-major). The hallucination and
/// noise draws depend only on \a rng, so two calls with the same rng and different sigma share
/// their random numbers.
Eigen::MatrixXd teacherSignatures(const LavidWorld& w, double sigma, double hallucination, double margin,
                                  Rng rng);

/// Labelled rows with optional group and background per row (-1 when unknown).
struct DistillData {
    Eigen::MatrixXd X;
    std::vector<int> y;
    std::vector<int> group, background;
    int rows() const { return int(X.rows()); }
};

/// \a perClass renders per class; for each class, round(rho * perClass) of them on the background
/// of its group and the rest on the other one (rows class by class).
DistillData renderLavidImages(const LavidWorld& w, int perClass, double rho, Rng& rng);

/// A random permutation of 0..n-1 without fixed points (n >= 2; identity for n < 2).
std::vector<int> derangement(int n, Rng& rng);

} // namespace pl::distill
