#pragma once
/// Figures of the ftrl-potential-games panel, built from its result document. Pure functions.

#include "core/ResultDocument.h"
#include "sdk/figure/FigureSpec.h"

namespace pl::ftrl {

/// Throws std::invalid_argument for an unknown figure id.
gui::FigureSpec buildFigure(const QString& figureId, const ResultDocument& d);
QString helpMarkdown();

} // namespace pl::ftrl
