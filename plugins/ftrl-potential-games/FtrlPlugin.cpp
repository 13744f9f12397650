#include "FtrlPlugin.h"

#include "FtrlFigures.h"
#include "games/FtrlPotentialEngine.h"

std::unique_ptr<pl::Engine> ftrl_potential_gamesPlugin::createEngine() const {
    return std::make_unique<pl::games::FtrlPotentialEngine>();
}

pl::gui::FigureSpec ftrl_potential_gamesPlugin::buildFigure(const QString& figureId,
                                                            const pl::ResultDocument& result) const {
    return pl::ftrl::buildFigure(figureId, result);
}

QString ftrl_potential_gamesPlugin::helpMarkdown() const { return pl::ftrl::helpMarkdown(); }
