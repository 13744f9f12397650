#include "TourReportWriter.h"

#include "PdfDocumentWriter.h"
#include "ReportHtml.h"

#include "sdk/PaperPlugin.h"
#include "sdk/Version.h"
#include "widgets/FigureExporter.h"

#include <QDateTime>
#include <QFile>
#include <QSaveFile>
#include <QTextDocument>
#include <algorithm>

namespace pl {

using report::esc;
using report::styleSheet;

TourReportWriter::TourReportWriter(const PluginInfo& info, const IPaperPlugin& plugin, const Tour& tour,
                                   const std::vector<ResultDocument>& results, int dpi)
    : m_info(info), m_plugin(plugin), m_tour(tour), m_results(results), m_dpi(dpi) {}

QString TourReportWriter::figureOfStep(int i) const {
    for (int k = i; k >= 0; --k)
        if (!m_tour.steps.at(k).figure.isEmpty())
            return m_tour.steps.at(k).figure;
    return m_info.figures.isEmpty() ? QString() : m_info.figures.first().id;
}

QString TourReportWriter::html(bool embedSvg, QString* error) const {
    auto fail = [&](const QString& why) {
        if (error)
            *error = why;
        return QString();
    };
    if (int(m_results.size()) != m_tour.steps.size())
        return fail(QStringLiteral("tour '%1': %2 steps but %3 results")
                        .arg(m_tour.name)
                        .arg(m_tour.steps.size())
                        .arg(m_results.size()));
    const QString title = m_tour.title.isEmpty() ? m_tour.name : m_tour.title;
    QString h;
    h += QStringLiteral(
             "<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>%1 — %2</title>%3</head><body>")
             .arg(esc(title), esc(m_info.title), styleSheet());
    h += QStringLiteral("<h1>%1</h1><p><i>%2</i> — %3</p><p>%4</p>")
             .arg(esc(title), esc(m_info.title), esc(m_info.paper), esc(m_info.idea));
    for (int i = 0; i < m_tour.steps.size(); ++i) {
        const TourStep& s = m_tour.steps.at(i);
        const ResultDocument& r = m_results.at(size_t(i));
        h += QStringLiteral("<h2>Step %1 of %2</h2><p>%3</p>")
                 .arg(i + 1)
                 .arg(m_tour.steps.size())
                 .arg(esc(s.caption));
        QStringList changed;
        for (auto it = s.params.begin(); it != s.params.end(); ++it) {
            const auto pv = std::find_if(r.params.begin(), r.params.end(),
                                         [&](const auto& kv) { return kv.first == it.key().toStdString(); });
            changed << QStringLiteral("%1 = %2").arg(
                it.key(), pv != r.params.end() ? QString::fromStdString(toString(pv->second))
                                               : it.value().toVariant().toString());
        }
        if (!s.preset.isEmpty())
            changed.prepend(QStringLiteral("preset “%1”").arg(s.preset));
        h += QStringLiteral("<p class=\"caption\">Changes in this step: %1; seed %2</p>")
                 .arg(esc(changed.isEmpty() ? QStringLiteral("none") : changed.join(QStringLiteral(", "))))
                 .arg(r.seed);
        const QString fid = figureOfStep(i);
        if (fid.isEmpty())
            continue;
        gui::FigureSpec spec;
        try {
            spec = m_plugin.buildFigure(fid, r);
        } catch (const std::exception& e) {
            return fail(QStringLiteral("tour step %1, figure '%2': %3").arg(i + 1).arg(fid, e.what()));
        }
        const FigureInfo* fi = m_info.figure(fid);
        QString err;
        const QString section =
            report::figureSection(spec, spec.title.isEmpty() ? (fi ? fi->title : fid) : spec.title, embedSvg,
                                  QString::number(i), &err);
        if (section.isEmpty())
            return fail(err);
        h += section;
    }
    h += QStringLiteral(
             "<h2>Provenance</h2><p class=\"prov\">Paperlab %1 (commit %2); panel %3 %4; tour '%5'; "
             "written %6 UTC. Every figure was computed by the engine with the step's parameters.</p>")
             .arg(paperlabVersion(), paperlabCommit(), esc(m_info.id), esc(m_info.version), esc(m_tour.name),
                  QDateTime::currentDateTimeUtc().toString(Qt::ISODate));
    h += QStringLiteral("</body></html>\n");
    return h;
}

bool TourReportWriter::writeHtml(const QString& path, QString* error) const {
    const QString text = html(true, error);
    return !text.isEmpty() && report::writeTextFile(path, text, error);
}

bool TourReportWriter::writePdf(const QString& path, QString* error) const {
    const QString text = html(false, error);
    if (text.isEmpty())
        return false;
    QTextDocument doc;
    const qreal dpr = std::max<qreal>(1.0, m_dpi / 96.0);
    for (int i = 0; i < m_tour.steps.size(); ++i) {
        const QString fid = figureOfStep(i);
        if (fid.isEmpty())
            continue;
        const gui::FigureSpec spec = m_plugin.buildFigure(fid, m_results.at(size_t(i)));
        const QImage img =
            gui::FigureExporter::renderToImage(spec, QSize(620, 400), dpr, gui::Theme::light());
        doc.addResource(QTextDocument::ImageResource, QUrl(QStringLiteral("fig:%1").arg(i)), img);
    }
    doc.setHtml(text);
    return writePdfDocument(doc, path, m_tour.title + QStringLiteral(" — Paperlab tour"), error);
}

} // namespace pl
