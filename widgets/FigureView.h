#pragma once
/// On-screen view of any FigureSpec: a QChartView (antialiased) for charts, a HeatmapView for
/// heatmaps, a GraphView for graphs and, for 3D scenes, the VTK view that paperlab_vtkviews
/// registers (SceneRendererRegistry; a note when none is registered). setSpec() updates a chart in
/// place when only the data changed. Follows the application theme. Context menu: Export figure…,
/// Export data…, Copy image. The caption and the heatmap / graph / pick read-out show in a line
/// below. Linked selection (issue 34): a figure that declares dimensions (FigureSpec::selection)
/// reports clicks on its cells, nodes, points or spheres as selectionPicked() and draws the
/// panel's selection given to setLinkedSelection(). GUI thread.

#include "sdk/figure/FigureSpec.h"
#include "sdk/figure/LinkedSelection.h"
#include "widgets/FigureExporter.h"
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
    /// their QChart and only get new data; anything else is rebuilt. A hidden view (a tab not on
    /// top, a pane of a layout not shown) only keeps the spec and draws it when it is shown or
    /// when one of the accessors below asks for what is drawn: a run redraws what the user sees.
    void setSpec(const FigureSpec& spec);
    const FigureSpec& spec() const { return m_spec; }
    /// The spec as drawn: spec() with the linked selection (withLinkedSelection); equal to spec()
    /// when the figure declares no dimension. Snapshots, "Copy image" and "Export figure…" use it.
    const FigureSpec& displayedSpec() const { return m_shown; }

    /// Draws \a selection (dimension -> indices; only the figure's own dimensions matter). Kept
    /// across setSpec(). Heatmaps reuse their colour image; charts and scenes are redrawn.
    void setLinkedSelection(const SelectionMap& selection);
    const SelectionMap& linkedSelection() const { return m_linked; }

    /// Options used by "Export figure…" and "Copy image" (default: 300 dpi, 7 x 4.5 in, light).
    void setExportOptions(const ExportOptions& options) { m_exportOptions = options; }
    const ExportOptions& exportOptions() const { return m_exportOptions; }
    /// Shows or hides the caption / read-out line (shown by default).
    void setCaptionVisible(bool visible);

    /// The chart on screen (nullptr unless a chart is shown). Owned by the view.
    QChart* chart() const;
    QChartView* chartView() const;
    HeatmapView* heatmapView() const;
    GraphView* graphView() const;
    /// The 3D view (created on the first 3D spec; nullptr before, or when none is registered).
    AbstractSceneView* sceneView() const;
    /// How many times setSpec() rebuilt the chart instead of updating it (for tests).
    int chartRebuildCount() const;
    /// True while a spec set on the hidden view waits to be drawn.
    bool renderPending() const { return m_renderPending; }

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
    /// The user picked indices of the figure's dimensions (a heatmap cell, the graph's selected
    /// nodes, the chart point or bar nearest a click, a sphere); an empty list clears that
    /// dimension. \a toggle: Ctrl was held (add or remove instead of replace).
    void selectionPicked(const pl::gui::SelectionMap& picks, bool toggle);
    /// "Clear linked selection" was chosen in the context menu.
    void linkedSelectionClearRequested();

protected:
    void contextMenuEvent(QContextMenuEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void showEvent(QShowEvent* event) override;

private:
    /// Draws m_shown (\a old: what was drawn before, for chart reuse and the 3D camera).
    void render(const FigureSpec& old);
    /// Draws a spec that setSpec() kept while the view was hidden (const: the accessors call it).
    void ensureRendered() const;
    void showChart(bool rebuild);
    /// Chart point index nearest the viewport position \a pos; -1 outside the plot.
    int chartIndexAt(const QPoint& pos) const;
    void onScenePicked(const QString& item, int element);
    void restyle();
    void updateCaption(const QString& hover = {});

    FigureSpec m_spec;
    FigureSpec m_shown;           ///< m_spec with m_linked drawn
    FigureSpec m_pendingOld;      ///< what was drawn before the first deferred setSpec()
    bool m_renderPending = false; ///< m_shown is not drawn yet (the view was hidden)
    SelectionMap m_linked;        ///< the panel's linked selection
    QPoint m_chartPress{-1, -1};
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
