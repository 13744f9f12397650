#include "SelectionModel.h"

namespace pl {

SelectionModel::SelectionModel(QObject* parent) : QObject(parent) {}

bool SelectionModel::assign(const QString& dim, const QVector<int>& indices) {
    if (dim.isEmpty())
        return false;
    const QVector<int> norm = gui::normalizedIndices(indices);
    if (norm == m_selection.value(dim))
        return false;
    if (norm.isEmpty())
        m_selection.remove(dim);
    else
        m_selection.insert(dim, norm);
    return true;
}

void SelectionModel::select(const QString& dim, const QVector<int>& indices) {
    if (assign(dim, indices))
        emit changed({dim});
}

void SelectionModel::select(const gui::SelectionMap& picks) {
    QStringList dims;
    for (auto it = picks.cbegin(); it != picks.cend(); ++it)
        if (assign(it.key(), it.value()))
            dims << it.key();
    if (!dims.isEmpty())
        emit changed(dims);
}

void SelectionModel::toggle(const QString& dim, int index) {
    QVector<int> now = indices(dim);
    if (now.contains(index))
        now.removeAll(index);
    else
        now << index;
    select(dim, now);
}

void SelectionModel::clear(const QString& dim) {
    select(dim, {});
}

void SelectionModel::clear() {
    const QStringList dims = m_selection.keys();
    m_selection.clear();
    if (!dims.isEmpty())
        emit changed(dims);
}

} // namespace pl
