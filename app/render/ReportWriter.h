#pragma once
/// Writes a panel's report: its summary in our own words, parameters, seed, inputs, metrics,
/// the claims table with verdicts, every figure and provenance. HTML is self-contained
/// (figures embedded as SVG); PDF is paginated A4 with raster figures. Files are written
/// atomically. Main thread (figures are rendered with QPainter).

#include "core/ResultDocument.h"
#include "sdk/PluginInfo.h"

#include <QString>

namespace pl {

class IPaperPlugin;

class ReportWriter {
public:
    /// References must outlive the writer. dpi applies to raster figures in the PDF.
    ReportWriter(const PluginInfo& info, const IPaperPlugin& plugin, const ResultDocument& result,
                 int dpi = 150);

    bool writeHtml(const QString& path, QString* error) const;
    bool writePdf(const QString& path, QString* error) const;
    /// The HTML text; with embedSvg = false figures are <img src="fig:ID"> references
    /// (used for the PDF, where they are added as image resources).
    QString html(bool embedSvg, QString* error) const;

private:
    QString summaryHtml() const;
    const PluginInfo& m_info;
    const IPaperPlugin& m_plugin;
    const ResultDocument& m_result;
    int m_dpi;
};

} // namespace pl
