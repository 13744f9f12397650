#include "ReportWriter.h"

#include "PdfDocumentWriter.h"
#include "ReportHtml.h"
#include "sdk/PaperPlugin.h"
#include "sdk/Version.h"
#include "widgets/FigureExporter.h"

#include <QDateTime>
#include <QFile>
#include <QPainter>
#include <QSaveFile>
#include <QTextDocument>
#include <cmath>

namespace pl {

using report::esc;
using report::fmt;
using report::styleSheet;

ReportWriter::ReportWriter(const PluginInfo& info, const IPaperPlugin& plugin, const ResultDocument& result,
                           int dpi)
    : m_info(info), m_plugin(plugin), m_result(result), m_dpi(dpi) {}

QString ReportWriter::summaryHtml() const {
    // The summary is the help page up to its second section: the idea in our own words.
    const QString md = m_plugin.helpMarkdown();
    QStringList keep;
    int headings = 0;
    for (const QString& line : md.split(QLatin1Char('\n'))) {
        if (line.startsWith(QLatin1String("## ")) && ++headings > 1)
            break;
        if (line.startsWith(QLatin1String("# ")))
            continue; // the report has its own title
        keep << line;
    }
    QTextDocument doc;
    doc.setMarkdown(keep.join(QLatin1Char('\n')));
    QString html = doc.toHtml();
    const int b = html.indexOf(QLatin1String("<body"));
    const int bs = html.indexOf(QLatin1Char('>'), b) + 1;
    const int be = html.lastIndexOf(QLatin1String("</body>"));
    return (b >= 0 && be > bs) ? html.mid(bs, be - bs) : html;
}

QString ReportWriter::html(bool embedSvg, QString* error) const {
    QString h;
    h += QStringLiteral("<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>%1 — Paperlab "
                        "report</title>%2</head><body>")
             .arg(esc(m_info.title), styleSheet());
    h += QStringLiteral("<h1>%1</h1><p><i>%2</i></p><p>%3</p>")
             .arg(esc(m_info.title), esc(m_info.paper), esc(m_info.idea));
    h += QStringLiteral("<h2>Summary</h2>") + summaryHtml();

    h += QStringLiteral("<h2>Parameters</h2><table><tr><th>parameter</th><th>value</th></tr>");
    for (const auto& [k, v] : m_result.params)
        h += QStringLiteral("<tr><td>%1</td><td>%2</td></tr>").arg(esc(k), esc(toString(v)));
    h += QStringLiteral("<tr><td>seed</td><td>%1</td></tr></table>").arg(m_result.seed);
    if (!m_result.inputs.empty()) {
        h += QStringLiteral("<h2>Inputs</h2><table><tr><th>file</th><th>sha256</th></tr>");
        for (const auto& in : m_result.inputs)
            h += QStringLiteral("<tr><td>%1</td><td><code>%2</code></td></tr>")
                     .arg(esc(in.path), esc(in.sha256));
        h += QStringLiteral("</table>");
    }

    h += QStringLiteral(
        "<h2>Claims checked on this "
        "run</h2><table><tr><th>claim</th><th>observed</th><th>threshold</th><th>verdict</th></tr>");
    for (const auto& c : m_result.claims) {
        h += QStringLiteral("<tr><td>%1<br><span class=\"caption\">%2</span></td><td>%3</td><td>%4</td><td "
                            "class=\"%5\">%6</td></tr>")
                 .arg(esc(c.statement), esc(c.detail), fmt(c.observed), fmt(c.threshold),
                      c.holds ? QStringLiteral("holds") : QStringLiteral("fails"),
                      c.holds ? QStringLiteral("holds") : QStringLiteral("does not hold"));
    }
    h += QStringLiteral("</table>");

    h += QStringLiteral("<h2>Metrics</h2><table><tr><th>metric</th><th>value</th></tr>");
    for (const auto& [k, v] : m_result.metrics)
        h += QStringLiteral("<tr><td>%1</td><td>%2</td></tr>").arg(esc(k), fmt(v));
    h += QStringLiteral("</table>");
    if (!m_result.notes.empty()) {
        h += QStringLiteral("<h2>Notes</h2><ul>");
        for (const auto& n : m_result.notes)
            h += QStringLiteral("<li>%1</li>").arg(esc(n));
        h += QStringLiteral("</ul>");
    }

    h += QStringLiteral("<h2>Figures</h2>");
    for (const auto& f : m_info.figures) {
        gui::FigureSpec spec;
        try {
            spec = m_plugin.buildFigure(f.id, m_result);
        } catch (const std::exception& e) {
            if (error)
                *error = QStringLiteral("figure '%1': %2").arg(f.id, e.what());
            return {};
        }
        const QString section =
            report::figureSection(spec, spec.title.isEmpty() ? f.title : spec.title, embedSvg, f.id, error);
        if (section.isEmpty())
            return {};
        h += section;
    }

    h += QStringLiteral(
             "<h2>Provenance</h2><p class=\"prov\">Paperlab %1 (commit %2); %3; panel %4 %5; computed in %6 "
             "ms; "
             "report written %7 UTC. Every number above was computed by the engine for this run.</p>")
             .arg(paperlabVersion(), paperlabCommit(), esc(libraryVersions()), esc(m_info.id),
                  esc(m_info.version), fmt(m_result.elapsedMs),
                  QDateTime::currentDateTimeUtc().toString(Qt::ISODate));
    h += QStringLiteral("</body></html>\n");
    return h;
}

bool ReportWriter::writeHtml(const QString& path, QString* error) const {
    const QString text = html(true, error);
    return !text.isEmpty() && report::writeTextFile(path, text, error);
}

bool ReportWriter::writePdf(const QString& path, QString* error) const {
    const QString text = html(false, error);
    if (text.isEmpty())
        return false;
    QTextDocument doc;
    for (const auto& f : m_info.figures) {
        const gui::FigureSpec spec = m_plugin.buildFigure(f.id, m_result);
        // 620x400 CSS pixels on the page, rendered at the report's raster resolution.
        const qreal dpr = std::max<qreal>(1.0, m_dpi / 96.0);
        const QImage img =
            gui::FigureExporter::renderToImage(spec, QSize(620, 400), dpr, gui::Theme::light());
        doc.addResource(QTextDocument::ImageResource, QUrl(QStringLiteral("fig:") + f.id), img);
    }
    doc.setHtml(text);
    return writePdfDocument(doc, path, m_info.title + QStringLiteral(" — Paperlab report"), error);
}

} // namespace pl
