#pragma once
/// Declarative description of one figure, built by a plugin from a ResultDocument and drawn by
/// the widgets layer (screen, PNG, SVG, PDF and "export data" all start from this one value).
/// Plain data: copyable, safe to build on a worker thread and hand to the GUI thread. QtCore only
/// (model side: paperlab_figure), so building figures never loads Qt Gui, widgets, VTK or GL.

#include "FigureTypes.h"

#include <QList>
#include <QString>
#include <QStringList>
#include <QVector>

#include <limits>

namespace pl::gui {

enum class FigureKind { Chart, Heatmap, Graph, Scene3D };

/// "chart" | "heatmap" | "graph" | "3d", as in paper.json.
QString toString(FigureKind kind);
/// Inverse of toString; returns false for an unknown name.
bool figureKindFromString(const QString& name, FigureKind* out);

/// One data series of a chart.
struct SeriesSpec {
    enum class Style { Line, Scatter, LineWithPoints, Step, Bars };
    QString name;              ///< legend text
    Style style = Style::Line;
    QVector<double> x;
    QVector<double> y;         ///< same length as x; non-finite points are skipped when drawn
    int colorIndex = -1;       ///< index into the theme's palette; -1 = next in order
    bool dashed = false;
    double lineWidth = 2.0;    ///< in device-independent pixels
};

/// A reference line across the plot (e.g. "switch to Newton" at x = 812).
struct MarkerSpec {
    enum class Axis { X, Y };
    Axis axis = Axis::X;
    double value = 0;
    QString label;
};

struct ChartSpec {
    QString xLabel;            ///< axis title including the unit, e.g. "time (ms)"
    QString yLabel;
    bool logX = false;         ///< log10 axis; non-positive values are skipped
    bool logY = false;
    QVector<SeriesSpec> series;
    QVector<MarkerSpec> markers;
    QStringList categories;    ///< for Bars: category labels along x (then x holds 0..n-1)
    bool fixedYRange = false;  ///< use yMin..yMax instead of the data range
    double yMin = 0;
    double yMax = 1;
    bool fixedXRange = false;  ///< use xMin..xMax instead of the data range
    double xMin = 0;
    double xMax = 1;
    /// Linked selection shown (set by withLinkedSelection, not by plugins): point positions k
    /// (series[0].x[k], or bar k) drawn as vertical markers.
    QVector<int> linkedPoints;
};

struct HeatmapSpec {
    int rows = 0;
    int cols = 0;
    QVector<double> values;    ///< rows*cols, row-major; NaN drawn in the NaN colour
    QStringList rowLabels;     ///< optional, size rows
    QStringList colLabels;     ///< optional, size cols
    QString rowTitle;          ///< e.g. "row strategy"
    QString colTitle;
    QString colormap = QStringLiteral("viridis"); ///< "viridis" | "magma" | "diverging" | "okabe-ito" | "gray"
    QString unit;              ///< shown on the colour bar
    bool centreZero = false;   ///< diverging maps: symmetric range around 0
    QVector<int> highlightRows; ///< rows to outline (e.g. support of x)
    QVector<int> highlightCols;
    bool fixedRange = false;   ///< colour scale uses vMin..vMax instead of the data range
    double vMin = 0;
    double vMax = 1;
    bool annotateCells = false; ///< print each value in its cell when the cells are large enough
    /// Linked selection shown (set by withLinkedSelection, not by plugins): rows and columns
    /// outlined in the theme's accent colour, apart from highlightRows/highlightCols.
    QVector<int> linkedRows;
    QVector<int> linkedCols;
};

// ---- Graph figures (kind "graph"): drawn by GraphView on screen and GraphPainter in exports. ----

/// One node of a graph figure.
struct GraphNodeSpec {
    QString id;    ///< stable key shown in the read-out and written to CSV/JSON (may be empty)
    QString label; ///< drawn next to the node when GraphSpec::showLabels; empty = none
    double x = std::numeric_limits<double>::quiet_NaN(); ///< given position (layout Given), any unit
    double y = std::numeric_limits<double>::quiet_NaN(); ///< NaN = unknown (placed on a circle)
    double size = 1.0; ///< relative area: radius = GraphSpec::nodeRadius * sqrt(size) (logical px)
    double value = std::numeric_limits<double>::quiet_NaN(); ///< colour value through GraphSpec::colormap
    int category = -1; ///< theme series colour (Okabe-Ito); >= 0 wins over value; -1 = use value
    QString group;     ///< free-form group name (read-out, CSV)
};

/// One edge, between two entries of GraphSpec::nodes (indices, not ids).
struct GraphEdgeSpec {
    int source = 0;
    int target = 0;
    double weight = 1.0; ///< width = GraphSpec::edgeWidth * |weight| / max |weight| (at least 0.5 px)
    double value = std::numeric_limits<double>::quiet_NaN(); ///< colour value; NaN = neutral edge colour
    bool dashed = false;
    bool directed = false; ///< arrow head at the target (also drawn for all edges when GraphSpec::directed)
};

/// One legend line: a node swatch (category colour or value colour) or an edge sample.
struct GraphLegendEntry {
    QString label;
    int category = -1; ///< series colour; -1 with a finite value = colour-map colour; else neutral
    double value = std::numeric_limits<double>::quiet_NaN();
    bool edge = false;   ///< draw a line sample instead of a disc
    bool dashed = false; ///< for edge samples
};

enum class GraphLayout {
    Given,    ///< node x/y as given (missing ones on a circle)
    Force,    ///< force-directed (VTK's force-directed / fast 2D strategies), seeded
    Circular, ///< nodes on a circle in index order
    Spectral  ///< Laplacian eigenvectors 2 and 3 (no randomness)
};
/// "given" | "force" | "circular" | "spectral".
QString toString(GraphLayout layout);
/// Inverse of toString; returns false for an unknown name.
bool graphLayoutFromString(const QString& name, GraphLayout* out);

struct GraphSpec {
    QVector<GraphNodeSpec> nodes;
    QVector<GraphEdgeSpec> edges;     ///< indices out of range are skipped when drawn
    GraphLayout layout = GraphLayout::Force;
    int layoutSeed = 1;               ///< seed of the force layout (same seed, same picture)
    bool directed = false;            ///< arrow heads on every edge
    QString colormap = QStringLiteral("viridis"); ///< for node and edge values (Colormap::byName)
    QString colorTitle;               ///< colour-bar title for node values; empty = no colour bar
    bool fixedRange = false;          ///< colour scale uses vMin..vMax instead of the value range
    double vMin = 0;
    double vMax = 1;
    QVector<GraphLegendEntry> legend; ///< empty = no legend
    double nodeRadius = 6.0;          ///< logical px radius of a node of size 1
    double edgeWidth = 1.5;           ///< logical px width of the heaviest edge
    bool showLabels = true;           ///< node labels (drawn when there are at most 300 nodes)
    /// Linked selection shown (set by withLinkedSelection, not by plugins): nodes drawn with the
    /// selection ring.
    QVector<int> linkedNodes;
};

// ---- 3D scenes (kind "3d"): drawn by VTK (paperlab_vtkviews). Plain data, no VTK types. ----

/// Colouring shared by all scene items: values go through a colour map; without values the
/// item has one colour (color if valid, else the theme's series colour colorIndex).
struct SceneItemStyle {
    QString name;           ///< shown in picks and the read-out
    Rgba color;             ///< solid colour when there are no values; invalid = series colour
    int colorIndex = 0;     ///< theme series colour when color is invalid
    double opacity = 1.0;   ///< 0..1
    QString colormap;       ///< own colour map for this item's values; empty = SceneSpec::colormap
    QString colorBarTitle;  ///< with an own colormap: a separate colour bar with this title
};

/// Many spheres (glyph-instanced, so 10 000 stay interactive).
struct SphereSetSpec {
    SceneItemStyle style;
    QVector<Vec3> centers;
    QVector<double> radii;  ///< one per centre, or empty = radius
    double radius = 0.05;
    QVector<double> values; ///< colour value per sphere, or empty = solid colour
    QStringList labels;     ///< optional per-sphere text for picks
};

/// A polyline through points; drawn as a tube when radius > 0, else as a line.
struct PolylineSpec {
    SceneItemStyle style;
    QVector<Vec3> points;
    QVector<double> values; ///< colour value per point (e.g. time), or empty
    double radius = 0.0;    ///< tube radius in scene units; 0 = a line of lineWidth px
    double lineWidth = 2.0; ///< px, lines only
};

/// A surface: a triangle mesh, or a parametric torus (VTK's parametric torus).
struct SurfaceSpec {
    enum class Kind { Mesh, Torus };
    SceneItemStyle style;
    Kind kind = Kind::Mesh;
    QVector<Vec3> vertices; ///< Mesh
    QVector<int> triangles;      ///< Mesh: 3 vertex indices per triangle
    QVector<double> values;      ///< Mesh: per vertex; Torus: a gridU x gridV grid (u major), or empty
    int gridU = 0;               ///< Torus value grid size along u (around the ring)
    int gridV = 0;               ///< Torus value grid size along v (around the tube)
    Vec3 center;            ///< Torus centre
    double ringRadius = 1.0;     ///< Torus: distance from the centre to the tube centre
    double tubeRadius = 0.35;    ///< Torus: tube (cross-section) radius
    int resolution = 64;         ///< Torus: samples along u (v uses half)
    bool showEdges = false;      ///< draw the triangle edges
};

/// Points drawn as small round points of pointSize px.
struct PointCloudSpec {
    SceneItemStyle style;
    QVector<Vec3> points;
    QVector<double> values;
    double pointSize = 4.0;
};

/// Arrows from origins along vectors (length = |vector| * scale).
struct ArrowSetSpec {
    SceneItemStyle style;
    QVector<Vec3> origins;
    QVector<Vec3> vectors; ///< same length as origins
    QVector<double> values;     ///< per arrow, or empty
    double scale = 1.0;
};

/// A text label at a 3D position (always facing the camera).
struct SceneLabelSpec {
    Vec3 position;
    QString text;
};

/// Camera hints: without a position the camera frames the whole scene, then turns by azimuth and
/// elevation (degrees) and zooms.
struct CameraSpec {
    bool hasPosition = false;
    Vec3 position;
    Vec3 focalPoint;
    Vec3 viewUp{0, 0, 1};
    double azimuth = 30;
    double elevation = 20;
    double zoom = 1.0;
    bool parallel = false; ///< parallel projection
};

struct SceneSpec {
    QVector<SphereSetSpec> spheres;
    QVector<PolylineSpec> polylines;
    QVector<SurfaceSpec> surfaces;
    QVector<PointCloudSpec> pointClouds;
    QVector<ArrowSetSpec> arrows;
    QVector<SceneLabelSpec> labels;
    CameraSpec camera;
    QString colormap = QStringLiteral("viridis"); ///< shared by items without their own colormap
    bool fixedRange = false; ///< shared scale vMin..vMax instead of the range of the shared items' values
    double vMin = 0;
    double vMax = 1;
    QString colorBarTitle;   ///< title of the shared colour bar; shown when a shared item has values
    bool showColorBar = true;
    QString message;         ///< non-empty: nothing to draw; views and exports show this text (no GL needed)
    /// Linked selection shown (set by withLinkedSelection, not by plugins): sphere indices of
    /// spheres[0], drawn as a translucent accent shell (an extra sphere set named "selected").
    QVector<int> linkedSpheres;
};

/// Which named dimension ("residue", "node", "strategy", ...) the parts of a figure index, for
/// the linked selection (SelectionModel). Empty = that part takes no part in it. Plain data;
/// the dimension names are the panel's own (figures sharing a name share the selection).
struct SelectionDims {
    QString chartPoints; ///< chart: point k of each series (bar k of a bar chart)
    QString heatmapRows; ///< heatmap rows
    QString heatmapCols; ///< heatmap columns (may equal heatmapRows: a square matrix)
    QString graphNodes;  ///< graph nodes, in GraphSpec::nodes order
    QString sceneSpheres; ///< 3D: the spheres of SceneSpec::spheres[0]
    bool isEmpty() const {
        return chartPoints.isEmpty() && heatmapRows.isEmpty() && heatmapCols.isEmpty() &&
               graphNodes.isEmpty() && sceneSpheres.isEmpty();
    }
};

/// Everything needed to draw and export one figure.
struct FigureSpec {
    QString id;                ///< stable id, as listed in paper.json
    QString title;
    QString caption;           ///< one or two sentences: how to read the figure
    /// Non-empty: the result has nothing to draw in this figure (e.g. a figure of another mode of
    /// the panel); views and exports show this text under the title instead, for every kind.
    QString message;
    FigureKind kind = FigureKind::Chart;
    ChartSpec chart;           ///< used when kind == Chart
    HeatmapSpec heatmap;       ///< used when kind == Heatmap
    GraphSpec graph;           ///< used when kind == Graph
    SceneSpec scene;           ///< used when kind == Scene3D
    SelectionDims selection;   ///< dimensions this figure shares with the panel's other figures
};

} // namespace pl::gui
