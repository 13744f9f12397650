#pragma once
/// Plugin for the `ssn-nash` panel: semi-smooth Newton + PRM+ for zero-sum matrix games.

#include "sdk/PaperPlugin.h"

#include <QObject>

class ssn_nashPlugin : public QObject, public pl::IPaperPlugin {
    Q_OBJECT
    Q_PLUGIN_METADATA(IID PAPERLAB_PLUGIN_IID FILE "paper.json")
    Q_INTERFACES(pl::IPaperPlugin)
public:
    std::unique_ptr<pl::Engine> createEngine() const override;
    pl::gui::FigureSpec buildFigure(const QString& figureId, const pl::ResultDocument& result) const override;
    QString helpMarkdown() const override;
};
