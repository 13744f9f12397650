#include "CompareReportWriter.h"

#include "PdfDocumentWriter.h"
#include "ReportHtml.h"
#include "sdk/PluginInfo.h"
#include "sdk/RunComparison.h"
#include "sdk/Version.h"
#include "widgets/FigureExporter.h"

#include <QDateTime>
#include <QTextDocument>

#include <algorithm>
#include <cmath>
#include <set>

namespace pl {

using report::esc;
using report::fmt;

CompareReportWriter::CompareReportWriter(const PluginInfo& info, const ResultDocument& a,
                                         const ResultDocument& b, const QVector<gui::FigureSpec>& figures,
                                         int dpi)
    : m_info(info), m_a(a), m_b(b), m_figures(figures), m_dpi(dpi) {}

QString CompareReportWriter::parameterTable() const {
    const std::vector<ParamDifference> diff = parameterDifferences(m_a, m_b);
    if (diff.empty())
        return QStringLiteral("<p>A and B were run with the same parameters and seed.</p>");
    QString h = QStringLiteral("<table><tr><th>parameter</th><th>A</th><th>B</th></tr>");
    for (const ParamDifference& d : diff)
        h += QStringLiteral("<tr><td>%1</td><td>%2</td><td>%3</td></tr>").arg(esc(d.key), esc(d.a), esc(d.b));
    return h + QStringLiteral("</table>");
}

QString CompareReportWriter::metricsTable() const {
    std::set<std::string> keys;
    for (const auto& [k, v] : m_a.metrics)
        keys.insert(k);
    for (const auto& [k, v] : m_b.metrics)
        keys.insert(k);
    const double nan = std::nan("");
    QString h = QStringLiteral("<table><tr><th>metric</th><th>A</th><th>B</th><th>B − A</th></tr>");
    for (const std::string& k : keys) {
        const double a = m_a.metrics.count(k) ? m_a.metrics.at(k) : nan;
        const double b = m_b.metrics.count(k) ? m_b.metrics.at(k) : nan;
        h += QStringLiteral("<tr><td>%1</td><td>%2</td><td>%3</td><td>%4</td></tr>")
                 .arg(esc(k), fmt(a), fmt(b), fmt(b - a));
    }
    return h + QStringLiteral("</table>");
}

QString CompareReportWriter::claimsTable() const {
    std::vector<std::string> ids;
    for (const auto* d : {&m_a, &m_b})
        for (const Claim& c : d->claims)
            if (std::find(ids.begin(), ids.end(), c.id) == ids.end())
                ids.push_back(c.id);
    auto verdict = [](const ResultDocument& d, const std::string& id) {
        for (const Claim& c : d.claims)
            if (c.id == id)
                return QStringLiteral("%1 (%2)").arg(
                    c.holds ? QStringLiteral("holds") : QStringLiteral("fails"), fmt(c.observed));
        return QStringLiteral("—");
    };
    QString h = QStringLiteral("<table><tr><th>claim</th><th>A</th><th>B</th></tr>");
    for (const std::string& id : ids)
        h += QStringLiteral("<tr><td>%1</td><td>%2</td><td>%3</td></tr>")
                 .arg(esc(id), verdict(m_a, id), verdict(m_b, id));
    return h + QStringLiteral("</table>");
}

QString CompareReportWriter::html(bool embedSvg, QString* error) const {
    QString h = QStringLiteral("<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>%1 — Paperlab A/B "
                               "comparison</title>%2</head><body>")
                    .arg(esc(m_info.title), report::styleSheet());
    h += QStringLiteral("<h1>%1: run A against run B</h1><p><i>%2</i></p>")
             .arg(esc(m_info.title), esc(m_info.paper));
    h += QStringLiteral("<h2>What differs</h2>") + parameterTable();
    h += QStringLiteral("<h2>Metrics</h2>") + metricsTable();
    h += QStringLiteral("<h2>Claims</h2>") + claimsTable();
    h += QStringLiteral("<h2>Figures</h2>");
    for (int i = 0; i < m_figures.size(); ++i) {
        const QString section =
            report::figureSection(m_figures[i], m_figures[i].title, embedSvg, QString::number(i), error);
        if (section.isEmpty())
            return {};
        h += section;
    }
    h += QStringLiteral("<h2>Provenance</h2><p class=\"prov\">Paperlab %1 (commit %2); panel %3 %4; A and B "
                        "computed by paperlab %5 and %6; written %7 UTC.</p>")
             .arg(paperlabVersion(), paperlabCommit(), esc(m_info.id), esc(m_info.version),
                  esc(m_a.paperlabVersion), esc(m_b.paperlabVersion),
                  QDateTime::currentDateTimeUtc().toString(Qt::ISODate));
    return h + QStringLiteral("</body></html>\n");
}

bool CompareReportWriter::writeHtml(const QString& path, QString* error) const {
    const QString text = html(true, error);
    return !text.isEmpty() && report::writeTextFile(path, text, error);
}

bool CompareReportWriter::writePdf(const QString& path, QString* error) const {
    const QString text = html(false, error);
    return !text.isEmpty() &&
           writeReportPdf(text, m_figures, m_dpi, m_info.title + QStringLiteral(" — Paperlab A/B comparison"),
                          path, error);
}

} // namespace pl
