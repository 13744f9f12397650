#include "SweepFiles.h"

#include "sdk/ClaimRobustness.h"
#include "sdk/Version.h"

#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSaveFile>

#include <algorithm>
#include <set>

namespace pl {

namespace {

QString num(double v) {
    return QString::number(v, 'g', 17);
}

QString csvField(const QString& v) {
    if (!v.contains(QLatin1Char(',')) && !v.contains(QLatin1Char('"')) && !v.contains(QLatin1Char('\n')))
        return v;
    QString q = v;
    q.replace(QLatin1String("\""), QLatin1String("\"\""));
    return QLatin1Char('"') + q + QLatin1Char('"');
}

QJsonArray tallyJson(const std::vector<const ResultDocument*>& runs) {
    QJsonArray arr;
    for (const ClaimTally& t : tallyClaims(runs))
        arr.append(QJsonObject{
            {"id", QString::fromStdString(t.id)},
            {"statement", QString::fromStdString(t.statement)},
            {"holds", t.holds},
            {"runs", t.runs},
            {"fraction", t.fraction()},
            {"wilson_95", QJsonArray{t.interval.lo, t.interval.hi}},
            {"observed",
             QJsonObject{{"min", t.observedMin}, {"median", t.observedMedian}, {"max", t.observedMax}}},
            {"threshold", t.threshold}});
    return arr;
}

} // namespace

QByteArray sweepTableCsv(const SweepRecord& s) {
    std::set<std::string> metrics;
    std::vector<std::string> claims;
    for (const ResultDocument& d : (*s.results)) {
        for (const auto& [k, v] : d.metrics)
            metrics.insert(k);
        for (const Claim& c : d.claims)
            if (std::find(claims.begin(), claims.end(), c.id) == claims.end())
                claims.push_back(c.id);
    }
    QStringList head;
    for (const SweepAxis& a : s.plan->axes())
        head << csvField(QString::fromStdString(a.key));
    head << QStringLiteral("seed");
    for (const std::string& m : metrics)
        head << csvField(QString::fromStdString(m));
    for (const std::string& c : claims)
        head << csvField(QString::fromStdString(c + ".observed"))
             << csvField(QString::fromStdString(c + ".holds"));
    head << QStringLiteral("elapsed_ms");
    QByteArray out = head.join(QLatin1Char(',')).toUtf8() + "\n";
    for (size_t i = 0; i < (*s.runs).size(); ++i) {
        const ResultDocument& d = (*s.results)[i];
        QStringList row;
        for (const auto& [k, v] : (*s.runs)[i].values)
            row << csvField(QString::fromStdString(v));
        row << QString::number((*s.runs)[i].seed);
        for (const std::string& m : metrics)
            row << (d.metrics.count(m) ? num(d.metrics.at(m)) : QString());
        for (const std::string& id : claims) {
            auto c =
                std::find_if(d.claims.begin(), d.claims.end(), [&](const Claim& x) { return x.id == id; });
            row << (c != d.claims.end() ? num(c->observed) : QString())
                << (c != d.claims.end() ? QString::number(c->holds ? 1 : 0) : QString());
        }
        row << num(d.elapsedMs);
        out += row.join(QLatin1Char(',')).toUtf8() + "\n";
    }
    return out;
}

QByteArray sweepSummaryJson(const SweepRecord& s) {
    QJsonArray axes, cells;
    for (const SweepAxis& a : s.plan->axes()) {
        QJsonArray v;
        for (const std::string& x : a.values)
            v.append(QString::fromStdString(x));
        axes.append(QJsonObject{{"key", QString::fromStdString(a.key)}, {"values", v}});
    }
    std::vector<const ResultDocument*> all;
    const size_t perCell = s.plan->seeds().size();
    for (size_t c = 0; c < (*s.runs).size(); c += perCell) {
        std::vector<const ResultDocument*> cell;
        for (size_t k = c; k < c + perCell; ++k)
            cell.push_back(&(*s.results)[k]);
        all.insert(all.end(), cell.begin(), cell.end());
        QJsonObject values;
        for (const auto& [k, v] : (*s.runs)[c].values)
            values[QString::fromStdString(k)] = QString::fromStdString(v);
        cells.append(
            QJsonObject{{"cell", int(c / perCell)}, {"values", values}, {"claims", tallyJson(cell)}});
    }
    QJsonArray seeds;
    for (uint64_t sd : s.plan->seeds())
        seeds.append(QString::number(sd));
    const QJsonObject doc{{"format", "paperlab-sweep/1"},
                          {"panel", s.panel},
                          {"preset", s.preset},
                          {"sets", s.sets},
                          {"grid", axes},
                          {"seeds", seeds},
                          {"runs", int((*s.runs).size())},
                          {"cells", cells},
                          {"claims", tallyJson(all)}};
    return QJsonDocument(doc).toJson(QJsonDocument::Indented);
}

} // namespace pl

namespace pl {

namespace {

bool writeWhole(const QString& path, const QByteArray& bytes, QString* error) {
    QSaveFile f(path);
    if (f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size() && f.commit())
        return true;
    if (error)
        *error = QStringLiteral("%1: %2").arg(path, f.errorString());
    return false;
}

} // namespace

bool saveSweepDirectory(const QString& dir, const SweepRecord& record, QString* error) {
    if (!QDir().mkpath(dir)) {
        if (error)
            *error = QStringLiteral("%1: cannot create the directory").arg(dir);
        return false;
    }
    for (size_t i = 0; i < record.runs->size(); ++i) {
        ResultDocument d = (*record.results)[i];
        if (d.panel.empty())
            continue; // not finished: a resumed `paperlab sweep` computes it
        d.paperlabVersion = paperlabVersion().toStdString();
        const QString path =
            QDir(dir).filePath(QString::fromStdString((*record.runs)[i].fileStem) + QStringLiteral(".json"));
        if (!writeWhole(path, QByteArray::fromStdString(d.toJson(2) + "\n"), error))
            return false;
    }
    return writeWhole(QDir(dir).filePath(QStringLiteral("sweep.csv")), sweepTableCsv(record), error) &&
           writeWhole(QDir(dir).filePath(QStringLiteral("sweep.json")), sweepSummaryJson(record), error);
}

} // namespace pl
