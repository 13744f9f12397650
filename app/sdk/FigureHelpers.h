#pragma once
/// Small conversions from result-document data to figure descriptions, shared by plugins so
/// that each plugin's figure code only says which data goes where. Pure functions.
///
/// Figure code reads the result only through these lookups, so that every key it reads is
/// recorded by an active ResultKeyRecorder (the panel key test fails on a key the engine does
/// not write). Two kinds of lookup:
///  - required (series, seriesData, heatmap, matrix, vector, labels, graph, metric, param,
///    xlabel, ylabel): the figure needs the key; an absent key is recorded as missing;
///  - optional (has*, find*): the figure copes with its absence (e.g. a baseline that only some
///    settings compute); an absent key is recorded as an optional miss.

#include "ResultKeyRecorder.h"
#include "core/ResultDocument.h"
#include "sdk/figure/FigureSpec.h"

#include <QString>
#include <string>
#include <string_view>

namespace pl::fig {

/// A series spec from a result series; empty x/y when the key is absent.
gui::SeriesSpec series(const ResultDocument& d, std::string_view key, const QString& name,
                       gui::SeriesSpec::Style style = gui::SeriesSpec::Style::Line, int colorIndex = -1);
/// True when the result holds a non-empty series under `key` (optional lookup).
bool hasSeries(const ResultDocument& d, std::string_view key);
/// The result series, or nullptr when absent (required / optional lookup).
const Series* seriesData(const ResultDocument& d, std::string_view key);
const Series* findSeries(const ResultDocument& d, std::string_view key);
/// A heatmap spec from a result matrix (labels copied). Throws std::invalid_argument if absent.
gui::HeatmapSpec heatmap(const ResultDocument& d, std::string_view key);
/// A heatmap spec from a matrix (labels copied).
gui::HeatmapSpec heatmap(const Matrix& m);
/// The result matrix, or nullptr when absent (required / optional lookup).
const Matrix* matrix(const ResultDocument& d, std::string_view key);
const Matrix* findMatrix(const ResultDocument& d, std::string_view key);
/// The result vector, or nullptr when absent (required / optional lookup).
const std::vector<double>* vector(const ResultDocument& d, std::string_view key);
const std::vector<double>* findVector(const ResultDocument& d, std::string_view key);
/// The result labels, or nullptr when absent (required / optional lookup).
const std::vector<int64_t>* labels(const ResultDocument& d, std::string_view key);
const std::vector<int64_t>* findLabels(const ResultDocument& d, std::string_view key);
/// The result graph, or nullptr when absent (required / optional lookup).
const Graph* graph(const ResultDocument& d, std::string_view key);
const Graph* findGraph(const ResultDocument& d, std::string_view key);
/// Bars from a vector: x = 0..n-1, categories "1".."n" (or given labels).
gui::SeriesSpec bars(const std::vector<double>& v, const QString& name, int colorIndex = -1);
/// Indices i with v[i] > threshold (e.g. the support of a mixed strategy).
QVector<int> support(const std::vector<double>& v, double threshold = 1e-9);
/// Metric value or NaN (required lookup).
double metric(const ResultDocument& d, std::string_view key);
/// True when the result holds metric `key` (optional lookup).
bool hasMetric(const ResultDocument& d, std::string_view key);
/// Metric value, or `fallback` when absent (optional lookup).
double metricOr(const ResultDocument& d, std::string_view key, double fallback);
/// The run's parameter `key`, or nullptr when absent (required lookup).
const ParamValue* paramValue(const ResultDocument& d, std::string_view key);
/// The run's parameter `key` as text (ParamValue's toString), "" when absent (required lookup).
std::string param(const ResultDocument& d, std::string_view key);
/// The axis label of a series ("" when absent; required lookup).
QString xlabel(const ResultDocument& d, std::string_view key);
QString ylabel(const ResultDocument& d, std::string_view key);

} // namespace pl::fig
