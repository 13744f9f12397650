#pragma once
/// The A/B comparison report of two results of one panel (`paperlab report PANEL --compare A.json
/// B.json`): the parameters that differ, every metric of A and B with B − A, every claim's verdict
/// in A and in B, and the compared figures (app/sdk/RunComparison). HTML with inline SVG, PDF
/// through QTextDocument. References must outlive the writer. Main thread.

#include "core/ResultDocument.h"
#include "sdk/figure/FigureSpec.h"

#include <QVector>

namespace pl {

struct PluginInfo;

class CompareReportWriter {
public:
    CompareReportWriter(const PluginInfo& info, const ResultDocument& a, const ResultDocument& b,
                        const QVector<gui::FigureSpec>& figures, int dpi = 150);
    bool writeHtml(const QString& path, QString* error) const;
    bool writePdf(const QString& path, QString* error) const;
    /// The HTML; with embedSvg = false figures are <img src="fig:N"> references (for the PDF).
    QString html(bool embedSvg, QString* error) const;

private:
    QString parameterTable() const;
    QString metricsTable() const;
    QString claimsTable() const;
    const PluginInfo& m_info;
    const ResultDocument& m_a;
    const ResultDocument& m_b;
    const QVector<gui::FigureSpec>& m_figures;
    int m_dpi;
};

} // namespace pl
