#pragma once
/// Colour-mapped raster of a HeatmapSpec, built once and reused for every paint: a pyramid of
/// Format_Indexed8 images (level 0 = one pixel per cell, level k = 2^k x 2^k cells averaged,
/// NaN ignored) sharing one colour table, so a colour-map change is an O(256) table swap.
/// Building is allowed on any thread (QImage only); a built object is read-only and may be
/// shared between threads.

#include "widgets/Colormap.h"
#include "sdk/figure/FigureSpec.h"

#include <QImage>
#include <QRect>
#include <QVector>

namespace pl::gui {

class HeatmapImage {
public:
    HeatmapImage() = default;
    /// Same as build(spec).
    explicit HeatmapImage(const HeatmapSpec& spec);

    /// Computes the colour range and all pyramid levels. A spec whose values size is not
    /// rows * cols gives a null image.
    void build(const HeatmapSpec& spec);
    /// Replaces the colour map (table swap on every level).
    void setColormap(const Colormap& map);

    bool isNull() const { return m_levels.isEmpty(); }
    int rows() const { return m_rows; }
    int cols() const { return m_cols; }
    /// Low / high ends of the colour scale (data range, symmetric around 0 when the spec asks
    /// for centreZero, or the spec's fixed range).
    double minValue() const { return m_min; }
    double maxValue() const { return m_max; }
    /// True when at least one value is non-finite.
    bool hasNaN() const { return m_hasNaN; }
    const Colormap& colormap() const { return m_colormap; }

    /// Value scaled to [0, 1] on the colour scale (unclamped; NaN stays NaN).
    double normalize(double value) const;
    /// Opaque colour of a value on this image's scale.
    QRgb colorOf(double value) const;

    int levelCount() const { return int(m_levels.size()); }
    /// Level \a k (clamped): ceil(cols / 2^k) x ceil(rows / 2^k) Indexed8 pixels.
    const QImage& level(int k) const;
    /// The coarsest level whose pixels still cover at most one device pixel, given how many
    /// device pixels one cell spans (the larger of the two directions).
    int levelFor(double devicePixelsPerCell) const;
    /// Pixel rectangle of level \a k holding the cells \a cells (clamped to the matrix);
    /// \a outCells receives the cells it covers (see region()).
    QRect levelRect(int k, const QRect& cells, QRect* outCells) const;
    /// Level \a k already converted to ARGB32_Premultiplied (drawn without conversion), or a
    /// null image when that level is too large to keep converted (more than 4 Mpixel).
    const QImage& argbLevel(int k) const;
    /// ARGB32_Premultiplied copy of the cells \a cells (clamped to the matrix) at level \a k;
    /// \a outCells receives the cell rectangle the image covers, aligned to the level's blocks; it
    /// may overhang the matrix by less than one block (clip to the matrix when drawing).
    QImage region(int k, const QRect& cells, QRect* outCells) const;

    /// Colour table index used for NaN.
    static constexpr int NaNIndex = 255;
    /// Number of table entries used for finite values.
    static constexpr int Levels = 255;

private:
    QVector<QRgb> colorTable() const;
    int m_rows = 0;
    int m_cols = 0;
    double m_min = 0;
    double m_max = 1;
    bool m_hasNaN = false;
    Colormap m_colormap;
    void convertLevels();
    QVector<QImage> m_levels;
    QVector<QImage> m_argb; ///< per level; null when the level is large
};

} // namespace pl::gui
