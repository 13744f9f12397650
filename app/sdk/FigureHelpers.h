#pragma once
/// Small conversions from result-document data to figure descriptions, shared by plugins so
/// that each plugin's figure code only says which data goes where. Pure functions.

#include "core/ResultDocument.h"
#include "sdk/figure/FigureSpec.h"

#include <QString>

namespace pl::fig {

/// A series spec from a result series; empty x/y when the key is absent.
gui::SeriesSpec series(const ResultDocument& d, const std::string& key, const QString& name,
                       gui::SeriesSpec::Style style = gui::SeriesSpec::Style::Line, int colorIndex = -1);
/// True when the result holds a non-empty series under `key`.
bool hasSeries(const ResultDocument& d, const std::string& key);
/// A heatmap spec from a result matrix (labels copied). Throws std::invalid_argument if absent.
gui::HeatmapSpec heatmap(const ResultDocument& d, const std::string& key);
/// Bars from a vector: x = 0..n-1, categories "1".."n" (or given labels).
gui::SeriesSpec bars(const std::vector<double>& v, const QString& name, int colorIndex = -1);
/// Indices i with v[i] > threshold (e.g. the support of a mixed strategy).
QVector<int> support(const std::vector<double>& v, double threshold = 1e-9);
/// Metric value or NaN.
double metric(const ResultDocument& d, const std::string& key);
/// The axis label of a series ("" when absent).
QString xlabel(const ResultDocument& d, const std::string& key);
QString ylabel(const ResultDocument& d, const std::string& key);

} // namespace pl::fig
