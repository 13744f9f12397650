#pragma once
/// The Metrics tab of a panel: every metric of the shown result, its seed and wall time, the
/// result's notes below; with a pinned run A (PinnedRun) also A and B − A. GUI thread.

#include "core/ResultDocument.h"

#include <QWidget>

class QLabel;
class QTableWidget;

namespace pl::gui {

class PinnedRun;

class MetricsPage : public QWidget {
    Q_OBJECT
public:
    explicit MetricsPage(QWidget* parent = nullptr);
    /// Shows `result`; `pinned` (may be null) adds the A columns when a run is pinned.
    void show(const ResultDocument& result, const PinnedRun* pinned);
    void clear();
    QTableWidget* table() const { return m_table; }

private:
    QTableWidget* m_table;
    QLabel* m_notes;
};

} // namespace pl::gui
