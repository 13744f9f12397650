#pragma once
/// Links the figures of one panel through its SelectionModel (issue 34): what a FigureView
/// publishes (selectionPicked) goes into the model, and every change of the model is drawn by
/// every linked view (each draws only the dimensions its figure declares). Views can be tabs or
/// FigureGrid panes; a view that is destroyed drops out. Knows no paper. GUI thread.

#include <QList>
#include <QObject>
#include <QPointer>

namespace pl {
class SelectionModel;
}

namespace pl::gui {

class FigureView;

class SelectionLinker : public QObject {
    Q_OBJECT
public:
    /// \a model is not owned (it usually lives as long as the panel, as does the linker).
    explicit SelectionLinker(SelectionModel* model, QObject* parent = nullptr);

    /// Links \a view (not owned; ignored when null or already linked) and draws the current
    /// selection in it.
    void addView(FigureView* view);
    /// Views currently linked.
    QList<FigureView*> views() const;
    SelectionModel* model() const { return m_model; }

private:
    void redraw();

    SelectionModel* m_model;
    QList<QPointer<FigureView>> m_views;
};

} // namespace pl::gui
