#include "FigureHelpers.h"

#include <cmath>
#include <stdexcept>

namespace pl::fig {

namespace {

/// Looks `key` up in one section of the result and records the lookup.
template <class Map>
const typename Map::mapped_type* lookup(const Map& m, ResultSection section, std::string_view key,
                                        bool optional) {
    const std::string k(key);
    const auto it = m.find(k);
    const bool found = it != m.end();
    ResultKeyRecorder::note(section, k, found, optional);
    return found ? &it->second : nullptr;
}

} // namespace

gui::SeriesSpec series(const ResultDocument& d, std::string_view key, const QString& name,
                       gui::SeriesSpec::Style style, int colorIndex) {
    gui::SeriesSpec s;
    s.name = name;
    s.style = style;
    s.colorIndex = colorIndex;
    if (const Series* src = seriesData(d, key)) {
        s.x = QVector<double>(src->x.begin(), src->x.end());
        s.y = QVector<double>(src->y.begin(), src->y.end());
    }
    return s;
}

bool hasSeries(const ResultDocument& d, std::string_view key) {
    const Series* s = findSeries(d, key);
    return s && !s->x.empty();
}

const Series* seriesData(const ResultDocument& d, std::string_view key) {
    return lookup(d.series, ResultSection::Series, key, false);
}

const Series* findSeries(const ResultDocument& d, std::string_view key) {
    return lookup(d.series, ResultSection::Series, key, true);
}

gui::HeatmapSpec heatmap(const ResultDocument& d, std::string_view key) {
    const Matrix* m = matrix(d, key);
    if (!m)
        throw std::invalid_argument("the result has no matrix '" + std::string(key) + "'");
    return heatmap(*m);
}

gui::HeatmapSpec heatmap(const Matrix& m) {
    gui::HeatmapSpec h;
    h.rows = int(m.rows);
    h.cols = int(m.cols);
    h.values = QVector<double>(m.data.begin(), m.data.end());
    for (const auto& l : m.rowLabels)
        h.rowLabels << QString::fromStdString(l);
    for (const auto& l : m.colLabels)
        h.colLabels << QString::fromStdString(l);
    return h;
}

const Matrix* matrix(const ResultDocument& d, std::string_view key) {
    return lookup(d.matrices, ResultSection::Matrix, key, false);
}

const Matrix* findMatrix(const ResultDocument& d, std::string_view key) {
    return lookup(d.matrices, ResultSection::Matrix, key, true);
}

const std::vector<double>* vector(const ResultDocument& d, std::string_view key) {
    return lookup(d.vectors, ResultSection::Vector, key, false);
}

const std::vector<double>* findVector(const ResultDocument& d, std::string_view key) {
    return lookup(d.vectors, ResultSection::Vector, key, true);
}

const std::vector<int64_t>* labels(const ResultDocument& d, std::string_view key) {
    return lookup(d.labels, ResultSection::Labels, key, false);
}

const std::vector<int64_t>* findLabels(const ResultDocument& d, std::string_view key) {
    return lookup(d.labels, ResultSection::Labels, key, true);
}

const Graph* graph(const ResultDocument& d, std::string_view key) {
    return lookup(d.graphs, ResultSection::Graph, key, false);
}

const Graph* findGraph(const ResultDocument& d, std::string_view key) {
    return lookup(d.graphs, ResultSection::Graph, key, true);
}

gui::SeriesSpec bars(const std::vector<double>& v, const QString& name, int colorIndex) {
    gui::SeriesSpec s;
    s.name = name;
    s.style = gui::SeriesSpec::Style::Bars;
    s.colorIndex = colorIndex;
    for (size_t i = 0; i < v.size(); ++i) {
        s.x << double(i);
        s.y << v[i];
    }
    return s;
}

QVector<int> support(const std::vector<double>& v, double threshold) {
    QVector<int> out;
    for (size_t i = 0; i < v.size(); ++i)
        if (v[i] > threshold)
            out << int(i);
    return out;
}

double metric(const ResultDocument& d, std::string_view key) {
    const double* v = lookup(d.metrics, ResultSection::Metric, key, false);
    return v ? *v : std::nan("");
}

bool hasMetric(const ResultDocument& d, std::string_view key) {
    return lookup(d.metrics, ResultSection::Metric, key, true) != nullptr;
}

double metricOr(const ResultDocument& d, std::string_view key, double fallback) {
    const double* v = lookup(d.metrics, ResultSection::Metric, key, true);
    return v ? *v : fallback;
}

const ParamValue* paramValue(const ResultDocument& d, std::string_view key) {
    for (const auto& [k, v] : d.params)
        if (k == key) {
            ResultKeyRecorder::note(ResultSection::Param, k, true, false);
            return &v;
        }
    ResultKeyRecorder::note(ResultSection::Param, std::string(key), false, false);
    return nullptr;
}

std::string param(const ResultDocument& d, std::string_view key) {
    const ParamValue* v = paramValue(d, key);
    return v ? pl::toString(*v) : std::string();
}

QString xlabel(const ResultDocument& d, std::string_view key) {
    const Series* s = seriesData(d, key);
    return s ? QString::fromStdString(s->xlabel) : QString();
}

QString ylabel(const ResultDocument& d, std::string_view key) {
    const Series* s = seriesData(d, key);
    return s ? QString::fromStdString(s->ylabel) : QString();
}

} // namespace pl::fig
