#pragma once
/// Metadata of one plugin, parsed from its paper.json (embedded with Q_PLUGIN_METADATA and
/// read through QPluginLoader::metaData() without loading the library).

#include "sdk/figure/FigureSpec.h"

#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

namespace pl {

struct FigureInfo {
    QString id;
    QString title;
    gui::FigureKind kind = gui::FigureKind::Chart;
};

/// A named parameter preset ("paper defaults", teaching presets).
struct PresetInfo {
    QString name;
    QString description;
    QJsonObject params; ///< key -> value (JSON number, bool or string)
    QStringList locked; ///< keys whose controls are disabled under this preset
    QStringList hidden; ///< keys whose controls are hidden under this preset
};

/// A guided tour listed in paper.json "tours": its steps live in the plugin's resources under
/// ":/<id>/<file>" (see Tour).
struct TourInfo {
    QString name;
    QString title;
    QString file; ///< path relative to the plugin's resource prefix, e.g. "tours/basics.json"
};

struct PluginInfo {
    QString id;
    QString title;
    QString paper; ///< short citation of the paper
    QString idea;  ///< one-line idea, shown in the panel browser
    QString version;
    int apiVersion = 0;
    QStringList tags;
    QList<FigureInfo> figures;
    QList<PresetInfo> presets;
    QList<TourInfo> tours;
    /// paper.json "layout": the default figure layout {"mode": single|side_by_side|stacked|quad,
    /// "figures": [ids]} (empty: tabs).
    QJsonObject layout;
    QString libraryPath; ///< empty for static plugins
    QString error;       ///< non-empty when the plugin is broken (listed, never used)

    /// Parses the "MetaData" object (paper.json). Returns false and sets *error on bad metadata.
    static bool fromJson(const QJsonObject& meta, PluginInfo* out, QString* error);
    QJsonObject toJson() const; ///< the form printed by `paperlab list --json`
    const FigureInfo* figure(const QString& id) const;
    const PresetInfo* preset(const QString& name) const;
    const TourInfo* tour(const QString& name) const;
};

} // namespace pl
