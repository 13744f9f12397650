#pragma once
/// Writes a tour handout: the panel and tour titles, then for each step its caption, the
/// parameters that differ from the defaults and the step's figure computed with that step's
/// parameters. HTML is self-contained (SVG figures); PDF is A4 with raster figures. Atomic
/// writes. Main thread (figures are painted with QPainter).

#include "core/ResultDocument.h"
#include "sdk/PluginInfo.h"
#include "sdk/Tour.h"

#include <QString>
#include <vector>

namespace pl {

class IPaperPlugin;

class TourReportWriter {
public:
    /// `results[i]` is the result of step i. References must outlive the writer.
    TourReportWriter(const PluginInfo& info, const IPaperPlugin& plugin, const Tour& tour,
                     const std::vector<ResultDocument>& results, int dpi = 150);

    bool writeHtml(const QString& path, QString* error) const;
    bool writePdf(const QString& path, QString* error) const;
    /// With embedSvg = false figures are <img src="fig:N"> references (PDF).
    QString html(bool embedSvg, QString* error) const;
    /// The figure shown for step i: its own, else the latest earlier one, else the first figure.
    QString figureOfStep(int i) const;

private:
    const PluginInfo& m_info;
    const IPaperPlugin& m_plugin;
    const Tour& m_tour;
    const std::vector<ResultDocument>& m_results;
    int m_dpi;
};

} // namespace pl
