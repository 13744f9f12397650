#pragma once
/// Plugin for the `bottleneck-keypoints` panel: Laplacian bottlenecks as keypoints for
/// long-horizon offline goal reaching on grid mazes.

#include "sdk/PaperPlugin.h"

#include <QObject>

class bottleneck_keypointsPlugin : public QObject, public pl::IPaperPlugin {
    Q_OBJECT
    Q_PLUGIN_METADATA(IID PAPERLAB_PLUGIN_IID FILE "paper.json")
    Q_INTERFACES(pl::IPaperPlugin)
public:
    std::unique_ptr<pl::Engine> createEngine() const override;
    pl::gui::FigureSpec buildFigure(const QString& figureId, const pl::ResultDocument& result) const override;
    QString helpMarkdown() const override;
};
