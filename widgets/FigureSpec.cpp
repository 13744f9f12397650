#include "FigureSpec.h"

namespace pl::gui {

QString toString(FigureKind kind) {
    switch (kind) {
    case FigureKind::Chart:
        return QStringLiteral("chart");
    case FigureKind::Heatmap:
        return QStringLiteral("heatmap");
    case FigureKind::Graph:
        return QStringLiteral("graph");
    case FigureKind::Scene3D:
        return QStringLiteral("3d");
    }
    return QStringLiteral("chart");
}

bool figureKindFromString(const QString& name, FigureKind* out) {
    static const FigureKind kinds[] = {FigureKind::Chart, FigureKind::Heatmap, FigureKind::Graph,
                                       FigureKind::Scene3D};
    for (FigureKind k : kinds)
        if (name == toString(k)) {
            if (out)
                *out = k;
            return true;
        }
    return false;
}

} // namespace pl::gui
