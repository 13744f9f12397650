#pragma once
/// Plugin for the `tilesparse` panel: arithmetic-intensity-aware QK-2D tile sparsity for
/// compute-bound MLA decoding.

#include "sdk/PaperPlugin.h"

#include <QObject>

class tilesparsePlugin : public QObject, public pl::IPaperPlugin {
    Q_OBJECT
    Q_PLUGIN_METADATA(IID PAPERLAB_PLUGIN_IID FILE "paper.json")
    Q_INTERFACES(pl::IPaperPlugin)
public:
    std::unique_ptr<pl::Engine> createEngine() const override;
    pl::gui::FigureSpec buildFigure(const QString& figureId, const pl::ResultDocument& result) const override;
    QString helpMarkdown() const override;
};
