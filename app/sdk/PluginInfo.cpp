#include "PluginInfo.h"

#include "PaperPlugin.h"

#include <QJsonArray>

namespace pl {

bool PluginInfo::fromJson(const QJsonObject& meta, PluginInfo* out, QString* error) {
    PluginInfo p;
    p.id = meta.value("id").toString();
    p.title = meta.value("title").toString();
    p.paper = meta.value("paper").toString();
    p.idea = meta.value("idea").toString();
    p.version = meta.value("version").toString();
    p.apiVersion = meta.value("apiVersion").toInt();
    auto fail = [&](const QString& why) {
        if (error)
            *error = why;
        return false;
    };
    if (p.id.isEmpty())
        return fail(QStringLiteral("paper.json has no \"id\""));
    if (p.apiVersion != kPluginApiVersion)
        return fail(
            QStringLiteral("plugin API version %1 in paper.json, this Paperlab needs %2%3")
                .arg(p.apiVersion)
                .arg(kPluginApiVersion)
                .arg(p.apiVersion < kPluginApiVersion
                         ? QStringLiteral(
                               ": rebuild the panel against the current SDK (plugins/template/README.md)")
                         : QString()));
    for (const auto& t : meta.value("tags").toArray())
        p.tags << t.toString();
    for (const auto& f : meta.value("figures").toArray()) {
        FigureInfo fi;
        const QJsonObject o = f.toObject();
        fi.id = o.value("id").toString();
        fi.title = o.value("title").toString(fi.id);
        if (fi.id.isEmpty() || !gui::figureKindFromString(o.value("kind").toString(), &fi.kind))
            return fail(
                QStringLiteral("figure '%1' needs an id and a kind (chart|heatmap|graph|3d)").arg(fi.id));
        p.figures << fi;
    }
    for (const auto& pr : meta.value("presets").toArray()) {
        const QJsonObject o = pr.toObject();
        PresetInfo pi;
        pi.name = o.value("name").toString();
        pi.description = o.value("description").toString();
        pi.params = o.value("params").toObject();
        for (const auto& k : o.value("locked").toArray())
            pi.locked << k.toString();
        for (const auto& k : o.value("hidden").toArray())
            pi.hidden << k.toString();
        if (pi.name.isEmpty())
            return fail(QStringLiteral("a preset has no name"));
        p.presets << pi;
    }
    for (const auto& t : meta.value("tours").toArray()) {
        const QJsonObject o = t.toObject();
        TourInfo ti{o.value("name").toString(), o.value("title").toString(), o.value("file").toString()};
        if (ti.name.isEmpty() || ti.file.isEmpty())
            return fail(QStringLiteral("a tour needs a \"name\" and a \"file\""));
        if (ti.title.isEmpty())
            ti.title = ti.name;
        p.tours << ti;
    }
    if (meta.contains("layout")) {
        p.layout = meta.value("layout").toObject();
        static const QStringList modes{"single", "side_by_side", "stacked", "quad"};
        if (!modes.contains(p.layout.value("mode").toString()))
            return fail(
                QStringLiteral("\"layout\": \"mode\" must be one of %1").arg(modes.join(QLatin1Char('|'))));
        for (const auto& f : p.layout.value("figures").toArray())
            if (!p.figure(f.toString()))
                return fail(QStringLiteral("\"layout\" names figure '%1', which the panel does not have")
                                .arg(f.toString()));
    }
    *out = p;
    return true;
}

QJsonObject PluginInfo::toJson() const {
    QJsonObject o{{"id", id}, {"title", title}, {"paper", paper}, {"idea", idea}, {"version", version}};
    o["tags"] = QJsonArray::fromStringList(tags);
    QJsonArray figs;
    for (const auto& f : figures)
        figs.append(QJsonObject{{"id", f.id}, {"title", f.title}, {"kind", gui::toString(f.kind)}});
    o["figures"] = figs;
    QJsonArray pres;
    for (const auto& p : presets)
        pres.append(QJsonObject{{"name", p.name}, {"description", p.description}});
    o["presets"] = pres;
    if (!tours.isEmpty()) {
        QJsonArray ts;
        for (const auto& t : tours)
            ts.append(QJsonObject{{"name", t.name}, {"title", t.title}});
        o["tours"] = ts;
    }
    if (!error.isEmpty())
        o["error"] = error;
    return o;
}

const FigureInfo* PluginInfo::figure(const QString& fid) const {
    for (const auto& f : figures)
        if (f.id == fid)
            return &f;
    return nullptr;
}

const PresetInfo* PluginInfo::preset(const QString& name) const {
    for (const auto& p : presets)
        if (p.name == name)
            return &p;
    return nullptr;
}

const TourInfo* PluginInfo::tour(const QString& name) const {
    for (const auto& t : tours)
        if (t.name == name)
            return &t;
    return nullptr;
}

} // namespace pl
