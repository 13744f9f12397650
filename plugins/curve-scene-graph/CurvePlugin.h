#pragma once
/// Plugin for the `curve-scene-graph` panel: uncertainty-guided, domain-stable scene graphs
/// (CURVE, workbench reconstruction) against a plain-likelihood relation predictor.

#include "sdk/PaperPlugin.h"

#include <QObject>

class curve_scene_graphPlugin : public QObject, public pl::IPaperPlugin {
    Q_OBJECT
    Q_PLUGIN_METADATA(IID PAPERLAB_PLUGIN_IID FILE "paper.json")
    Q_INTERFACES(pl::IPaperPlugin)
public:
    std::unique_ptr<pl::Engine> createEngine() const override;
    pl::gui::FigureSpec buildFigure(const QString& figureId, const pl::ResultDocument& result) const override;
    QString helpMarkdown() const override;
};
