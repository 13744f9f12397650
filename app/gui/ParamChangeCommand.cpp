#include "ParamChangeCommand.h"

#include "sdk/PanelModel.h"

#include <QDateTime>

namespace pl::gui {

PanelSnapshot PanelSnapshot::of(const PanelModel& model) {
    return {model.params(), model.activePreset(), model.seed()};
}

void PanelSnapshot::applyTo(PanelModel& model) const {
    model.restoreParams(params, preset);
    model.setSeed(seed);
    model.requestRun();
}

ParamChangeCommand::ParamChangeCommand(PanelModel* model, const QString& mergeKey,
                                       const PanelSnapshot& before, const PanelSnapshot& after,
                                       const QString& text)
    : QUndoCommand(text), m_model(model), m_key(mergeKey), m_before(before), m_after(after),
      m_lastMs(QDateTime::currentMSecsSinceEpoch()) {}

bool ParamChangeCommand::mergeWith(const QUndoCommand* other) {
    const auto* o = dynamic_cast<const ParamChangeCommand*>(other);
    if (!o || o->m_key != m_key || m_key.isEmpty() || o->m_lastMs - m_lastMs > kMergeWindowMs)
        return false;
    m_after = o->m_after;
    m_lastMs = o->m_lastMs;
    setObsolete(m_after == m_before);
    return true;
}

void ParamChangeCommand::undo() {
    m_applied = false;
    if (m_model)
        m_before.applyTo(*m_model);
}

void ParamChangeCommand::redo() {
    if (m_applied)
        return; // pushed after the change was made
    m_applied = true;
    if (m_model)
        m_after.applyTo(*m_model);
}

} // namespace pl::gui
