#include "HeatmapView.h"

#include "NiceScale.h"
#include "ThemeManager.h"

#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

namespace pl::gui {

HeatmapView::HeatmapView(QWidget* parent) : QWidget(parent), m_theme(Theme::current()) {
    setMouseTracking(true);
    setFocusPolicy(Qt::StrongFocus);
    setAttribute(Qt::WA_OpaquePaintEvent);
    setCursor(Qt::CrossCursor);
    setAccessibleName(tr("Heatmap"));
    connect(ThemeManager::instance(), &ThemeManager::themeChanged, this, [this] {
        if (m_followTheme) {
            m_theme = Theme::current();
            update();
        }
    });
}

void HeatmapView::setSpec(const HeatmapSpec& spec, const QString& title) {
    setSpec(spec, HeatmapImage(spec), title);
}

void HeatmapView::setSpec(const HeatmapSpec& spec, const HeatmapImage& prebuilt, const QString& title) {
    const bool sameShape = spec.rows == m_spec.rows && spec.cols == m_spec.cols;
    m_spec = spec;
    m_title = title;
    m_image = prebuilt;
    if (!sameShape) {
        m_window = QRectF(0, 0, m_spec.cols, m_spec.rows);
        m_selected = QPoint(-1, -1);
    }
    m_window = clampWindow(m_window);
    setAccessibleDescription(tr("%1 by %2 heatmap%3")
                                 .arg(spec.rows)
                                 .arg(spec.cols)
                                 .arg(title.isEmpty() ? QString() : QStringLiteral(": ") + title));
    update();
}

void HeatmapView::setTheme(const Theme& theme) {
    m_followTheme = false;
    m_theme = theme;
    update();
}

void HeatmapView::followApplicationTheme() {
    m_followTheme = true;
    m_theme = Theme::current();
    update();
}

void HeatmapView::setColormap(const QString& name) {
    m_spec.colormap = name;
    m_image.setColormap(Colormap::byName(name));
    update();
}

QRectF HeatmapView::clampWindow(QRectF w) const {
    const double cols = std::max(1, m_spec.cols), rows = std::max(1, m_spec.rows);
    if (w.isNull() || !w.isValid())
        return QRectF(0, 0, cols, rows);
    const double minW = std::min(cols, 2.0), minH = std::min(rows, 2.0);
    w.setWidth(std::clamp(w.width(), minW, cols));
    w.setHeight(std::clamp(w.height(), minH, rows));
    w.moveLeft(std::clamp(w.left(), 0.0, cols - w.width()));
    w.moveTop(std::clamp(w.top(), 0.0, rows - w.height()));
    return w;
}

void HeatmapView::setWindow(const QRectF& cells) {
    const QRectF w = clampWindow(cells);
    if (w == m_window)
        return;
    m_window = w;
    update();
    emit windowChanged(m_window);
}

void HeatmapView::resetZoom() {
    setWindow(QRectF(0, 0, m_spec.cols, m_spec.rows));
}

void HeatmapView::zoomBy(double factor, const QPointF& anchor) {
    if (!(factor > 0) || m_image.isNull())
        return;
    const HeatmapPainter::Layout L = currentLayout();
    if (!L.valid)
        return;
    QPointF c = L.toCell(anchor);
    if (!L.plot.contains(anchor))
        c = m_window.center();
    const double w = m_window.width() / factor, h = m_window.height() / factor;
    // Keep c at the same relative position inside the window.
    const double fx = (c.x() - m_window.left()) / m_window.width();
    const double fy = (c.y() - m_window.top()) / m_window.height();
    setWindow(QRectF(c.x() - fx * w, c.y() - fy * h, w, h));
}

void HeatmapView::panBy(const QPointF& pixels) {
    const HeatmapPainter::Layout L = currentLayout();
    if (!L.valid)
        return;
    const double dx = pixels.x() * m_window.width() / L.plot.width();
    const double dy = pixels.y() * m_window.height() / L.plot.height();
    setWindow(m_window.translated(-dx, -dy));
}

HeatmapPainter::Options HeatmapView::options() const {
    HeatmapPainter::Options o;
    o.title = m_title;
    o.window = m_window;
    o.selected = m_selected;
    return o;
}

HeatmapPainter::Layout HeatmapView::currentLayout() const {
    return HeatmapPainter::layout(m_spec, m_image, m_theme, QRectF(rect()), options());
}

std::optional<QPoint> HeatmapView::cellAt(const QPointF& pos) const {
    return currentLayout().cellAt(pos, m_spec.rows, m_spec.cols);
}

QString HeatmapView::describeCell(int row, int col) const {
    if (row < 0 || col < 0 || row >= m_spec.rows || col >= m_spec.cols)
        return {};
    const double v = m_spec.values.value(qsizetype(row) * m_spec.cols + col);
    QString rowText = tr("row %1").arg(row);
    if (row < m_spec.rowLabels.size())
        rowText += QStringLiteral(" (%1)").arg(m_spec.rowLabels[row]);
    QString colText = tr("column %1").arg(col);
    if (col < m_spec.colLabels.size())
        colText += QStringLiteral(" (%1)").arg(m_spec.colLabels[col]);
    QString value = NiceScale::formatValue(v, 6);
    if (!m_spec.unit.isEmpty())
        value += QLatin1Char(' ') + m_spec.unit;
    return QStringLiteral("%1, %2: %3").arg(rowText, colText, value);
}

void HeatmapView::selectCell(int row, int col) {
    const QPoint p =
        (row >= 0 && col >= 0 && row < m_spec.rows && col < m_spec.cols) ? QPoint(col, row) : QPoint(-1, -1);
    m_selected = p;
    update();
    emit cellSelected(p.y(), p.x());
}

void HeatmapView::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    p.setRenderHint(QPainter::TextAntialiasing);
    HeatmapPainter::paint(&p, QRectF(rect()), m_spec, m_image, m_theme, options());
    if (hasFocus()) {
        p.setPen(QPen(m_theme.highlight, 1.0, Qt::DotLine));
        p.setBrush(Qt::NoBrush);
        p.drawRect(QRectF(rect()).adjusted(0.5, 0.5, -0.5, -0.5));
    }
}

