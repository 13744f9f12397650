#pragma once
/// Plugin for the `torus-graph` panel: phase-coupling networks with torus graphs, stochastic score
/// matching, TG-HMM and AR-TG transfer entropy. A factory only; the math is in engines/torusgraph.

#include "sdk/PaperPlugin.h"

#include <QObject>

class torus_graphPlugin : public QObject, public pl::IPaperPlugin {
    Q_OBJECT
    Q_PLUGIN_METADATA(IID PAPERLAB_PLUGIN_IID FILE "paper.json")
    Q_INTERFACES(pl::IPaperPlugin)
public:
    std::unique_ptr<pl::Engine> createEngine() const override;
    pl::gui::FigureSpec buildFigure(const QString& figureId, const pl::ResultDocument& result) const override;
    QString helpMarkdown() const override;
};
