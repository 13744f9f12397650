#include "UserPresets.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QSettings>

namespace pl {

namespace {
QString settingsKey(const QString& pluginId) {
    return QStringLiteral("presets/") + pluginId;
}
} // namespace

QJsonObject UserPresets::paramsToJson(const ParamSet& params) {
    QJsonObject o;
    for (const auto& [k, v] : params.values()) {
        const QString key = QString::fromStdString(k);
        if (auto i = std::get_if<int64_t>(&v))
            o[key] = double(*i);
        else if (auto d = std::get_if<double>(&v))
            o[key] = *d;
        else if (auto b = std::get_if<bool>(&v))
            o[key] = *b;
        else
            o[key] = QString::fromStdString(std::get<std::string>(v));
    }
    return o;
}

QJsonObject UserPresets::toJson(const PresetInfo& p) {
    QJsonObject o{{"name", p.name}, {"description", p.description}, {"params", p.params}};
    if (!p.locked.isEmpty())
        o["locked"] = QJsonArray::fromStringList(p.locked);
    if (!p.hidden.isEmpty())
        o["hidden"] = QJsonArray::fromStringList(p.hidden);
    return o;
}

PresetInfo UserPresets::fromJson(const QJsonObject& o) {
    PresetInfo p;
    p.name = o.value("name").toString();
    p.description = o.value("description").toString();
    p.params = o.value("params").toObject();
    for (const auto& k : o.value("locked").toArray())
        p.locked << k.toString();
    for (const auto& k : o.value("hidden").toArray())
        p.hidden << k.toString();
    return p;
}

QList<PresetInfo> UserPresets::load(const QString& pluginId) {
    const QByteArray text = QSettings().value(settingsKey(pluginId)).toByteArray();
    QList<PresetInfo> out;
    for (const auto& v : QJsonDocument::fromJson(text).array()) {
        const PresetInfo p = fromJson(v.toObject());
        if (!p.name.isEmpty())
            out << p;
    }
    return out;
}

void UserPresets::save(const QString& pluginId, const QList<PresetInfo>& presets) {
    QJsonArray arr;
    for (const auto& p : presets)
        arr.append(toJson(p));
    QSettings().setValue(settingsKey(pluginId), QJsonDocument(arr).toJson(QJsonDocument::Compact));
}

QList<PresetInfo> UserPresets::put(const QString& pluginId, const PresetInfo& preset) {
    QList<PresetInfo> list = load(pluginId);
    bool replaced = false;
    for (auto& p : list)
        if (p.name == preset.name) {
            p = preset;
            replaced = true;
        }
    if (!replaced)
        list << preset;
    save(pluginId, list);
    return list;
}

} // namespace pl
