#pragma once
/// Several figures of one panel on screen at once (issue 34): 2 side by side, 2 stacked or 4 panes
/// in splitters, each pane with its own figure chooser and FigureView. The grid does not own the
/// figure specs: it asks `SpecSource` for the current spec of a figure id and is told when one
/// changes (updateSpec). Knows no paper. GUI thread.

#include "sdk/figure/FigureSpec.h"

#include <QList>
#include <QPair>
#include <QString>
#include <QStringList>
#include <QWidget>

#include <functional>

class QComboBox;
class QSplitter;

namespace pl::gui {

class FigureView;

/// How a panel lays out its figures. Single is the tabbed view (not drawn by FigureGrid).
enum class FigureLayoutMode { Single, SideBySide, Stacked, Quad };

/// "single" | "side_by_side" | "stacked" | "quad" (sessions, paper.json "layout").
QString figureLayoutName(FigureLayoutMode mode);
/// Parses a name of figureLayoutName(); false for anything else.
bool figureLayoutFromName(const QString& name, FigureLayoutMode* mode);
/// Panes shown by a mode (1, 2, 2, 4).
int figureLayoutPanes(FigureLayoutMode mode);

class FigureGrid : public QWidget {
    Q_OBJECT
public:
    /// Gives the current spec of a figure id; false when the figure has no data yet.
    using SpecSource = std::function<bool(const QString& id, FigureSpec* out)>;

    explicit FigureGrid(SpecSource source, QWidget* parent = nullptr);

    /// The figures a pane may show: (id, title) in the panel's order.
    void setFigures(const QList<QPair<QString, QString>>& figures);
    /// Arranges the panes for `mode` (Single shows one pane); keeps each pane's figure.
    void setMode(FigureLayoutMode mode);
    FigureLayoutMode mode() const { return m_mode; }
    /// Shows figure `id` in pane `pane` (0-based; ignored when out of range or unknown).
    void setPaneFigure(int pane, const QString& id);
    /// The figure ids of the visible panes, in pane order.
    QStringList paneFigures() const;
    int paneCount() const { return figureLayoutPanes(m_mode); }
    /// The view of pane `pane` (owned by the grid).
    FigureView* paneView(int pane) const;
    /// Redraws the panes that show `spec.id`.
    void updateSpec(const FigureSpec& spec);
    /// Sets export options on every pane's view.
    void setExportDpi(int dpi);
    /// Moves keyboard focus to the next visible pane's chooser (wraps around).
    void focusNextPane();

signals:
    /// The user (or setPaneFigure) changed what a pane shows.
    void paneFigureChanged(int pane, const QString& id);

private:
    struct Pane {
        QWidget* box = nullptr;
        QComboBox* chooser = nullptr;
        FigureView* view = nullptr;
    };
    void showPane(int pane);

    SpecSource m_source;
    FigureLayoutMode m_mode = FigureLayoutMode::SideBySide;
    QList<QPair<QString, QString>> m_figures;
    Pane m_panes[4];
    QSplitter* m_outer;   ///< rows (Quad, Stacked) or columns (SideBySide)
    QSplitter* m_rows[2]; ///< the two rows of Quad
};

} // namespace pl::gui
