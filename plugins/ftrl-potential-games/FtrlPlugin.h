#pragma once
/// Plugin for the `ftrl-potential-games` panel: slow FTRL / fictitious play in potential games.

#include "sdk/PaperPlugin.h"

#include <QObject>

class ftrl_potential_gamesPlugin : public QObject, public pl::IPaperPlugin {
    Q_OBJECT
    Q_PLUGIN_METADATA(IID PAPERLAB_PLUGIN_IID FILE "paper.json")
    Q_INTERFACES(pl::IPaperPlugin)
public:
    std::unique_ptr<pl::Engine> createEngine() const override;
    pl::gui::FigureSpec buildFigure(const QString& figureId, const pl::ResultDocument& result) const override;
    QString helpMarkdown() const override;
};
