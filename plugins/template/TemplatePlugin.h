#pragma once
/// The plugin class: metadata from paper.json, a factory for the engine and the figures.

#include "sdk/PaperPlugin.h"

#include <QObject>

class templatePlugin : public QObject, public pl::IPaperPlugin {
    Q_OBJECT
    Q_PLUGIN_METADATA(IID PAPERLAB_PLUGIN_IID FILE "paper.json")
    Q_INTERFACES(pl::IPaperPlugin)
public:
    std::unique_ptr<pl::Engine> createEngine() const override;
    pl::gui::FigureSpec buildFigure(const QString& figureId, const pl::ResultDocument& result) const override;
    QString helpMarkdown() const override;
};
