#pragma once
/// The robustness report of a finished sweep (`paperlab report PANEL --sweep DIR`): what was
/// swept, every claim's fraction of runs holding with its 95% Wilson interval (overall and per
/// cell), and the sweep figures (app/sdk/SweepFigures). HTML with inline SVG, PDF through
/// QTextDocument. References must outlive the writer. Main thread.

#include "sdk/SweepResults.h"
#include "sdk/figure/FigureSpec.h"

#include <QVector>

namespace pl {

struct PluginInfo;

class SweepReportWriter {
public:
    SweepReportWriter(const PluginInfo& info, const SweepResults& sweep,
                      const QVector<gui::FigureSpec>& figures, int dpi = 150);
    bool writeHtml(const QString& path, QString* error) const;
    bool writePdf(const QString& path, QString* error) const;
    /// The HTML; with embedSvg = false figures are <img src="fig:N"> references (for the PDF).
    QString html(bool embedSvg, QString* error) const;

private:
    QString claimsTable() const;
    const PluginInfo& m_info;
    const SweepResults& m_sweep;
    const QVector<gui::FigureSpec>& m_figures;
    int m_dpi;
};

} // namespace pl
