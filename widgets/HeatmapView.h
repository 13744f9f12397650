#pragma once
/// Interactive heatmap: hover read-out (row, column, value), wheel zoom around the cursor, drag
/// to pan, click to select a cell, double-click (or key 0) to reset. The colour-mapped image
/// pyramid is built once per setSpec(); each repaint copies only the visible cells at the level
/// matching the screen, so pan and zoom stay fluid at 4096 x 4096. GUI thread.

#include "sdk/figure/FigureSpec.h"
#include "widgets/HeatmapImage.h"
#include "widgets/HeatmapPainter.h"
#include "widgets/Theme.h"

#include <QWidget>
#include <optional>

namespace pl::gui {

class HeatmapView : public QWidget {
    Q_OBJECT
public:
    explicit HeatmapView(QWidget* parent = nullptr);

    /// Shows \a spec (copied; the values are implicitly shared). Builds the image pyramid here
    /// (about 0.2 s at 4096 x 4096); keeps the zoom window when the matrix size is unchanged.
    void setSpec(const HeatmapSpec& spec, const QString& title = {});
    /// Same, with an image already built from \a spec (e.g. on a worker thread, which QImage
    /// allows), so the GUI thread does no per-cell work.
    void setSpec(const HeatmapSpec& spec, const HeatmapImage& prebuilt, const QString& title = {});
    const HeatmapSpec& spec() const { return m_spec; }
    const HeatmapImage& image() const { return m_image; }
    /// Uses \a theme instead of following Theme::current().
    void setTheme(const Theme& theme);
    /// Follows Theme::current() again (the default).
    void followApplicationTheme();
    const Theme& theme() const { return m_theme; }
    /// Replaces the colour map without rebuilding the image.
    void setColormap(const QString& name);

    /// Visible cells (x = column, y = row, in cells).
    QRectF window() const { return m_window; }
    /// Shows \a cells (clamped to the matrix, at least 2 x 2 cells).
    void setWindow(const QRectF& cells);
    /// Whole matrix.
    void resetZoom();
    /// Zooms by \a factor (> 1 = in) keeping the cell under \a anchor (widget coordinates) fixed.
    void zoomBy(double factor, const QPointF& anchor);
    /// Pans by \a pixels (widget coordinates; positive x moves the content right).
    void panBy(const QPointF& pixels);

    /// Layout of the current paint (plot rectangle etc.).
    HeatmapPainter::Layout currentLayout() const;
    /// (column, row) under a widget position, or nullopt.
    std::optional<QPoint> cellAt(const QPointF& pos) const;
    /// "row 3 (label), column 7 (label): 0.125 unit" for a cell.
    QString describeCell(int row, int col) const;
    /// Selected cell as (column, row); (-1, -1) when none.
    QPoint selectedCell() const { return m_selected; }
    /// Selects a cell (outline) and emits cellSelected; (-1, -1) clears.
    void selectCell(int row, int col);
    /// Read-out for the cell under the mouse; empty when none.
    QString hoverText() const { return m_hoverText; }

    QSize sizeHint() const override { return {640, 480}; }
    QSize minimumSizeHint() const override { return {160, 120}; }

signals:
    /// A cell was clicked (or selectCell was called).
    void cellSelected(int row, int col);
    /// The mouse moved onto a cell; row = col = -1 when it left the cells.
    void cellHovered(int row, int col, double value);
    /// The read-out text changed (for a status line).
    void hoverTextChanged(const QString& text);
    /// Zoom or pan changed the visible cells.
    void windowChanged(const QRectF& cells);

protected:
    void paintEvent(QPaintEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;
    void leaveEvent(QEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;

private:
    HeatmapPainter::Options options() const;
    void updateHover(const QPointF& pos);
    QRectF clampWindow(QRectF w) const;

    HeatmapSpec m_spec;
    QString m_title;
    HeatmapImage m_image;
    Theme m_theme;
    bool m_followTheme = true;
    QRectF m_window;
    QPoint m_selected{-1, -1};
    QPoint m_hover{-1, -1};
    QString m_hoverText;
    QPointF m_pressPos;
    QPointF m_lastDragPos;
    bool m_dragging = false;
    bool m_pressed = false;
};

} // namespace pl::gui
