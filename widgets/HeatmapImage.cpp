#include "HeatmapImage.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <vector>

namespace pl::gui {

namespace {

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

/// Index into the 256-entry table: 0..254 for finite values, 255 for NaN.
inline uchar indexOf(double v, double lo, double scale) {
    if (!std::isfinite(v))
        return uchar(HeatmapImage::NaNIndex);
    const double t = (v - lo) * scale;
    if (!(t > 0))
        return 0;
    return uchar(std::min(HeatmapImage::Levels - 1, int(t * HeatmapImage::Levels)));
}

} // namespace

HeatmapImage::HeatmapImage(const HeatmapSpec& spec) {
    build(spec);
}

void HeatmapImage::build(const HeatmapSpec& spec) {
    m_levels.clear();
    m_rows = m_cols = 0;
    m_hasNaN = false;
    if (spec.rows <= 0 || spec.cols <= 0 || spec.values.size() != qsizetype(spec.rows) * spec.cols)
        return;
    m_rows = spec.rows;
    m_cols = spec.cols;
    m_colormap = Colormap::byName(spec.colormap);

    double lo = std::numeric_limits<double>::infinity(), hi = -lo;
    for (double v : spec.values) {
        if (std::isfinite(v)) {
            lo = std::min(lo, v);
            hi = std::max(hi, v);
        } else {
            m_hasNaN = true;
        }
    }
    if (lo > hi)
        lo = hi = 0; // all NaN
    if (spec.fixedRange && spec.vMax > spec.vMin) {
        lo = spec.vMin;
        hi = spec.vMax;
    } else if (spec.centreZero) {
        const double m = std::max(std::fabs(lo), std::fabs(hi));
        lo = -(m > 0 ? m : 1.0);
        hi = m > 0 ? m : 1.0;
    } else if (hi == lo) {
        lo -= 0.5;
        hi += 0.5;
    }
    m_min = lo;
    m_max = hi;
    const double scale = 1.0 / (hi - lo);
    const QVector<QRgb> table = colorTable();

    // Level 0: one pixel per cell.
    QImage base(m_cols, m_rows, QImage::Format_Indexed8);
    base.setColorTable(table);
    const double* src = spec.values.constData();
    for (int r = 0; r < m_rows; ++r) {
        uchar* line = base.scanLine(r);
        const double* row = src + qsizetype(r) * m_cols;
        for (int c = 0; c < m_cols; ++c)
            line[c] = indexOf(row[c], lo, scale);
    }
    m_levels << base;

    // Coarser levels: 2x2 means of the previous level's values (NaN ignored) until the image is
    // small enough that any view needs at most that many pixels.
    int w = m_cols, h = m_rows;
    std::vector<float> prev, next;
    bool fromSpec = true;
    while (std::max(w, h) > 256) {
        const int nw = (w + 1) / 2, nh = (h + 1) / 2;
        next.assign(size_t(nw) * size_t(nh), kNaN);
        QImage img(nw, nh, QImage::Format_Indexed8);
        img.setColorTable(table);
        for (int r = 0; r < nh; ++r) {
            uchar* line = img.scanLine(r);
            for (int c = 0; c < nw; ++c) {
                double sum = 0;
                int n = 0;
                for (int dr = 0; dr < 2; ++dr) {
                    const int rr = 2 * r + dr;
                    if (rr >= h)
                        break;
                    for (int dc = 0; dc < 2; ++dc) {
                        const int cc = 2 * c + dc;
                        if (cc >= w)
                            break;
                        const double v =
                            fromSpec ? src[qsizetype(rr) * w + cc] : double(prev[size_t(rr) * w + cc]);
                        if (std::isfinite(v)) {
                            sum += v;
                            ++n;
                        }
                    }
                }
                const float mean = n ? float(sum / n) : kNaN;
                next[size_t(r) * nw + c] = mean;
                line[c] = indexOf(mean, lo, scale);
            }
        }
        m_levels << img;
        prev.swap(next);
        fromSpec = false;
        w = nw;
        h = nh;
    }
    convertLevels();
}

void HeatmapImage::convertLevels() {
    m_argb.clear();
    for (const QImage& img : m_levels)
        m_argb << (qint64(img.width()) * img.height() <= 4 * 1024 * 1024
                       ? img.convertToFormat(QImage::Format_ARGB32_Premultiplied)
                       : QImage());
}

const QImage& HeatmapImage::argbLevel(int k) const {
    static const QImage s_null;
    if (m_argb.isEmpty())
        return s_null;
    return m_argb[std::clamp(k, 0, int(m_argb.size()) - 1)];
}

QVector<QRgb> HeatmapImage::colorTable() const {
    QVector<QRgb> table(256);
    for (int i = 0; i < Levels; ++i)
        table[i] = m_colormap.lookup((i + 0.5) / Levels);
    table[NaNIndex] = m_colormap.nanColor();
    return table;
}

void HeatmapImage::setColormap(const Colormap& map) {
    m_colormap = map;
    const QVector<QRgb> table = colorTable();
    for (QImage& img : m_levels)
        img.setColorTable(table);
    convertLevels();
}

double HeatmapImage::normalize(double value) const {
    if (std::isnan(value))
        return value;
    return (value - m_min) / (m_max - m_min);
}

QRgb HeatmapImage::colorOf(double value) const {
    if (!std::isfinite(value))
        return m_colormap.nanColor();
    const double t = normalize(value);
    const int i = !(t > 0) ? 0 : std::min(Levels - 1, int(t * Levels));
    return m_colormap.lookup((i + 0.5) / Levels);
}

const QImage& HeatmapImage::level(int k) const {
    static const QImage s_null;
    if (m_levels.isEmpty())
        return s_null;
    return m_levels[std::clamp(k, 0, int(m_levels.size()) - 1)];
}

int HeatmapImage::levelFor(double devicePixelsPerCell) const {
    if (m_levels.isEmpty() || !(devicePixelsPerCell > 0))
        return 0;
    // Nearest level to one level pixel per device pixel (in log2 terms).
    const double cellsPerPixel = 1.0 / devicePixelsPerCell;
    int k = 0;
    while (k + 1 < m_levels.size() && double(1 << (k + 1)) <= cellsPerPixel * std::numbers::sqrt2)
        ++k;
    return k;
}

QRect HeatmapImage::levelRect(int k, const QRect& cells, QRect* outCells) const {
    k = std::clamp(k, 0, std::max(0, int(m_levels.size()) - 1));
    const QRect want = cells.intersected(QRect(0, 0, m_cols, m_rows));
    if (m_levels.isEmpty() || want.isEmpty()) {
        if (outCells)
            *outCells = QRect();
        return QRect();
    }
    const int f = 1 << k;
    const QImage& img = m_levels[k];
    const int x0 = want.left() / f, y0 = want.top() / f;
    const int x1 = std::min(img.width(), (want.right() + f) / f); // exclusive
    const int y1 = std::min(img.height(), (want.bottom() + f) / f);
    if (outCells)
        *outCells = QRect(x0 * f, y0 * f, (x1 - x0) * f, (y1 - y0) * f); // may overhang the matrix
    return QRect(x0, y0, x1 - x0, y1 - y0);
}

QImage HeatmapImage::region(int k, const QRect& cells, QRect* outCells) const {
    k = std::clamp(k, 0, std::max(0, int(m_levels.size()) - 1));
    const QRect px = levelRect(k, cells, outCells);
    if (px.isEmpty())
        return QImage();
    if (!argbLevel(k).isNull())
        return argbLevel(k).copy(px);
    return m_levels[k].copy(px).convertToFormat(QImage::Format_ARGB32_Premultiplied);
}

} // namespace pl::gui
