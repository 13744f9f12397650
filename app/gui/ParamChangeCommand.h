#pragma once
/// Undo/redo of a panel's parameter state. A PanelSnapshot is what one undo step restores
/// (parameters, active preset, seed); a ParamChangeCommand holds the state before and after one
/// change. Consecutive changes of the same control (same merge key) within kMergeWindowMs merge
/// into one step, so a slider drag is undone at once. Changes that come back to where they
/// started become obsolete and vanish from the stack. GUI thread; the model is not owned.

#include "core/ParamSpec.h"

#include <QElapsedTimer>
#include <QPointer>
#include <QString>
#include <QUndoCommand>

namespace pl {
class PanelModel;
}

namespace pl::gui {

struct PanelSnapshot {
    ParamSet params;
    QString preset;
    quint64 seed = 0;

    static PanelSnapshot of(const PanelModel& model);
    /// Puts the state into the model (parameters, preset, seed) and requests a run.
    void applyTo(PanelModel& model) const;
    bool operator==(const PanelSnapshot& o) const {
        return params == o.params && preset == o.preset && seed == o.seed;
    }
};

class ParamChangeCommand : public QUndoCommand {
public:
    static constexpr int kMergeWindowMs = 1500;
    static constexpr int kId = 0x504c;

    /// The change is already applied: the first redo() does nothing. An empty mergeKey never merges.
    ParamChangeCommand(PanelModel* model, const QString& mergeKey, const PanelSnapshot& before,
                       const PanelSnapshot& after, const QString& text);

    int id() const override { return m_key.isEmpty() ? -1 : kId; }
    bool mergeWith(const QUndoCommand* other) override;
    void undo() override;
    void redo() override;
    QString mergeKey() const { return m_key; }

private:
    QPointer<PanelModel> m_model;
    QString m_key;
    PanelSnapshot m_before;
    PanelSnapshot m_after;
    qint64 m_lastMs;
    bool m_applied = true;
};

} // namespace pl::gui
