#include "TilesparsePlugin.h"

#include "TilesparseFigures.h"
#include "tilesparse/TileSparseEngine.h"

std::unique_ptr<pl::Engine> tilesparsePlugin::createEngine() const {
    return std::make_unique<pl::tilesparse::TileSparseEngine>();
}

pl::gui::FigureSpec tilesparsePlugin::buildFigure(const QString& figureId,
                                                  const pl::ResultDocument& result) const {
    return pl::tilesparsefig::buildFigure(figureId, result);
}

QString tilesparsePlugin::helpMarkdown() const {
    return pl::tilesparsefig::helpMarkdown();
}
