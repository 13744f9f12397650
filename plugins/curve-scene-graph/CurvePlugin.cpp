#include "CurvePlugin.h"

#include "CurveFigures.h"
#include "curve/CurveEngine.h"

std::unique_ptr<pl::Engine> curve_scene_graphPlugin::createEngine() const {
    return std::make_unique<pl::curve::CurveEngine>();
}

pl::gui::FigureSpec curve_scene_graphPlugin::buildFigure(const QString& figureId,
                                                         const pl::ResultDocument& result) const {
    return pl::curvefig::buildFigure(figureId, result);
}

QString curve_scene_graphPlugin::helpMarkdown() const {
    return pl::curvefig::helpMarkdown();
}
