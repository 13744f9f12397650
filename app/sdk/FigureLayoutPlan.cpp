#include "FigureLayoutPlan.h"

#include <QJsonArray>

#include <algorithm>

namespace pl {

bool figureLayoutPlan(const QJsonObject& state, const QStringList& figureIds, FigureLayoutPlan* out) {
    const QString mode = state.value(QStringLiteral("mode")).toString();
    FigureLayoutPlan plan;
    plan.mode = mode;
    if (mode == QLatin1String("side_by_side")) {
        plan.rows = 1;
        plan.cols = 2;
    } else if (mode == QLatin1String("stacked")) {
        plan.rows = 2;
        plan.cols = 1;
    } else if (mode == QLatin1String("quad")) {
        plan.rows = 2;
        plan.cols = 2;
    } else {
        return false;
    }
    if (figureIds.isEmpty())
        return false;
    const QJsonArray saved = state.value(QStringLiteral("figures")).toArray();
    for (int i = 0; i < plan.rows * plan.cols; ++i) {
        const QString id = i < saved.size() ? saved.at(i).toString() : QString();
        plan.figures << (figureIds.contains(id) ? id : figureIds.at(std::min(i, int(figureIds.size()) - 1)));
    }
    if (out)
        *out = plan;
    return true;
}

} // namespace pl
