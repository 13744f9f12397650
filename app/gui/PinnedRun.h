#pragma once
/// "Pin as A" for a panel (issue 34): keeps one result as run A while later runs become B; every
/// figure is then drawn as the A/B comparison of app/sdk/RunComparison in the chosen view (A and B
/// overlaid, with heatmaps as B − A; only A; only B; B − A), the metrics table gains columns A and
/// B − A, and a line lists the parameters that differ and the claims holding in A and in B. A bar
/// widget with its controls; owned by the PanelWidget; GUI thread.

#include "core/ResultDocument.h"
#include "sdk/RunComparison.h"
#include "sdk/figure/FigureSpec.h"

#include <QHash>
#include <QWidget>

#include <memory>

class QComboBox;
class QLabel;
class QPushButton;
class QTableWidget;

namespace pl {
class IPaperPlugin;
}

namespace pl::gui {

class PinnedRun : public QWidget {
    Q_OBJECT
public:
    explicit PinnedRun(QWidget* parent = nullptr);

    /// Keeps `a` as run A (figures of A are built from it with `plugin`, borrowed). Emits changed().
    void pin(std::shared_ptr<const ResultDocument> a, const IPaperPlugin* plugin);
    /// Forgets run A. Emits changed().
    void unpin();
    bool isPinned() const { return bool(m_a); }
    const ResultDocument* pinned() const { return m_a.get(); }
    /// The figure to show for B's spec `b`: itself when nothing is pinned, else the comparison.
    FigureSpec present(const FigureSpec& b);
    /// Updates the line (parameters that differ, claims) for the shown result `b`.
    void describe(const ResultDocument& b);
    /// Adds columns A and B − A to a metrics table of (name, value) rows filled from `b`.
    void decorateMetrics(QTableWidget* table, const ResultDocument& b) const;
    void setView(CompareView view);
    CompareView view() const { return m_view; }

signals:
    /// A was pinned or unpinned, or the view changed: redraw the figures.
    void changed();
    /// The user asked to pin the current result.
    void pinRequested();

private:
    std::shared_ptr<const ResultDocument> m_a;
    const IPaperPlugin* m_plugin = nullptr;
    QHash<QString, FigureSpec> m_specsA; ///< A's figures by id, built on first use
    CompareView m_view = CompareView::Overlay;
    QPushButton* m_pin;
    QPushButton* m_unpin;
    QComboBox* m_viewChooser;
    QLabel* m_line;
};

} // namespace pl::gui
