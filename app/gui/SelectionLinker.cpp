#include "SelectionLinker.h"

#include "sdk/SelectionModel.h"
#include "widgets/FigureView.h"

namespace pl::gui {

SelectionLinker::SelectionLinker(SelectionModel* model, QObject* parent) : QObject(parent), m_model(model) {
    connect(m_model, &SelectionModel::changed, this, &SelectionLinker::redraw);
}

void SelectionLinker::addView(FigureView* view) {
    if (!view || views().contains(view))
        return;
    m_views << QPointer<FigureView>(view);
    connect(view, &FigureView::selectionPicked, this, [this](const SelectionMap& picks, bool toggle) {
        if (!toggle) {
            m_model->select(picks);
            return;
        }
        for (auto it = picks.cbegin(); it != picks.cend(); ++it)
            for (int i : it.value())
                m_model->toggle(it.key(), i);
    });
    connect(view, &FigureView::linkedSelectionClearRequested, m_model, qOverload<>(&SelectionModel::clear));
    view->setLinkedSelection(m_model->selection());
}

QList<FigureView*> SelectionLinker::views() const {
    QList<FigureView*> out;
    for (const QPointer<FigureView>& v : m_views)
        if (v)
            out << v.data();
    return out;
}

void SelectionLinker::redraw() {
    for (FigureView* v : views())
        v->setLinkedSelection(m_model->selection());
}

} // namespace pl::gui