void HeatmapView::wheelEvent(QWheelEvent* event) {
    const double steps = event->angleDelta().y() / 120.0;
    if (steps == 0) {
        event->ignore();
        return;
    }
    zoomBy(std::pow(1.25, steps), event->position());
    updateHover(event->position());
    event->accept();
}

void HeatmapView::mousePressEvent(QMouseEvent* event) {
    if (event->button() != Qt::LeftButton) {
        QWidget::mousePressEvent(event);
        return;
    }
    m_pressed = true;
    m_dragging = false;
    m_pressPos = m_lastDragPos = event->position();
    event->accept();
}

void HeatmapView::mouseMoveEvent(QMouseEvent* event) {
    if (m_pressed && (event->buttons() & Qt::LeftButton)) {
        if (!m_dragging && (event->position() - m_pressPos).manhattanLength() >= 4) {
            m_dragging = true;
            setCursor(Qt::ClosedHandCursor);
        }
        if (m_dragging) {
            panBy(event->position() - m_lastDragPos);
            m_lastDragPos = event->position();
        }
    }
    updateHover(event->position());
}

void HeatmapView::mouseReleaseEvent(QMouseEvent* event) {
    if (event->button() != Qt::LeftButton || !m_pressed) {
        QWidget::mouseReleaseEvent(event);
        return;
    }
    m_pressed = false;
    if (m_dragging) {
        m_dragging = false;
        setCursor(Qt::CrossCursor);
    } else if (auto cell = cellAt(event->position())) {
        selectCell(cell->y(), cell->x());
    }
    event->accept();
}

void HeatmapView::mouseDoubleClickEvent(QMouseEvent* event) {
    if (event->button() == Qt::LeftButton)
        resetZoom();
}

void HeatmapView::leaveEvent(QEvent* event) {
    if (m_hover != QPoint(-1, -1)) {
        m_hover = QPoint(-1, -1);
        m_hoverText.clear();
        emit cellHovered(-1, -1, std::nan(""));
        emit hoverTextChanged(m_hoverText);
    }
    QWidget::leaveEvent(event);
}

void HeatmapView::keyPressEvent(QKeyEvent* event) {
    const QPointF centre = currentLayout().plot.center();
    const double step = 40;
    switch (event->key()) {
    case Qt::Key_Plus:
    case Qt::Key_Equal:
        zoomBy(1.25, centre);
        break;
    case Qt::Key_Minus:
        zoomBy(0.8, centre);
        break;
    case Qt::Key_0:
    case Qt::Key_Home:
        resetZoom();
        break;
    case Qt::Key_Left:
        panBy(QPointF(step, 0));
        break;
    case Qt::Key_Right:
        panBy(QPointF(-step, 0));
        break;
    case Qt::Key_Up:
        panBy(QPointF(0, step));
        break;
    case Qt::Key_Down:
        panBy(QPointF(0, -step));
        break;
    default:
        QWidget::keyPressEvent(event);
        return;
    }
    event->accept();
}

void HeatmapView::updateHover(const QPointF& pos) {
    const auto cell = cellAt(pos);
    const QPoint c = cell ? *cell : QPoint(-1, -1);
    if (c == m_hover)
        return;
    m_hover = c;
    if (!cell) {
        m_hoverText.clear();
        QToolTip::hideText();
        emit cellHovered(-1, -1, std::nan(""));
    } else {
        m_hoverText = describeCell(c.y(), c.x());
        const double v = m_spec.values.value(qsizetype(c.y()) * m_spec.cols + c.x());
        if (isVisible())
            QToolTip::showText(mapToGlobal(pos.toPoint()) + QPoint(14, 18), m_hoverText, this);
        emit cellHovered(c.y(), c.x(), v);
    }
    emit hoverTextChanged(m_hoverText);
}

} // namespace pl::gui
