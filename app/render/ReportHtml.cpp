#include "ReportHtml.h"

#include "widgets/FigureExporter.h"

#include <QFile>
#include <QSaveFile>
#include <cmath>

namespace pl::report {

QString esc(const QString& s) {
    return s.toHtmlEscaped();
}

QString esc(const std::string& s) {
    return QString::fromStdString(s).toHtmlEscaped();
}

QString fmt(double v) {
    if (std::isnan(v))
        return QStringLiteral("n/a");
    if (v == std::floor(v) && std::fabs(v) < 1e15)
        return QString::number(v, 'f', 0);
    return QString::number(v, 'g', 6);
}

QString styleSheet() {
    QFile f(QStringLiteral(":/paperlab/report/report.css"));
    return f.open(QIODevice::ReadOnly)
               ? QStringLiteral("<style>%1</style>").arg(QString::fromUtf8(f.readAll()))
               : QString();
}

QString inlineSvg(const gui::FigureSpec& spec, QString* error) {
    QString err;
    gui::ExportOptions eo;
    eo.dpi = 96;
    const QString svg = QString::fromUtf8(gui::FigureExporter::render(spec, QStringLiteral("svg"), eo, &err));
    if (svg.isEmpty()) {
        if (error)
            *error = err.isEmpty() ? QStringLiteral("figure '%1' could not be rendered").arg(spec.id) : err;
        return {};
    }
    const int start = svg.indexOf(QLatin1String("<svg"));
    return QStringLiteral("<div class=\"figure\">%1</div>").arg(start >= 0 ? svg.mid(start) : svg);
}

QString figureSection(const gui::FigureSpec& spec, const QString& title, bool embedSvg,
                      const QString& imageKey, QString* error) {
    QString h = QStringLiteral("<h3>%1</h3>").arg(esc(title));
    if (embedSvg) {
        const QString svg = inlineSvg(spec, error);
        if (svg.isEmpty())
            return {};
        h += svg;
    } else {
        h += QStringLiteral("<p><img src=\"fig:%1\" width=\"620\"></p>").arg(esc(imageKey));
    }
    if (!spec.caption.isEmpty())
        h += QStringLiteral("<p class=\"caption\">%1</p>").arg(esc(spec.caption));
    return h;
}

bool writeTextFile(const QString& path, const QString& text, QString* error) {
    QSaveFile f(path);
    const QByteArray bytes = text.toUtf8();
    if (!f.open(QIODevice::WriteOnly) || f.write(bytes) != bytes.size() || !f.commit()) {
        if (error)
            *error = QStringLiteral("cannot write %1: %2").arg(path, f.errorString());
        return false;
    }
    return true;
}

} // namespace pl::report
