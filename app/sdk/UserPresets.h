#pragma once
/// The user's own parameter presets, per panel, stored in QSettings under "presets/<panel id>"
/// as a JSON array of {name, description, params, locked, hidden} (the paper.json form, so a
/// teacher's preset can lock or hide controls). Main thread (QSettings of the application).

#include "PluginInfo.h"
#include "core/ParamSpec.h"

#include <QList>

namespace pl {

class UserPresets {
public:
    static QList<PresetInfo> load(const QString& pluginId);
    static void save(const QString& pluginId, const QList<PresetInfo>& presets);
    /// Adds or replaces (same name) one preset and saves the list; returns the new list.
    static QList<PresetInfo> put(const QString& pluginId, const PresetInfo& preset);
    static QJsonObject toJson(const PresetInfo& p);
    /// Every value of `params` as JSON (numbers, booleans, strings), the form of preset "params".
    static QJsonObject paramsToJson(const ParamSet& params);
    static PresetInfo fromJson(const QJsonObject& o);
};

} // namespace pl
