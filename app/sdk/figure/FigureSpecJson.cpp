#include "FigureSpecJson.h"

#include "FigureSpecJsonParts.h"

#include <QJsonArray>

#include <cmath>
#include <limits>

namespace pl::gui {

namespace {

QJsonArray numbers(const QVector<double>& v) {
    QJsonArray a;
    for (double d : v)
        a.append(std::isfinite(d) ? QJsonValue(d) : QJsonValue(QJsonValue::Null));
    return a;
}

QVector<double> readNumbers(const QJsonValue& v) {
    QVector<double> out;
    const QJsonArray a = v.toArray();
    out.reserve(a.size());
    for (const QJsonValue& x : a)
        out << (x.isDouble() ? x.toDouble() : std::numeric_limits<double>::quiet_NaN());
    return out;
}

QJsonArray ints(const QVector<int>& v) {
    QJsonArray a;
    for (int i : v)
        a.append(i);
    return a;
}

QVector<int> readInts(const QJsonValue& v) {
    QVector<int> out;
    for (const QJsonValue& x : v.toArray())
        out << x.toInt();
    return out;
}

QStringList readStrings(const QJsonValue& v) {
    QStringList out;
    for (const QJsonValue& x : v.toArray())
        out << x.toString();
    return out;
}

const char* const kStyles[] = {"line", "scatter", "line+points", "step", "bars"};

QString styleName(SeriesSpec::Style s) {
    return QString::fromLatin1(kStyles[int(s)]);
}

bool styleFromName(const QString& n, SeriesSpec::Style* out) {
    for (int i = 0; i < 5; ++i)
        if (n == QLatin1String(kStyles[i])) {
            *out = SeriesSpec::Style(i);
            return true;
        }
    return false;
}

bool fail(QString* error, const QString& message) {
    if (error)
        *error = message;
    return false;
}

} // namespace

QString FigureSpecJson::formatTag() {
    return QStringLiteral("paperlab-figure/1");
}

QJsonObject FigureSpecJson::toJson(const FigureSpec& spec) {
    QJsonObject o;
    o[QStringLiteral("format")] = formatTag();
    o[QStringLiteral("id")] = spec.id;
    o[QStringLiteral("title")] = spec.title;
    o[QStringLiteral("caption")] = spec.caption;
    if (!spec.message.isEmpty())
        o[QStringLiteral("message")] = spec.message;
    o[QStringLiteral("kind")] = toString(spec.kind);
    if (spec.kind == FigureKind::Chart) {
        const ChartSpec& c = spec.chart;
        QJsonObject j;
        j[QStringLiteral("xLabel")] = c.xLabel;
        j[QStringLiteral("yLabel")] = c.yLabel;
        j[QStringLiteral("logX")] = c.logX;
        j[QStringLiteral("logY")] = c.logY;
        j[QStringLiteral("categories")] = QJsonArray::fromStringList(c.categories);
        if (c.fixedXRange)
            j[QStringLiteral("xRange")] = QJsonArray{c.xMin, c.xMax};
        if (c.fixedYRange)
            j[QStringLiteral("yRange")] = QJsonArray{c.yMin, c.yMax};
        QJsonArray series;
        for (const SeriesSpec& s : c.series) {
            QJsonObject js;
            js[QStringLiteral("name")] = s.name;
            js[QStringLiteral("style")] = styleName(s.style);
            js[QStringLiteral("colorIndex")] = s.colorIndex;
            js[QStringLiteral("dashed")] = s.dashed;
            js[QStringLiteral("lineWidth")] = s.lineWidth;
            js[QStringLiteral("x")] = numbers(s.x);
            js[QStringLiteral("y")] = numbers(s.y);
            series.append(js);
        }
        j[QStringLiteral("series")] = series;
        QJsonArray markers;
        for (const MarkerSpec& m : c.markers)
            markers.append(QJsonObject{
                {QStringLiteral("axis"), m.axis == MarkerSpec::Axis::X ? "x" : "y"},
                {QStringLiteral("value"), std::isfinite(m.value) ? QJsonValue(m.value) : QJsonValue()},
                {QStringLiteral("label"), m.label}});
        j[QStringLiteral("markers")] = markers;
        o[QStringLiteral("chart")] = j;
    } else if (spec.kind == FigureKind::Heatmap) {
        const HeatmapSpec& h = spec.heatmap;
        QJsonObject j;
        j[QStringLiteral("rows")] = h.rows;
        j[QStringLiteral("cols")] = h.cols;
        j[QStringLiteral("values")] = numbers(h.values);
        j[QStringLiteral("rowLabels")] = QJsonArray::fromStringList(h.rowLabels);
        j[QStringLiteral("colLabels")] = QJsonArray::fromStringList(h.colLabels);
        j[QStringLiteral("rowTitle")] = h.rowTitle;
        j[QStringLiteral("colTitle")] = h.colTitle;
        j[QStringLiteral("colormap")] = h.colormap;
        j[QStringLiteral("unit")] = h.unit;
        j[QStringLiteral("centreZero")] = h.centreZero;
        j[QStringLiteral("highlightRows")] = ints(h.highlightRows);
        j[QStringLiteral("highlightCols")] = ints(h.highlightCols);
        j[QStringLiteral("annotateCells")] = h.annotateCells;
        if (h.fixedRange)
            j[QStringLiteral("range")] = QJsonArray{h.vMin, h.vMax};
        o[QStringLiteral("heatmap")] = j;
    } else if (spec.kind == FigureKind::Graph) {
        o[QStringLiteral("graph")] = detail::graphToJson(spec.graph);
    } else if (spec.kind == FigureKind::Scene3D) {
        o[QStringLiteral("scene")] = detail::sceneToJson(spec.scene);
    }
    return o;
}

bool FigureSpecJson::fromJson(const QJsonObject& o, FigureSpec* out, QString* error) {
    FigureSpec spec;
    spec.id = o.value(QStringLiteral("id")).toString();
    spec.title = o.value(QStringLiteral("title")).toString();
    spec.caption = o.value(QStringLiteral("caption")).toString();
    spec.message = o.value(QStringLiteral("message")).toString();
    const QString kind = o.value(QStringLiteral("kind")).toString(QStringLiteral("chart"));
    if (!figureKindFromString(kind, &spec.kind))
        return fail(error, QStringLiteral("unknown figure kind '%1'").arg(kind));
    if (spec.kind == FigureKind::Chart) {
        const QJsonObject j = o.value(QStringLiteral("chart")).toObject();
        ChartSpec& c = spec.chart;
        c.xLabel = j.value(QStringLiteral("xLabel")).toString();
        c.yLabel = j.value(QStringLiteral("yLabel")).toString();
        c.logX = j.value(QStringLiteral("logX")).toBool();
        c.logY = j.value(QStringLiteral("logY")).toBool();
        c.categories = readStrings(j.value(QStringLiteral("categories")));
        if (const QJsonArray r = j.value(QStringLiteral("xRange")).toArray(); r.size() == 2) {
            c.fixedXRange = true;
            c.xMin = r[0].toDouble();
            c.xMax = r[1].toDouble();
        }
        if (const QJsonArray r = j.value(QStringLiteral("yRange")).toArray(); r.size() == 2) {
            c.fixedYRange = true;
            c.yMin = r[0].toDouble();
            c.yMax = r[1].toDouble();
        }
        const QJsonArray series = j.value(QStringLiteral("series")).toArray();
        for (qsizetype i = 0; i < series.size(); ++i) {
            const QJsonObject js = series[i].toObject();
            SeriesSpec s;
            s.name = js.value(QStringLiteral("name")).toString();
            const QString style = js.value(QStringLiteral("style")).toString(QStringLiteral("line"));
            if (!styleFromName(style, &s.style))
                return fail(error, QStringLiteral("series %1: unknown style '%2'").arg(i).arg(style));
            s.colorIndex = js.value(QStringLiteral("colorIndex")).toInt(-1);
            s.dashed = js.value(QStringLiteral("dashed")).toBool();
            s.lineWidth = js.value(QStringLiteral("lineWidth")).toDouble(2.0);
            s.x = readNumbers(js.value(QStringLiteral("x")));
            s.y = readNumbers(js.value(QStringLiteral("y")));
            if (s.style != SeriesSpec::Style::Bars && s.x.size() != s.y.size())
                return fail(error, QStringLiteral("series %1: x has %2 values, y has %3")
                                       .arg(i)
                                       .arg(s.x.size())
                                       .arg(s.y.size()));
            c.series << s;
        }
        for (const QJsonValue& v : j.value(QStringLiteral("markers")).toArray()) {
            const QJsonObject jm = v.toObject();
            MarkerSpec m;
            m.axis = jm.value(QStringLiteral("axis")).toString() == QLatin1String("y") ? MarkerSpec::Axis::Y
                                                                                       : MarkerSpec::Axis::X;
            m.value = jm.value(QStringLiteral("value")).toDouble(std::numeric_limits<double>::quiet_NaN());
            m.label = jm.value(QStringLiteral("label")).toString();
            c.markers << m;
        }
    } else if (spec.kind == FigureKind::Heatmap) {
        const QJsonObject j = o.value(QStringLiteral("heatmap")).toObject();
        HeatmapSpec& h = spec.heatmap;
        h.rows = j.value(QStringLiteral("rows")).toInt();
        h.cols = j.value(QStringLiteral("cols")).toInt();
        h.values = readNumbers(j.value(QStringLiteral("values")));
        if (h.rows < 0 || h.cols < 0 || h.values.size() != qsizetype(h.rows) * h.cols)
            return fail(error, QStringLiteral("heatmap: %1 x %2 needs %3 values, found %4")
                                   .arg(h.rows)
                                   .arg(h.cols)
                                   .arg(qsizetype(h.rows) * h.cols)
                                   .arg(h.values.size()));
        h.rowLabels = readStrings(j.value(QStringLiteral("rowLabels")));
        h.colLabels = readStrings(j.value(QStringLiteral("colLabels")));
        h.rowTitle = j.value(QStringLiteral("rowTitle")).toString();
        h.colTitle = j.value(QStringLiteral("colTitle")).toString();
        h.colormap = j.value(QStringLiteral("colormap")).toString(QStringLiteral("viridis"));
        h.unit = j.value(QStringLiteral("unit")).toString();
        h.centreZero = j.value(QStringLiteral("centreZero")).toBool();
        h.highlightRows = readInts(j.value(QStringLiteral("highlightRows")));
        h.highlightCols = readInts(j.value(QStringLiteral("highlightCols")));
        h.annotateCells = j.value(QStringLiteral("annotateCells")).toBool();
        if (const QJsonArray r = j.value(QStringLiteral("range")).toArray(); r.size() == 2) {
            h.fixedRange = true;
            h.vMin = r[0].toDouble();
            h.vMax = r[1].toDouble();
        }
    } else if (spec.kind == FigureKind::Graph) {
        if (!detail::graphFromJson(o.value(QStringLiteral("graph")).toObject(), &spec.graph, error))
            return false;
    } else if (spec.kind == FigureKind::Scene3D) {
        if (!detail::sceneFromJson(o.value(QStringLiteral("scene")).toObject(), &spec.scene, error))
            return false;
    }
    if (out)
        *out = spec;
    return true;
}

} // namespace pl::gui
