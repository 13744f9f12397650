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

QString toString(GraphLayout layout) {
    switch (layout) {
    case GraphLayout::Given:
        return QStringLiteral("given");
    case GraphLayout::Force:
        return QStringLiteral("force");
    case GraphLayout::Circular:
        return QStringLiteral("circular");
    case GraphLayout::Spectral:
        return QStringLiteral("spectral");
    }
    return QStringLiteral("force");
}

bool graphLayoutFromString(const QString& name, GraphLayout* out) {
    static const GraphLayout layouts[] = {GraphLayout::Given, GraphLayout::Force, GraphLayout::Circular,
                                          GraphLayout::Spectral};
    for (GraphLayout l : layouts)
        if (name == toString(l)) {
            if (out)
                *out = l;
            return true;
        }
    return false;
}

} // namespace pl::gui
