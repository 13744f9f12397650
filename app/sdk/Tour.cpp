#include "Tour.h"

#include "PanelModel.h"
#include "core/Errors.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>

namespace pl {

bool Tour::fromJson(const QByteArray& json, Tour* out, QString* error) {
    auto fail = [&](const QString& why) {
        if (error)
            *error = why;
        return false;
    };
    QJsonParseError pe;
    const QJsonDocument doc = QJsonDocument::fromJson(json, &pe);
    if (doc.isNull())
        return fail(QStringLiteral("tour is not valid JSON: %1").arg(pe.errorString()));
    Tour t;
    QJsonArray steps;
    if (doc.isArray()) {
        steps = doc.array();
    } else {
        t.title = doc.object().value("title").toString();
        steps = doc.object().value("steps").toArray();
    }
    int i = 0;
    for (const QJsonValue v : std::as_const(steps)) {
        ++i;
        if (!v.isObject())
            return fail(QStringLiteral("tour step %1 is not an object").arg(i));
        const QJsonObject o = v.toObject();
        TourStep s;
        s.caption = o.value("caption").toString();
        s.preset = o.value("preset").toString();
        s.params = o.value("params").toObject();
        s.figure = o.value("figure").toString();
        s.wait = o.value("wait").toBool(true);
        if (s.caption.isEmpty())
            return fail(QStringLiteral("tour step %1 has no caption").arg(i));
        if (o.contains("params") && !o.value("params").isObject())
            return fail(QStringLiteral("tour step %1: \"params\" must be an object").arg(i));
        t.steps << s;
    }
    if (t.steps.isEmpty())
        return fail(QStringLiteral("tour has no steps"));
    *out = t;
    return true;
}

bool Tour::load(const PluginInfo& info, const QString& name, Tour* out, QString* error) {
    const TourInfo* ti = info.tour(name);
    if (!ti) {
        if (error) {
            QStringList names;
            for (const TourInfo& t : info.tours)
                names << t.name;
            *error = QStringLiteral("panel '%1' has no tour '%2' (known: %3)")
                         .arg(info.id, name,
                              names.isEmpty() ? QStringLiteral("none") : names.join(QStringLiteral(", ")));
        }
        return false;
    }
    QFile f(QStringLiteral(":/%1/%2").arg(info.id, ti->file));
    if (!f.open(QIODevice::ReadOnly)) {
        if (error)
            *error = QStringLiteral("tour '%1': cannot read %2").arg(name, f.fileName());
        return false;
    }
    QString why;
    if (!fromJson(f.readAll(), out, &why)) {
        if (error)
            *error = QStringLiteral("tour '%1' (%2): %3").arg(name, ti->file, why);
        return false;
    }
    out->name = ti->name;
    if (!ti->title.isEmpty())
        out->title = ti->title;
    return true;
}

void Tour::applyJson(ParamSet& set, const QJsonObject& values, const QString& context) {
    for (auto it = values.begin(); it != values.end(); ++it) {
        const ParamSpec* spec = set.spec(it.key().toStdString());
        ParamValue v;
        if (!spec)
            throw UsageError(
                QStringLiteral("%1: unknown parameter '%2'").arg(context, it.key()).toStdString());
        if (!PanelModel::paramFromJson(*spec, it.value(), &v))
            throw UsageError(QStringLiteral("%1: parameter '%2' has a bad value (allowed: %3)")
                                 .arg(context, it.key(), QString::fromStdString(spec->allowedText()))
                                 .toStdString());
        set.set(spec->key, v);
    }
}

ParamSet Tour::paramsAt(int index, const ParamSet& base, const PluginInfo& info) const {
    ParamSet ps = base;
    for (int i = 0; i <= index && i < steps.size(); ++i) {
        const TourStep& s = steps.at(i);
        const QString context = QStringLiteral("tour step %1").arg(i + 1);
        if (!s.preset.isEmpty()) {
            const PresetInfo* p = info.preset(s.preset);
            if (!p)
                throw UsageError(
                    QStringLiteral("%1: unknown preset '%2'").arg(context, s.preset).toStdString());
            ps = ParamSet(base.specs());
            applyJson(ps, p->params, context);
        }
        applyJson(ps, s.params, context);
    }
    return ps;
}

bool Tour::validate(const PluginInfo& info, const std::vector<ParamSpec>& specs, QString* error) const {
    const ParamSet defaults(specs);
    for (int i = 0; i < steps.size(); ++i) {
        const TourStep& s = steps.at(i);
        if (!s.figure.isEmpty() && !info.figure(s.figure)) {
            if (error)
                *error = QStringLiteral("tour step %1: unknown figure '%2'").arg(i + 1).arg(s.figure);
            return false;
        }
        try {
            (void)paramsAt(i, defaults, info);
        } catch (const std::exception& e) {
            if (error)
                *error = QString::fromStdString(e.what());
            return false;
        }
    }
    return true;
}

} // namespace pl
