#pragma once
/// The interface every paper plugin implements (plugins/<id>/). A plugin is a factory: it
/// creates engines (non-visual, used by the GUI and the CLI alike) and builds figure
/// descriptions from results (plain data, sdk/figure/FigureSpec.h: no widgets, VTK or GL). Its
/// metadata (paper.json) is read without loading the library.

#include "core/Engine.h"
#include "sdk/figure/FigureSpec.h"

#include <QString>
#include <QtPlugin>
#include <memory>

namespace pl {

/// Bump the trailing number when the interface changes incompatibly; paper.json's
/// "apiVersion" must equal kPluginApiVersion.
#define PAPERLAB_PLUGIN_IID "org.paperlab.PaperPlugin/1"
inline constexpr int kPluginApiVersion = 1;

class IPaperPlugin {
public:
    virtual ~IPaperPlugin() = default;
    /// Called once on the main thread right after loading. Return false and set *error to mark
    /// the plugin broken (it is then listed with the error and never used).
    virtual bool initialize(QString* error) { return true; }
    /// A new engine. Engines are stateless; one instance may run on several threads.
    virtual std::unique_ptr<Engine> createEngine() const = 0;
    /// Builds figure `figureId` (an id listed in paper.json) from a result. Pure and thread-safe.
    /// Throws std::invalid_argument for an unknown id.
    virtual gui::FigureSpec buildFigure(const QString& figureId, const ResultDocument& result) const = 0;
    /// The panel's help page in Markdown, in our own words.
    virtual QString helpMarkdown() const = 0;
};

} // namespace pl

Q_DECLARE_INTERFACE(pl::IPaperPlugin, PAPERLAB_PLUGIN_IID)
