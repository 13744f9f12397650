#pragma once
/// The single paint path behind every figure output: screen snapshots, PNG (chosen DPI), SVG,
/// PDF, clipboard and report thumbnails all call paint(). Charts are built fresh for each paint
/// (no animations, no OpenGL series) in a private QGraphicsScene, so it works headless under
/// QT_QPA_PLATFORM=offscreen. Never shows UI: errors come back as bool + message.
/// Needs a QApplication; GUI thread.

#include "sdk/figure/FigureSpec.h"
#include "widgets/Theme.h"

#include <QByteArray>
#include <QImage>
#include <QRectF>
#include <QSizeF>

class QPainter;

namespace pl::gui {

struct ExportOptions {
    double dpi = 300;             ///< PNG pixel density and PDF resolution (dots per inch)
    QSizeF sizeInches{7.0, 4.5};  ///< physical figure size
    Theme theme = Theme::light(); ///< publication default: light background
    QString title;                ///< SVG/PDF metadata title; empty = spec.title
    QString creator = QStringLiteral("Paperlab");
};

class FigureExporter {
public:
    /// Figure file suffixes exportFile() understands: png, svg, pdf.
    static QStringList figureSuffixes();
    /// Data file suffixes exportDataFile() understands: csv, json.
    static QStringList dataSuffixes();

    /// Paints \a spec into \a rect, whose units are logical pixels (1/96 inch); scale the
    /// painter for denser devices. Graphs are laid out by GraphLayoutProvider (cached, same
    /// picture as GraphView); 3D scenes are rendered offscreen through SceneRendererRegistry at the
    /// device's resolution and drawn as an image under a vector title. Returns false (and paints a
    /// short message) for unusable data, or a 3D scene without OpenGL / X server / registered
    /// renderer.
    static bool paint(const FigureSpec& spec, QPainter* painter, const QRectF& rect, const Theme& theme);

    /// Writes \a path (format from its suffix: png, svg or pdf) atomically: the file appears
    /// complete or not at all. On failure returns false and sets *error (if given); a 3D figure
    /// that cannot be rendered (no X server: "needs an X server ...") is such a failure.
    static bool exportFile(const FigureSpec& spec, const QString& path, const ExportOptions& options = {},
                           QString* error = nullptr);
    /// The bytes exportFile() would write for \a format ("png", "svg", "pdf"); empty on failure.
    static QByteArray render(const FigureSpec& spec, const QString& format, const ExportOptions& options = {},
                             QString* error = nullptr);
    /// Several figures on one page (a layout composite: replay of a session's split figure area),
    /// row-major in a \a rows x \a cols grid of equal cells over options.sizeInches; format as
    /// render(). Empty with *error when a figure fails or the figures do not fit the grid.
    static QByteArray renderGrid(const QVector<FigureSpec>& specs, int rows, int cols, const QString& format,
                                 const ExportOptions& options = {}, QString* error = nullptr);
    /// Writes renderGrid() to \a path (format from its suffix) atomically.
    static bool exportGridFile(const QVector<FigureSpec>& specs, int rows, int cols, const QString& path,
                               const ExportOptions& options = {}, QString* error = nullptr);
    /// A figure of \a sizePx logical pixels at device pixel ratio \a dpr (image is sizePx * dpr
    /// device pixels, devicePixelRatio set). For thumbnails, reports and screenshots.
    static QImage renderToImage(const FigureSpec& spec, QSize sizePx, qreal dpr, const Theme& theme);

    /// Data behind the figure as CSV (UTF-8, RFC 4180 quoting). Charts: header "series,x,y" and
    /// one row per point (plus a "category" column when the chart has categories); heatmaps:
    /// a matrix whose first row holds the column labels and first column the row labels.
    /// Graphs and 3D scenes: see FigureCsv (one row per node / edge, per sphere / point / vertex).
    /// Numbers round-trip exactly; non-finite values are written as NaN / inf / -inf.
    static QByteArray exportCsv(const FigureSpec& spec);
    /// Data and description of the figure as indented JSON (FigureSpecJson::toJson()); graphs
    /// also get "graph.positions", the drawn layout ([x, y] per node).
    static QByteArray exportJson(const FigureSpec& spec);
    /// Writes exportCsv() or exportJson() (from the suffix) atomically.
    static bool exportDataFile(const FigureSpec& spec, const QString& path, QString* error = nullptr);

    /// Writes \a bytes to \a path through QSaveFile (no partial file on failure).
    static bool writeAtomically(const QString& path, const QByteArray& bytes, QString* error = nullptr);
};

} // namespace pl::gui
