#include "FigureExporter.h"

#include "ChartBuilder.h"
#include "FigureCsv.h"
#include "GraphLayoutProvider.h"
#include "GraphPainter.h"
#include "HeatmapImage.h"
#include "HeatmapPainter.h"
#include "NiceScale.h"
#include "SceneRendererRegistry.h"
#include "sdk/figure/FigureSpecJson.h"

#include <QBuffer>
#include <QChart>
#include <QCoreApplication>
#include <QFileInfo>
#include <QFontMetricsF>
#include <QGraphicsLayout>
#include <QGraphicsScene>
#include <QJsonArray>
#include <QJsonDocument>
#include <QPageSize>
#include <QPaintEngine>
#include <QPainter>
#include <QPdfWriter>
#include <QSaveFile>
#include <QSvgGenerator>
#include <QSvgRenderer>

#include <cmath>
#include <functional>
#include <memory>

namespace pl::gui {

namespace {

constexpr double kLogicalDpi = 96.0;

bool setError(QString* error, const QString& message) {
    if (error)
        *error = message;
    return false;
}

QString csvField(const QString& s) {
    if (s.contains(QLatin1Char(',')) || s.contains(QLatin1Char('"')) || s.contains(QLatin1Char('\n')) ||
        s.contains(QLatin1Char('\r'))) {
        QString q = s;
        q.replace(QLatin1String("\""), QLatin1String("\"\""));
        return QLatin1Char('"') + q + QLatin1Char('"');
    }
    return s;
}

void paintMessage(QPainter* p, const QRectF& rect, const Theme& theme, const QString& text) {
    p->save();
    p->fillRect(rect, theme.chartBackground);
    p->setPen(theme.mutedText);
    p->setFont(theme.font(Theme::FontRole::AxisTitle));
    p->drawText(rect.adjusted(8, 8, -8, -8), Qt::AlignCenter | Qt::TextWordWrap, text);
    p->restore();
}

/// Background and the title line; returns the area left below the title.
QRectF paintTitle(const FigureSpec& spec, QPainter* p, const QRectF& rect, const Theme& theme) {
    p->fillRect(rect, theme.chartBackground);
    QRectF area = rect.adjusted(8, 8, -8, -8);
    if (!spec.title.isEmpty()) {
        const QFont f = theme.font(Theme::FontRole::Title);
        const double h = QFontMetricsF(f).height() + 4;
        p->setFont(f);
        p->setPen(theme.chartText);
        p->drawText(QRectF(area.left(), area.top(), area.width(), h), Qt::AlignCenter, spec.title);
        area.setTop(area.top() + h + 4);
    }
    return area;
}

bool paintChart(const FigureSpec& spec, QPainter* p, const QRectF& rect, const Theme& theme) {
    const QSizeF size = rect.size();
    QGraphicsScene scene;
    // Rough plot-area estimate for decimation; the real one is known after layout.
    const QSize plotPx(std::max(100, int(size.width()) - 90), std::max(60, int(size.height()) - 110));
    QChart* chart = ChartBuilder::build(spec, theme, plotPx);
    scene.addItem(chart); // the scene owns the chart
    chart->setGeometry(QRectF(QPointF(0, 0), size));
    if (chart->layout())
        chart->layout()->activate();
    QCoreApplication::sendPostedEvents(chart, QEvent::LayoutRequest);
    ChartBuilder::updatePlotSize(chart, chart->plotArea().size().toSize());
    ChartBuilder::layoutAnnotations(chart);
    scene.setSceneRect(QRectF(QPointF(0, 0), size));
    p->save();
    p->setRenderHint(QPainter::Antialiasing, true);
    p->setRenderHint(QPainter::TextAntialiasing, true);
    scene.render(p, rect, QRectF(QPointF(0, 0), size), Qt::IgnoreAspectRatio);
    p->restore();
    return true;
}

bool paintGraph(const FigureSpec& spec, QPainter* p, const QRectF& rect, const Theme& theme) {
    GraphPainter::Options o;
    o.title = spec.title;
    return GraphPainter::paint(p, rect, spec.graph, GraphLayoutProvider::compute(spec.graph), theme, o);
}

/// 3D: the title as text (vector in SVG/PDF), the scene as an image rendered offscreen by VTK at
/// the device's resolution (at least 2x logical for vector devices, at most 4096 px a side).
bool paintScene(const FigureSpec& spec, QPainter* p, const QRectF& rect, const Theme& theme, QString* error) {
    p->save();
    const QRectF area = paintTitle(spec, p, rect, theme);
    if (!spec.scene.message.isEmpty()) {
        p->restore();
        paintMessage(p, area, theme, spec.scene.message);
        return true;
    }
    const QPaintEngine* engine = p->paintEngine();
    const bool vector =
        engine && (engine->type() == QPaintEngine::SVG || engine->type() == QPaintEngine::Pdf ||
                   engine->type() == QPaintEngine::Picture);
    const QTransform dt = p->deviceTransform();
    double scale = std::sqrt(std::fabs(dt.determinant()));
    if (vector)
        scale = std::max(scale, 2.0);
    scale = std::clamp(scale, 1.0, 4096.0 / std::max({area.width(), area.height(), 1.0}));
    const QSize px(std::max(16, qRound(area.width() * scale)), std::max(16, qRound(area.height() * scale)));
    QString why;
    const QImage img = SceneRendererRegistry::render(spec.scene, px, scale, theme, &why);
    if (img.isNull()) {
        if (error)
            *error = why;
        p->restore();
        paintMessage(p, area, theme, why);
        return false;
    }
    p->setRenderHint(QPainter::SmoothPixmapTransform, true);
    p->drawImage(area, img);
    p->restore();
    return true;
}

bool paintFigure(const FigureSpec& spec, QPainter* painter, const QRectF& rect, const Theme& theme,
                 QString* error) {
    if (!painter || !painter->isActive() || rect.isEmpty())
        return false;
    if (!spec.message.isEmpty()) {
        painter->save();
        const QRectF area = paintTitle(spec, painter, rect, theme);
        painter->restore();
        paintMessage(painter, area, theme, spec.message);
        return true;
    }
    switch (spec.kind) {
    case FigureKind::Chart:
        return paintChart(spec, painter, rect, theme);
    case FigureKind::Heatmap: {
        const HeatmapImage image(spec.heatmap);
        HeatmapPainter::Options o;
        o.title = spec.title;
        return HeatmapPainter::paint(painter, rect, spec.heatmap, image, theme, o);
    }
    case FigureKind::Graph:
        return paintGraph(spec, painter, rect, theme);
    case FigureKind::Scene3D:
        return paintScene(spec, painter, rect, theme, error);
    }
    return false;
}

/// render() fails only where the picture itself could not be made (3D without OpenGL); other
/// kinds paint a message and still produce a file.
bool paintForFile(const FigureSpec& spec, QPainter* p, const QRectF& rect, const Theme& theme,
                  QString* error) {
    QString why;
    const bool ok = paintFigure(spec, p, rect, theme, &why);
    if (!ok && spec.kind == FigureKind::Scene3D) {
        setError(error, why.isEmpty() ? QStringLiteral("the 3D figure could not be rendered") : why);
        return false;
    }
    return true;
}

} // namespace

QStringList FigureExporter::figureSuffixes() {
    return {QStringLiteral("png"), QStringLiteral("svg"), QStringLiteral("pdf")};
}

QStringList FigureExporter::dataSuffixes() {
    return {QStringLiteral("csv"), QStringLiteral("json")};
}

bool FigureExporter::paint(const FigureSpec& spec, QPainter* painter, const QRectF& rect,
                           const Theme& theme) {
    return paintFigure(spec, painter, rect, theme, nullptr);
}

QImage FigureExporter::renderToImage(const FigureSpec& spec, QSize sizePx, qreal dpr, const Theme& theme) {
    if (sizePx.isEmpty() || !(dpr > 0))
        return QImage();
    QImage img(QSize(qRound(sizePx.width() * dpr), qRound(sizePx.height() * dpr)),
               QImage::Format_ARGB32_Premultiplied);
    if (img.isNull())
        return img;
    img.setDevicePixelRatio(dpr);
    img.fill(theme.chartBackground);
    QPainter p(&img);
    p.setRenderHint(QPainter::Antialiasing);
    p.setRenderHint(QPainter::TextAntialiasing);
    paint(spec, &p, QRectF(QPointF(0, 0), QSizeF(sizePx)), theme);
    p.end();
    return img;
}

namespace {

/// Paints one page of a file: the figure (or the grid of figures) into the logical rectangle.
using PagePainter = std::function<bool(QPainter*, const QRectF&, QString*)>;

/// The bytes of a PNG, SVG or PDF file of o.sizeInches whose content `paintPage` draws; shared by
/// single figures and layout composites. Empty with *error on failure.
QByteArray renderPage(const PagePainter& paintPage, const QString& title, const QString& description,
                      const QString& formatIn, const ExportOptions& o, QString* error) {
    const QString format = formatIn.toLower();
    if (!(o.dpi >= 10 && o.dpi <= 2400)) {
        setError(error, QStringLiteral("resolution %1 dpi is outside 10..2400").arg(o.dpi));
        return {};
    }
    if (!(o.sizeInches.width() > 0.2 && o.sizeInches.height() > 0.2 && o.sizeInches.width() <= 100 &&
          o.sizeInches.height() <= 100)) {
        setError(error, QStringLiteral("figure size %1 x %2 in is outside 0.2..100 in")
                            .arg(o.sizeInches.width())
                            .arg(o.sizeInches.height()));
        return {};
    }
    const QSizeF logical = o.sizeInches * kLogicalDpi;
    const QRectF rect(QPointF(0, 0), logical);
    QByteArray bytes;

    if (format == QLatin1String("png")) {
        const QSize px(qRound(o.sizeInches.width() * o.dpi), qRound(o.sizeInches.height() * o.dpi));
        if (double(px.width()) * px.height() > 400.0e6) {
            setError(error, QStringLiteral("%1 x %2 pixels is too large").arg(px.width()).arg(px.height()));
            return {};
        }
        QImage img(px, QImage::Format_ARGB32_Premultiplied);
        if (img.isNull()) {
            setError(error,
                     QStringLiteral("out of memory for a %1 x %2 image").arg(px.width()).arg(px.height()));
            return {};
        }
        img.fill(o.theme.chartBackground);
        QPainter p(&img);
        p.setRenderHint(QPainter::Antialiasing);
        p.setRenderHint(QPainter::TextAntialiasing);
        p.scale(o.dpi / kLogicalDpi, o.dpi / kLogicalDpi);
        if (!paintPage(&p, rect, error))
            return {};
        p.end();
        // Density metadata is set after painting so that fonts are laid out at logical size.
        const int dpm = qRound(o.dpi / 0.0254);
        img.setDotsPerMeterX(dpm);
        img.setDotsPerMeterY(dpm);
        img.setText(QStringLiteral("Title"), title);
        img.setText(QStringLiteral("Software"), o.creator);
        QBuffer buf(&bytes);
        buf.open(QIODevice::WriteOnly);
        if (!img.save(&buf, "PNG")) {
            setError(error, QStringLiteral("PNG encoding failed"));
            return {};
        }
        return bytes;
    }
    if (format == QLatin1String("svg")) {
        QBuffer buf(&bytes);
        buf.open(QIODevice::WriteOnly);
        QSvgGenerator gen;
        gen.setOutputDevice(&buf);
        gen.setSize(logical.toSize());
        gen.setViewBox(rect);
        gen.setResolution(int(kLogicalDpi));
        // Qt 6.4's QSvgGenerator writes <title> and <desc> verbatim (drawn text it escapes):
        // escape here, or a caption with '<' or '&' gives a malformed file.
        gen.setTitle(title.toHtmlEscaped());
        gen.setDescription(description.toHtmlEscaped());
        QPainter p;
        if (!p.begin(&gen)) { // QSvgGenerator itself reports nothing
            setError(error, QStringLiteral("cannot start the SVG painter"));
            return {};
        }
        p.setRenderHint(QPainter::Antialiasing);
        if (!paintPage(&p, rect, error))
            return {};
        p.end();
        buf.close();
        if (!QSvgRenderer(bytes).isValid()) {
            setError(error, QStringLiteral("the SVG generator produced an invalid document"));
            return {};
        }
        return bytes;
    }
    if (format == QLatin1String("pdf")) {
        QBuffer buf(&bytes);
        buf.open(QIODevice::WriteOnly);
        {
            QPdfWriter pdf(&buf);
            const QSizeF mm = o.sizeInches * 25.4;
            pdf.setPageSize(QPageSize(mm, QPageSize::Millimeter, QString(), QPageSize::ExactMatch));
            pdf.setPageMargins(QMarginsF(0, 0, 0, 0), QPageLayout::Millimeter);
            pdf.setResolution(int(std::lround(o.dpi)));
            pdf.setTitle(title);
            pdf.setCreator(o.creator);
            QPainter p;
            if (!p.begin(&pdf)) {
                setError(error, QStringLiteral("cannot start the PDF painter"));
                return {};
            }
            p.setRenderHint(QPainter::Antialiasing);
            const double s = double(pdf.resolution()) / kLogicalDpi;
            p.scale(s, s);
            if (!paintPage(&p, rect, error))
                return {};
            p.end();
        }
        buf.close();
        if (!bytes.startsWith("%PDF") || bytes.size() < 200) {
            setError(error, QStringLiteral("the PDF writer produced no document"));
            return {};
        }
        return bytes;
    }
    setError(error, QStringLiteral("unknown figure format '%1' (use png, svg or pdf)").arg(formatIn));
    return {};
}

} // namespace

QByteArray FigureExporter::render(const FigureSpec& spec, const QString& format, const ExportOptions& o,
                                  QString* error) {
    const auto page = [&](QPainter* p, const QRectF& rect, QString* why) {
        return paintForFile(spec, p, rect, o.theme, why);
    };
    return renderPage(page, o.title.isEmpty() ? spec.title : o.title, spec.caption, format, o, error);
}

QByteArray FigureExporter::renderGrid(const QVector<FigureSpec>& specs, int rows, int cols,
                                      const QString& format, const ExportOptions& o, QString* error) {
    if (rows < 1 || cols < 1 || rows * cols < specs.size() || specs.isEmpty()) {
        setError(
            error,
            QStringLiteral("%1 figures do not fit a %2 x %3 grid").arg(specs.size()).arg(rows).arg(cols));
        return {};
    }
    const auto page = [&](QPainter* p, const QRectF& rect, QString* why) {
        const QSizeF cell(rect.width() / cols, rect.height() / rows);
        for (int i = 0; i < specs.size(); ++i) {
            const QRectF r(rect.topLeft() + QPointF((i % cols) * cell.width(), (i / cols) * cell.height()),
                           cell);
            p->save();
            p->setClipRect(r);
            const bool ok = paintForFile(specs[i], p, r, o.theme, why);
            p->restore();
            if (!ok)
                return false;
        }
        return true;
    };
    QStringList titles;
    for (const FigureSpec& s : specs)
        titles << s.title;
    return renderPage(page, o.title.isEmpty() ? titles.join(QStringLiteral(" | ")) : o.title,
                      titles.join(QLatin1Char('\n')), format, o, error);
}

bool FigureExporter::exportGridFile(const QVector<FigureSpec>& specs, int rows, int cols, const QString& path,
                                    const ExportOptions& options, QString* error) {
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (!figureSuffixes().contains(suffix))
        return setError(
            error, QStringLiteral("%1: unknown figure format '%2' (use png, svg or pdf)").arg(path, suffix));
    QString why;
    const QByteArray bytes = renderGrid(specs, rows, cols, suffix, options, &why);
    if (bytes.isEmpty())
        return setError(error, QStringLiteral("%1: %2").arg(path, why));
    return writeAtomically(path, bytes, error);
}

bool FigureExporter::exportFile(const FigureSpec& spec, const QString& path, const ExportOptions& options,
                                QString* error) {
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (!figureSuffixes().contains(suffix))
        return setError(
            error, QStringLiteral("%1: unknown figure format '%2' (use png, svg or pdf)").arg(path, suffix));
    QString why;
    const QByteArray bytes = render(spec, suffix, options, &why);
    if (bytes.isEmpty())
        return setError(error, QStringLiteral("%1: %2").arg(path, why));
    return writeAtomically(path, bytes, error);
}

bool FigureExporter::writeAtomically(const QString& path, const QByteArray& bytes, QString* error) {
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return setError(error, QStringLiteral("cannot write %1: %2").arg(path, file.errorString()));
    if (file.write(bytes) != bytes.size()) {
        const QString why = file.errorString();
        file.cancelWriting();
        return setError(error, QStringLiteral("cannot write %1: %2").arg(path, why));
    }
    if (!file.commit())
        return setError(error, QStringLiteral("cannot write %1: %2").arg(path, file.errorString()));
    return true;
}

QByteArray FigureExporter::exportCsv(const FigureSpec& spec) {
    if (spec.kind == FigureKind::Graph)
        return FigureCsv::graph(spec.graph, GraphLayoutProvider::compute(spec.graph));
    if (spec.kind == FigureKind::Scene3D)
        return FigureCsv::scene(spec.scene);
    QString out;
    const QLatin1Char comma(','), nl('\n');
    if (spec.kind == FigureKind::Heatmap) {
        const HeatmapSpec& h = spec.heatmap;
        QString corner = h.rowTitle;
        if (!h.colTitle.isEmpty())
            corner += (corner.isEmpty() ? QString() : QStringLiteral(" \\ ")) + h.colTitle;
        out += csvField(corner);
        for (int c = 0; c < h.cols; ++c)
            out += comma + csvField(c < h.colLabels.size() ? h.colLabels[c] : QString::number(c));
        out += nl;
        for (int r = 0; r < h.rows; ++r) {
            out += csvField(r < h.rowLabels.size() ? h.rowLabels[r] : QString::number(r));
            for (int c = 0; c < h.cols; ++c) {
                const qsizetype i = qsizetype(r) * h.cols + c;
                out +=
                    comma + (i < h.values.size() ? NiceScale::roundTrip(h.values[i]) : QStringLiteral("NaN"));
            }
            out += nl;
        }
        return out.toUtf8();
    }
    const ChartSpec& c = spec.chart;
    const bool categories = !c.categories.isEmpty();
    out += categories ? QStringLiteral("series,category,x,y\n") : QStringLiteral("series,x,y\n");
    for (const SeriesSpec& s : c.series) {
        const QString name = csvField(s.name);
        const qsizetype n = s.style == SeriesSpec::Style::Bars && s.x.isEmpty()
                                ? s.y.size()
                                : std::min(s.x.size(), s.y.size());
        for (qsizetype i = 0; i < n; ++i) {
            const double x = i < s.x.size() ? s.x[i] : double(i);
            out += name + comma;
            if (categories) {
                const qsizetype k = qsizetype(std::llround(x));
                out += (k >= 0 && k < c.categories.size() ? csvField(c.categories[k]) : QString()) + comma;
            }
            out += NiceScale::roundTrip(x) + comma + NiceScale::roundTrip(s.y[i]) + nl;
        }
    }
    return out.toUtf8();
}

QByteArray FigureExporter::exportJson(const FigureSpec& spec) {
    QJsonObject json = FigureSpecJson::toJson(spec);
    if (spec.kind == FigureKind::Graph && !spec.graph.nodes.isEmpty()) {
        // The drawn positions (layout units), so the data reproduces the picture.
        QJsonObject g = json.value(QStringLiteral("graph")).toObject();
        QJsonArray pos;
        for (const QPointF& p : GraphLayoutProvider::compute(spec.graph))
            pos.append(QJsonArray{p.x(), p.y()});
        g[QStringLiteral("positions")] = pos;
        json[QStringLiteral("graph")] = g;
    }
    return QJsonDocument(json).toJson(QJsonDocument::Indented);
}

bool FigureExporter::exportDataFile(const FigureSpec& spec, const QString& path, QString* error) {
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix == QLatin1String("csv"))
        return writeAtomically(path, exportCsv(spec), error);
    if (suffix == QLatin1String("json"))
        return writeAtomically(path, exportJson(spec), error);
    return setError(error,
                    QStringLiteral("%1: unknown data format '%2' (use csv or json)").arg(path, suffix));
}

} // namespace pl::gui
