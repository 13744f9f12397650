#include "TorusGraphPlugin.h"

#include "TorusGraphFigures.h"
#include "torusgraph/TorusGraphEngine.h"

std::unique_ptr<pl::Engine> torus_graphPlugin::createEngine() const {
    return std::make_unique<pl::torusgraph::TorusGraphEngine>();
}

pl::gui::FigureSpec torus_graphPlugin::buildFigure(const QString& figureId,
                                                   const pl::ResultDocument& result) const {
    return pl::torusgraphfig::buildFigure(figureId, result);
}

QString torus_graphPlugin::helpMarkdown() const {
    return pl::torusgraphfig::helpMarkdown();
}
