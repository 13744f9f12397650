#include "FigureHelpers.h"

#include <cmath>
#include <stdexcept>

namespace pl::fig {

gui::SeriesSpec series(const ResultDocument& d, const std::string& key, const QString& name,
                       gui::SeriesSpec::Style style, int colorIndex) {
    gui::SeriesSpec s;
    s.name = name;
    s.style = style;
    s.colorIndex = colorIndex;
    auto it = d.series.find(key);
    if (it != d.series.end()) {
        s.x = QVector<double>(it->second.x.begin(), it->second.x.end());
        s.y = QVector<double>(it->second.y.begin(), it->second.y.end());
    }
    return s;
}

bool hasSeries(const ResultDocument& d, const std::string& key) {
    auto it = d.series.find(key);
    return it != d.series.end() && !it->second.x.empty();
}

gui::HeatmapSpec heatmap(const ResultDocument& d, const std::string& key) {
    auto it = d.matrices.find(key);
    if (it == d.matrices.end())
        throw std::invalid_argument("the result has no matrix '" + key + "'");
    const Matrix& m = it->second;
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

double metric(const ResultDocument& d, const std::string& key) {
    auto it = d.metrics.find(key);
    return it == d.metrics.end() ? std::nan("") : it->second;
}

QString xlabel(const ResultDocument& d, const std::string& key) {
    auto it = d.series.find(key);
    return it == d.series.end() ? QString() : QString::fromStdString(it->second.xlabel);
}

QString ylabel(const ResultDocument& d, const std::string& key) {
    auto it = d.series.find(key);
    return it == d.series.end() ? QString() : QString::fromStdString(it->second.ylabel);
}

} // namespace pl::fig
