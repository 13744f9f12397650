#pragma once
/// Paints a heatmap figure with QPainter into any rectangle of any device (widget, QImage, SVG,
/// PDF): cells from a HeatmapImage drawn without smoothing, thinned row/column labels, axis
/// titles, a colour bar with ticks and unit, outlined highlight rows/columns and an optional
/// selected cell. Stateless; safe on any thread whose painter device allows it (QImage: any).

#include "sdk/figure/FigureSpec.h"
#include "widgets/HeatmapImage.h"
#include "widgets/Theme.h"

#include <QPoint>
#include <QRectF>
#include <optional>

class QPainter;

namespace pl::gui {

class HeatmapPainter {
public:
    struct Options {
        QString title;           ///< figure title at the top; empty = none
        QRectF window;           ///< visible cells (x = column, y = row); null = whole matrix
        QPoint selected{-1, -1}; ///< (column, row) to outline; negative = none
    };

    /// Where everything goes for one paint; rectangles in the painter's logical coordinates.
    struct Layout {
        bool valid = false;
        QRectF plot;     ///< the cells
        QRectF colorBar; ///< the gradient bar
        QRectF title;
        QRectF window; ///< visible cells, resolved and clamped
        bool verticalColLabels = false;
        double rowLabelWidth = 0; ///< space reserved for row labels (logical px)
        double colLabelWidth = 0; ///< widest visible column label (logical px)
        double colLabelBlock = 0; ///< height reserved for column labels (logical px)

        /// Logical position of a cell coordinate (column, row; fractional allowed).
        QPointF toPoint(double col, double row) const;
        /// Cell coordinate (fractional) of a logical position.
        QPointF toCell(const QPointF& p) const;
        /// The (column, row) under \a p, or nullopt outside the plot or the matrix.
        std::optional<QPoint> cellAt(const QPointF& p, int rows, int cols) const;
    };

    /// Computes the layout that paint() would use (for hit testing in views).
    static Layout layout(const HeatmapSpec& spec, const HeatmapImage& image, const Theme& theme,
                         const QRectF& rect, const Options& options);
    /// Paints the whole figure into \a rect (logical pixels, 1/96 inch). Returns false when the
    /// spec cannot be drawn (a message is painted instead).
    static bool paint(QPainter* painter, const QRectF& rect, const HeatmapSpec& spec,
                      const HeatmapImage& image, const Theme& theme, const Options& options);
    /// Label step for \a extentPx of text along an axis whose cells are \a cellPx apart:
    /// the smallest of 1, 2, 5, 10, 20, 50, ... that leaves room for every shown label.
    static int labelStep(double extentPx, double cellPx);
};

} // namespace pl::gui
