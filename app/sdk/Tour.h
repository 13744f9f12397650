#pragma once
/// A guided tour of a panel: an ordered list of steps, each with a caption, optional preset and
/// parameter changes, the figure to highlight and whether to wait for the step's result.
/// Tours ship as JSON in a plugin's resources (":/<id>/<file>", listed in paper.json "tours").
/// Plain values; any thread (loading from resources needs the plugin library loaded).

#include "PluginInfo.h"
#include "core/ParamSpec.h"

#include <QJsonObject>
#include <QList>
#include <QString>

namespace pl {

struct TourStep {
    QString caption;
    QString preset;     ///< optional: applied first (all parameters from their defaults)
    QJsonObject params; ///< key -> value changes applied after the preset
    QString figure;     ///< figure id to show and highlight ("" = keep the current one)
    bool wait = true;   ///< wait for the step's result before it counts as shown
};

struct Tour {
    QString name;
    QString title;
    QList<TourStep> steps;

    /// Parses a tour file: a JSON list of steps, or {"title": ..., "steps": [...]}.
    static bool fromJson(const QByteArray& json, Tour* out, QString* error);
    /// Reads the tour `name` listed in info.tours from the plugin's resources.
    static bool load(const PluginInfo& info, const QString& name, Tour* out, QString* error);
    /// Checks that every step's preset, parameter keys/values and figure exist for this panel.
    bool validate(const PluginInfo& info, const std::vector<ParamSpec>& specs, QString* error) const;
    /// Parameters of step `index`: `base`, then every step 0..index in order (a preset resets to
    /// the engine's defaults and applies its values; then the step's changes). Throws UsageError.
    ParamSet paramsAt(int index, const ParamSet& base, const PluginInfo& info) const;

    /// Applies JSON key -> value pairs to `set` (validated). Throws UsageError naming the key.
    static void applyJson(ParamSet& set, const QJsonObject& values, const QString& context);
};

} // namespace pl
