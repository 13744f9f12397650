#include "SsnNashPlugin.h"

#include "SsnNashFigures.h"
#include "games/SsnNashEngine.h"

std::unique_ptr<pl::Engine> ssn_nashPlugin::createEngine() const { return std::make_unique<pl::games::SsnNashEngine>(); }

pl::gui::FigureSpec ssn_nashPlugin::buildFigure(const QString& figureId, const pl::ResultDocument& result) const {
    return pl::ssnnash::buildFigure(figureId, result);
}

QString ssn_nashPlugin::helpMarkdown() const { return pl::ssnnash::helpMarkdown(); }
