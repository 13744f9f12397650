#include "Session.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSaveFile>

namespace pl {

bool Session::read(const QString& path, Session* out, QString* error) {
    auto fail = [&](const QString& why) {
        if (error)
            *error = QStringLiteral("%1: %2").arg(path, why);
        return false;
    };
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return fail(QStringLiteral("cannot open (%1)").arg(f.errorString()));
    if (f.size() > (64 << 20))
        return fail(QStringLiteral("larger than 64 MiB; not a session"));
    QJsonParseError pe;
    const QJsonDocument doc = QJsonDocument::fromJson(f.readAll(), &pe);
    if (pe.error != QJsonParseError::NoError)
        return fail(QStringLiteral("byte %1: corrupted session (%2)").arg(pe.offset).arg(pe.errorString()));
    if (!doc.isObject())
        return fail(QStringLiteral("not a session (top level is not an object)"));
    const QJsonObject o = doc.object();
    if (o.value("format").toString() != QLatin1String(kFormatName))
        return fail(QStringLiteral("not a Paperlab session (format is '%1')").arg(o.value("format").toString()));
    const int version = o.value("version").toInt(-1);
    if (version < 1)
        return fail(QStringLiteral("missing or bad version"));
    if (version > kFormatVersion)
        return fail(QStringLiteral("session format version %1 is newer than this Paperlab (%2); update Paperlab")
                        .arg(version)
                        .arg(kFormatVersion));
    Session s;
    for (const auto& p : o.value("panels").toArray()) {
        if (!p.isObject() || p.toObject().value("plugin").toString().isEmpty())
            return fail(QStringLiteral("a panel record has no plugin id"));
        s.panels << p.toObject();
    }
    s.layout = o.value("layout").toObject();
    *out = s;
    return true;
}

QJsonObject Session::toJson(const QString& sessionDir) const {
    QJsonArray arr;
    for (QJsonObject p : panels) {
        if (!sessionDir.isEmpty()) {
            QJsonArray inputs;
            for (const auto& iv : p.value("inputs").toArray()) {
                QJsonObject io = iv.toObject();
                const QString abs = QFileInfo(io.value("path").toString()).absoluteFilePath();
                const QString rel = QDir(sessionDir).relativeFilePath(abs);
                io["path"] = rel.startsWith(QLatin1String("..")) ? abs : rel;
                inputs.append(io);
            }
            if (p.contains("inputs"))
                p["inputs"] = inputs;
        }
        arr.append(p);
    }
    return QJsonObject{{"format", QString::fromLatin1(kFormatName)},
                       {"version", kFormatVersion},
                       {"saved", QDateTime::currentDateTimeUtc().toString(Qt::ISODate)},
                       {"panels", arr},
                       {"layout", layout}};
}

bool Session::write(const QString& path, QString* error) const {
    QSaveFile f(path);
    if (!f.open(QIODevice::WriteOnly)) {
        if (error)
            *error = QStringLiteral("%1: cannot write (%2)").arg(path, f.errorString());
        return false;
    }
    const QString dir = QFileInfo(path).absolutePath();
    f.write(QJsonDocument(toJson(dir)).toJson(QJsonDocument::Indented));
    if (!f.commit()) {
        if (error)
            *error = QStringLiteral("%1: cannot write (%2)").arg(path, f.errorString());
        return false;
    }
    return true;
}

} // namespace pl
