#pragma once
/// Figures of the promise-protein-states panel, built from its result document. Pure functions
/// (thread-safe); no math beyond picking and reordering what the engine computed.

#include "core/ResultDocument.h"
#include "sdk/figure/FigureSpec.h"

namespace pl::proteinfig {

/// Throws std::invalid_argument for an unknown figure id.
gui::FigureSpec buildFigure(const QString& figureId, const ResultDocument& d);
/// The help page (Markdown, from the plugin's resources).
QString helpMarkdown();

} // namespace pl::proteinfig
