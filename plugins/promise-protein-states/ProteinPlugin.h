#pragma once
/// Plugin for the `promise-protein-states` panel (ProMiSE): multi-state protein conformations,
/// RMSD/TM-score analysis of real structures and toy samplers on synthetic ensembles.

#include "sdk/PaperPlugin.h"

#include <QObject>

class promise_protein_statesPlugin : public QObject, public pl::IPaperPlugin {
    Q_OBJECT
    Q_PLUGIN_METADATA(IID PAPERLAB_PLUGIN_IID FILE "paper.json")
    Q_INTERFACES(pl::IPaperPlugin)
public:
    std::unique_ptr<pl::Engine> createEngine() const override;
    pl::gui::FigureSpec buildFigure(const QString& figureId, const pl::ResultDocument& result) const override;
    QString helpMarkdown() const override;
};
