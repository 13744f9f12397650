#include "SweepReportWriter.h"

#include "PdfDocumentWriter.h"
#include "ReportHtml.h"
#include "sdk/ClaimRobustness.h"
#include "sdk/PluginInfo.h"
#include "sdk/Version.h"
#include "widgets/FigureExporter.h"

#include <QDateTime>
#include <QTextDocument>
#include <algorithm>

namespace pl {

using report::esc;
using report::fmt;

SweepReportWriter::SweepReportWriter(const PluginInfo& info, const SweepResults& sweep,
                                     const QVector<gui::FigureSpec>& figures, int dpi)
    : m_info(info), m_sweep(sweep), m_figures(figures), m_dpi(dpi) {}

QString SweepReportWriter::claimsTable() const {
    std::vector<const ResultDocument*> all;
    for (const ResultDocument& d : m_sweep.docs)
        all.push_back(&d);
    QString h = QStringLiteral("<table><tr><th>claim</th><th>holds</th><th>fraction (95% Wilson)</th>"
                               "<th>observed min / median / max</th><th>threshold</th></tr>");
    for (const ClaimTally& t : tallyClaims(all))
        h += QStringLiteral("<tr><td>%1<br><span class=\"caption\">%2</span></td><td>%3 of %4</td>"
                            "<td>%5 [%6, %7]</td><td>%8 / %9 / %10</td><td>%11</td></tr>")
                 .arg(esc(t.id), esc(t.statement))
                 .arg(t.holds)
                 .arg(t.runs)
                 .arg(fmt(t.fraction()), QString::number(t.interval.lo, 'f', 3),
                      QString::number(t.interval.hi, 'f', 3), fmt(t.observedMin), fmt(t.observedMedian),
                      fmt(t.observedMax), fmt(t.threshold));
    return h + QStringLiteral("</table>");
}

QString SweepReportWriter::html(bool embedSvg, QString* error) const {
    QString h =
        QStringLiteral("<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>%1 — Paperlab robustness "
                       "report</title>%2</head><body>")
            .arg(esc(m_info.title), report::styleSheet());
    h += QStringLiteral("<h1>%1: how often the claims hold</h1><p><i>%2</i></p>")
             .arg(esc(m_info.title), esc(m_info.paper));
    QStringList axes;
    for (const SweepAxis& a : m_sweep.plan.axes()) {
        QStringList v;
        for (const std::string& x : a.values)
            v << QString::fromStdString(x);
        axes << QStringLiteral("<b>%1</b> ∈ {%2}").arg(esc(a.key), esc(v.join(QStringLiteral(", "))));
    }
    const auto& seeds = m_sweep.plan.seeds();
    h += QStringLiteral("<p>%1 runs: %2 seeds (%3 … %4) %5.</p>")
             .arg(m_sweep.runs.size())
             .arg(seeds.size())
             .arg(seeds.front())
             .arg(seeds.back())
             .arg(axes.isEmpty()
                      ? QStringLiteral("at the panel's parameters")
                      : QStringLiteral("in each cell of the grid ") + axes.join(QStringLiteral(" × ")));
    h += QStringLiteral("<h2>Claims over all runs</h2>") + claimsTable();
    h += QStringLiteral("<h2>Figures</h2>");
    for (int i = 0; i < m_figures.size(); ++i) {
        const QString section =
            report::figureSection(m_figures[i], m_figures[i].title, embedSvg, QString::number(i), error);
        if (section.isEmpty())
            return {};
        h += section;
    }
    h += QStringLiteral(
             "<h2>Provenance</h2><p class=\"prov\">Paperlab %1 (commit %2); panel %3 %4; sweep %5; "
             "written %6 UTC. Every number was computed by the engine, one run per cell and seed.</p>")
             .arg(paperlabVersion(), paperlabCommit(), esc(m_info.id), esc(m_info.version), esc(m_sweep.dir),
                  QDateTime::currentDateTimeUtc().toString(Qt::ISODate));
    return h + QStringLiteral("</body></html>\n");
}

bool SweepReportWriter::writeHtml(const QString& path, QString* error) const {
    const QString text = html(true, error);
    return !text.isEmpty() && report::writeTextFile(path, text, error);
}

bool SweepReportWriter::writePdf(const QString& path, QString* error) const {
    const QString text = html(false, error);
    return !text.isEmpty() &&
           writeReportPdf(text, m_figures, m_dpi,
                          m_info.title + QStringLiteral(" — Paperlab robustness report"), path, error);
}

} // namespace pl
