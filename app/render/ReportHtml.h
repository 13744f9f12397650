#pragma once
/// Pieces shared by the HTML/PDF report writers (panel report, tour handout, sweep report):
/// escaping, number format, the style sheet, a figure as inline SVG, and the atomic HTML write.
/// Main thread (figures are painted).

#include "sdk/figure/FigureSpec.h"

#include <QString>
#include <string>

namespace pl::report {

QString esc(const QString& s);
QString esc(const std::string& s);
/// Integers without decimals, NaN as "n/a", else 6 significant digits.
QString fmt(double v);
/// `<style>` with resources/report/report.css (compiled into paperlab_sdk).
QString styleSheet();
/// The figure as an inline `<div class="figure"><svg…></div>` (96 dpi); empty with *error set when
/// it cannot be drawn.
QString inlineSvg(const gui::FigureSpec& spec, QString* error);
/// One figure of a report: `<h3>title</h3>`, the figure (inline SVG when `embedSvg`, else
/// `<img src="fig:<imageKey>">`, the key under which the PDF writer adds the rendered image) and
/// its caption. Empty with *error set when the SVG cannot be drawn.
QString figureSection(const gui::FigureSpec& spec, const QString& title, bool embedSvg,
                      const QString& imageKey, QString* error);
/// Writes UTF-8 text atomically (QSaveFile); false with *error on failure.
bool writeTextFile(const QString& path, const QString& text, QString* error);

} // namespace pl::report
