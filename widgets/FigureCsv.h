#pragma once
/// CSV form of graph and 3D figures (UTF-8, RFC 4180 quoting, numbers that round-trip, empty
/// cells where a column does not apply). Pure functions, any thread.
///
/// Graph: header "element,index,id,label,group,x,y,size,value,category,source,target,weight,
/// dashed,directed"; one row per node (element "node", x/y = drawn layout position) then one per
/// edge (element "edge", source/target = node indices).
/// Scene: header "item,kind,index,x,y,z,u,v,w,radius,value,label"; kinds: sphere (centre,
/// radius), polyline (point), mesh (vertex), torus (centre; u = ring radius, v = tube radius),
/// point, arrow (origin; u, v, w = vector), label (position, text).

#include "sdk/figure/FigureSpec.h"

#include <QByteArray>
#include <QPointF>
#include <QVector>

namespace pl::gui {

class FigureCsv {
public:
    /// \a positions: the drawn layout (GraphLayoutProvider::compute), one per node, or empty.
    static QByteArray graph(const GraphSpec& spec, const QVector<QPointF>& positions);
    static QByteArray scene(const SceneSpec& spec);
    /// One CSV field, quoted when needed.
    static QString field(const QString& text);
};

} // namespace pl::gui
