#pragma once
/// A/B comparison of two results of one panel (issue 34): the parameters that differ, and any
/// figure of A and B as one figure: charts overlay A (dashed, thinner, "A: " in the legend, the same
/// colour as B's series) and B; heatmaps show A, B or B − A (diverging map centred at zero) when
/// both have the same shape; graphs and 3D scenes show B with a note. Model side; any thread.

#include "core/ResultDocument.h"
#include "sdk/figure/FigureSpec.h"

#include <string>
#include <vector>

namespace pl {

/// One parameter that differs: its key and both values as text ("" where a run lacks it).
struct ParamDifference {
    std::string key, a, b;
};

/// Parameters (and the seed, as key "seed") whose values differ between A and B, in A's order.
std::vector<ParamDifference> parameterDifferences(const ResultDocument& a, const ResultDocument& b);

enum class CompareView { Overlay, OnlyA, OnlyB, Difference };

/// The figure of A and B in `view`. Overlay of two heatmaps is their difference B − A; a
/// Difference of figures of other kinds, or of heatmaps of different shapes, is B with a message
/// in the caption.
gui::FigureSpec compareFigures(const gui::FigureSpec& a, const gui::FigureSpec& b, CompareView view);

} // namespace pl
