#include "KeypointsPlugin.h"

#include "KeypointsFigures.h"
#include "keypoints/KeypointsEngine.h"

std::unique_ptr<pl::Engine> bottleneck_keypointsPlugin::createEngine() const {
    return std::make_unique<pl::keypoints::KeypointsEngine>();
}

pl::gui::FigureSpec bottleneck_keypointsPlugin::buildFigure(const QString& figureId,
                                                            const pl::ResultDocument& result) const {
    return pl::keypointsfig::buildFigure(figureId, result);
}

QString bottleneck_keypointsPlugin::helpMarkdown() const {
    return pl::keypointsfig::helpMarkdown();
}
