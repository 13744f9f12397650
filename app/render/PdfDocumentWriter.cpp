#include "PdfDocumentWriter.h"

#include "sdk/Version.h"
#include "widgets/FigureExporter.h"

#include <QUrl>
#include <algorithm>

#include <QPageLayout>
#include <QPdfWriter>
#include <QSaveFile>
#include <QTextDocument>

namespace pl {

bool writePdfDocument(QTextDocument& doc, const QString& path, const QString& title, QString* error) {
    QSaveFile out(path);
    if (!out.open(QIODevice::WriteOnly)) {
        if (error)
            *error = QStringLiteral("cannot write %1: %2").arg(path, out.errorString());
        return false;
    }
    {
        QPdfWriter pdf(&out);
        pdf.setPageSize(QPageSize(QPageSize::A4));
        pdf.setPageMargins(QMarginsF(15, 15, 15, 15), QPageLayout::Millimeter);
        pdf.setResolution(96);
        pdf.setTitle(title);
        pdf.setCreator(QStringLiteral("Paperlab ") + paperlabVersion());
        doc.setPageSize(pdf.pageLayout().paintRectPixels(pdf.resolution()).size());
        doc.print(&pdf);
    }
    if (!out.commit()) {
        if (error)
            *error = QStringLiteral("cannot write %1: %2").arg(path, out.errorString());
        return false;
    }
    return true;
}

} // namespace pl

namespace pl {

bool writeReportPdf(const QString& html, const QVector<gui::FigureSpec>& figures, int dpi,
                    const QString& title, const QString& path, QString* error) {
    QTextDocument doc;
    const qreal dpr = std::max<qreal>(1.0, dpi / 96.0);
    for (int i = 0; i < figures.size(); ++i)
        doc.addResource(
            QTextDocument::ImageResource, QUrl(QStringLiteral("fig:%1").arg(i)),
            gui::FigureExporter::renderToImage(figures[i], QSize(620, 400), dpr, gui::Theme::light()));
    doc.setHtml(html);
    return writePdfDocument(doc, path, title, error);
}

} // namespace pl
