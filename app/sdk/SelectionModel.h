#pragma once
/// The linked selection of one open panel (issue 34): for each named dimension ("residue",
/// "node", "strategy", ...) the indices the user picked in some figure. Figures declare which
/// dimension they index (FigureSpec::selection); the GUI publishes clicks here and redraws every
/// figure of the panel that shares a changed dimension. Knows no paper. GUI thread (lives with
/// its panel).

#include "sdk/figure/LinkedSelection.h"

#include <QObject>
#include <QStringList>

namespace pl {

class SelectionModel : public QObject {
    Q_OBJECT
public:
    explicit SelectionModel(QObject* parent = nullptr);

    /// The whole selection (dimensions with at least one index).
    const gui::SelectionMap& selection() const { return m_selection; }
    /// Selected indices of \a dim (sorted, unique); empty when none.
    QVector<int> indices(const QString& dim) const { return m_selection.value(dim); }

    /// Replaces the indices of \a dim (normalised; empty clears the dimension). Emits changed()
    /// when something changed.
    void select(const QString& dim, const QVector<int>& indices);
    /// Replaces the indices of every dimension in \a picks (others are kept), one changed().
    void select(const gui::SelectionMap& picks);
    /// Adds \a index to \a dim, or removes it when it is already selected (Ctrl+click).
    void toggle(const QString& dim, int index);
    /// Clears one dimension.
    void clear(const QString& dim);
    /// Clears everything.
    void clear();

signals:
    /// The selection of \a dims changed (one signal per user action).
    void changed(const QStringList& dims);

private:
    /// Sets \a dim without emitting; true when it changed.
    bool assign(const QString& dim, const QVector<int>& indices);

    gui::SelectionMap m_selection;
};

} // namespace pl
