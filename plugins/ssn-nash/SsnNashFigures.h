#pragma once
/// Figures of the ssn-nash panel, built from its result document. Pure functions (thread-safe).

#include "core/ResultDocument.h"
#include "sdk/figure/FigureSpec.h"

namespace pl::ssnnash {

/// Throws std::invalid_argument for an unknown figure id.
gui::FigureSpec buildFigure(const QString& figureId, const ResultDocument& d);
/// The help page (Markdown, from the plugin's resources).
QString helpMarkdown();

} // namespace pl::ssnnash
