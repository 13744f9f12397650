#include "SweepResults.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace pl {

namespace {

bool fail(QString* error, const QString& why) {
    if (error)
        *error = why;
    return false;
}

} // namespace

bool SweepResults::read(const QString& dir, SweepResults* out, QString* error) {
    const QString summary = QDir(dir).filePath(QStringLiteral("sweep.json"));
    QFile f(summary);
    if (!f.open(QIODevice::ReadOnly))
        return fail(error, QStringLiteral("%1: cannot read (not a finished sweep directory?)").arg(summary));
    QJsonParseError pe;
    const QJsonDocument doc = QJsonDocument::fromJson(f.readAll(), &pe);
    const QJsonObject o = doc.object();
    if (pe.error != QJsonParseError::NoError ||
        o.value("format").toString() != QLatin1String("paperlab-sweep/1"))
        return fail(error, QStringLiteral("%1: not a paperlab-sweep/1 file").arg(summary));
    SweepResults r;
    r.dir = dir;
    r.panel = o.value("panel").toString();
    std::vector<SweepAxis> axes;
    for (const QJsonValue& a : o.value("grid").toArray()) {
        SweepAxis axis{a.toObject().value("key").toString().toStdString(), {}};
        for (const QJsonValue& v : a.toObject().value("values").toArray())
            axis.values.push_back(v.toString().toStdString());
        if (axis.key.empty() || axis.values.empty())
            return fail(error, QStringLiteral("%1: a grid axis without key or values").arg(summary));
        axes.push_back(std::move(axis));
    }
    std::vector<uint64_t> seeds;
    for (const QJsonValue& s : o.value("seeds").toArray()) {
        bool ok = false;
        seeds.push_back(s.toString().toULongLong(&ok));
        if (!ok)
            return fail(error, QStringLiteral("%1: bad seed '%2'").arg(summary, s.toString()));
    }
    if (seeds.empty())
        return fail(error, QStringLiteral("%1: no seeds").arg(summary));
    r.plan = SweepPlan::fromAxes(std::move(axes), std::move(seeds));
    r.runs = r.plan.runs();
    for (const SweepCell& run : r.runs) {
        const QString path =
            QDir(dir).filePath(QString::fromStdString(run.fileStem) + QStringLiteral(".json"));
        QFile rf(path);
        if (!rf.open(QIODevice::ReadOnly))
            return fail(error, QStringLiteral("%1: missing (run the sweep again to finish it)").arg(path));
        try {
            r.docs.push_back(ResultDocument::fromJson(rf.readAll().toStdString(), path.toStdString()));
        } catch (const std::exception& e) {
            return fail(error, QString::fromUtf8(e.what()));
        }
        if (QString::fromStdString(r.docs.back().panel) != r.panel || r.docs.back().seed != run.seed)
            return fail(
                error,
                QStringLiteral("%1: not the run of panel %2 with seed %3").arg(path, r.panel).arg(run.seed));
    }
    *out = std::move(r);
    return true;
}

std::vector<const ResultDocument*> SweepResults::cell(int c) const {
    std::vector<const ResultDocument*> out;
    for (size_t i = 0; i < runs.size(); ++i)
        if (runs[i].cellIndex == c)
            out.push_back(&docs[i]);
    return out;
}

QString SweepResults::cellLabel(int c) const {
    for (const SweepCell& r : runs)
        if (r.cellIndex == c) {
            QStringList parts;
            for (const auto& [k, v] : r.values)
                parts << QStringLiteral("%1 = %2").arg(QString::fromStdString(k), QString::fromStdString(v));
            return parts.isEmpty() ? QStringLiteral("all runs") : parts.join(QStringLiteral(", "));
        }
    return {};
}

} // namespace pl
