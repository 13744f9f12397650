#include "ProteinPlugin.h"

#include "ProteinFigures.h"
#include "protein/ProteinEngine.h"

std::unique_ptr<pl::Engine> promise_protein_statesPlugin::createEngine() const {
    return std::make_unique<pl::protein::ProteinEngine>();
}

pl::gui::FigureSpec promise_protein_statesPlugin::buildFigure(const QString& figureId,
                                                              const pl::ResultDocument& result) const {
    return pl::proteinfig::buildFigure(figureId, result);
}

QString promise_protein_statesPlugin::helpMarkdown() const {
    return pl::proteinfig::helpMarkdown();
}
