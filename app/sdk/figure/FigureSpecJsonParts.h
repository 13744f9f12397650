#pragma once
/// Internal: JSON of the graph and scene parts of a FigureSpec (used by FigureSpecJson).

#include "sdk/figure/FigureSpec.h"

#include <QJsonObject>

namespace pl::gui::detail {

QJsonObject graphToJson(const GraphSpec& graph);
bool graphFromJson(const QJsonObject& json, GraphSpec* out, QString* error);
QJsonObject sceneToJson(const SceneSpec& scene);
bool sceneFromJson(const QJsonObject& json, SceneSpec* out, QString* error);

} // namespace pl::gui::detail
