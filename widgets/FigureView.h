#pragma once
/// On-screen view of any FigureSpec: a QChartView (antialiased) for charts, a HeatmapView for
/// heatmaps, a GraphView for graphs and, for 3D scenes, the VTK view that paperlab_vtkviews
/// registers (SceneRendererRegistry; a note when none is registered). setSpec() updates a chart in
/// place when only the data changed. Follows the application theme. Context menu: Export figure…,
/// Export data…, Copy image. The caption and the heatmap / graph / pick read-out show in a line
/// below. GUI thread.

#include "widgets/FigureExporter.h"
#include "sdk/figure/FigureSpec.h"
#include "widgets/Theme.h"

#include <QWidget>

class QChart;
class QChartView;
class QLabel;
class QStackedLayout;
class QTimer;

namespace pl::gui {

class AbstractSceneView;
class GraphView;
class HeatmapView;

class FigureView : public QWidget {
    Q_OBJECT
public:
    explicit FigureView(QWidget* parent = nullptr);
    ~FigureView() override;

    /// Shows \a spec. Charts whose structure is unchanged (ChartBuilder::sameStructure) keep
    /// their QChart and only get new data; anything else is rebuilt.
    void setSpec(const FigureSpec& spec);
    const FigureSpec& spec() const { return m_spec; }

    /// Options used by "Export figure…" and "Copy image" (default: 300 dpi, 7 x 4.5 in, light).
    void setExportOptions(const ExportOptions& options) { m_exportOptions = options; }
    const ExportOptions& exportOptions() const { return m_exportOptions; }
    /// Shows or hides the caption / read-out line (shown by default).
    void setCaptionVisible(bool visible);

    /// The chart on screen (nullptr unless a chart is shown). Owned by the view.
    QChart* chart() const { return m_chart; }
    QChartView* chartView() const { return m_chartView; }
    HeatmapView* heatmapView() const { return m_heatmap; }
    GraphView* graphView() const { return m_graph; }
    /// The 3D view (created on the first 3D spec; nullptr before, or when none is registered).
    AbstractSceneView* sceneView() const { return m_scene; }
    /// How many times setSpec() rebuilt the chart instead of updating it (for tests).
    int chartRebuildCount() const { return m_rebuilds; }

    /// Snapshot through the export paint path at the widget's size (theme: current).
    QImage snapshot(qreal dpr = 1.0) const;

public slots:
    /// Asks for a file name and writes the figure (png, svg, pdf). Shows errors in a dialog.
    void exportFigureInteractive();
    /// Asks for a file name and writes the data (csv, json).
    void exportDataInteractive();
    /// Puts a snapshot (export options, widget aspect ratio) on the clipboard.
    void copyImage();

signals:
    /// A heatmap cell was clicked.
    void cellSelected(int row, int col);
    /// A graph node was selected (-1: selection cleared).
    void nodeSelected(int index);

protected:
    void contextMenuEvent(QContextMenuEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    void showChart(bool rebuild);
    void restyle();
    void updateCaption(const QString& hover = {});

    FigureSpec m_spec;
    ExportOptions m_exportOptions;
    QStackedLayout* m_stack = nullptr;
    QChartView* m_chartView = nullptr;
    QChart* m_chart = nullptr;
    HeatmapView* m_heatmap = nullptr;
    GraphView* m_graph = nullptr;
    AbstractSceneView* m_scene = nullptr;
    QLabel* m_note = nullptr;
    QLabel* m_caption = nullptr;
    QTimer* m_resizeTimer = nullptr;
    int m_rebuilds = 0;
    bool m_captionVisible = true;
};

} // namespace pl::gui
