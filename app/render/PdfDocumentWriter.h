#pragma once
/// Prints a laid-out QTextDocument to an A4 PDF file atomically (QSaveFile): either the whole
/// new file or the previous one stays. Shared by the panel report and the tour handout.
/// Main thread.

#include <QString>

class QTextDocument;

namespace pl {

/// Lays `doc` out in CSS pixels (96 per inch, 15 mm margins) so fonts and figure widths match the
/// HTML reports, and writes it to `path`. Returns false and sets *error on failure.
bool writePdfDocument(QTextDocument& doc, const QString& path, const QString& title, QString* error);

} // namespace pl

#include "sdk/figure/FigureSpec.h"

#include <QVector>

namespace pl {

/// A report whose HTML refers to its figures as <img src="fig:N"> (N = index in `figures`): the
/// figures are painted (light theme, 620 x 400 CSS px at `dpi`), the HTML laid out and printed by
/// writePdfDocument.
bool writeReportPdf(const QString& html, const QVector<gui::FigureSpec>& figures, int dpi,
                    const QString& title, const QString& path, QString* error);

} // namespace pl
