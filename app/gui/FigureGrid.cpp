#include "FigureGrid.h"

#include "widgets/FigureView.h"

#include <QApplication>
#include <QComboBox>
#include <QSplitter>
#include <QVBoxLayout>

namespace pl::gui {

QString figureLayoutName(FigureLayoutMode mode) {
    switch (mode) {
    case FigureLayoutMode::Single:
        return QStringLiteral("single");
    case FigureLayoutMode::SideBySide:
        return QStringLiteral("side_by_side");
    case FigureLayoutMode::Stacked:
        return QStringLiteral("stacked");
    case FigureLayoutMode::Quad:
        return QStringLiteral("quad");
    }
    return QStringLiteral("single");
}

bool figureLayoutFromName(const QString& name, FigureLayoutMode* mode) {
    for (FigureLayoutMode m : {FigureLayoutMode::Single, FigureLayoutMode::SideBySide,
                               FigureLayoutMode::Stacked, FigureLayoutMode::Quad})
        if (figureLayoutName(m) == name) {
            *mode = m;
            return true;
        }
    return false;
}

int figureLayoutPanes(FigureLayoutMode mode) {
    return mode == FigureLayoutMode::Quad ? 4 : mode == FigureLayoutMode::Single ? 1 : 2;
}

FigureGrid::FigureGrid(SpecSource source, QWidget* parent) : QWidget(parent), m_source(std::move(source)) {
    setObjectName(QStringLiteral("FigureGrid"));
    m_outer = new QSplitter(Qt::Horizontal, this);
    m_outer->setChildrenCollapsible(false);
    for (int r = 0; r < 2; ++r) {
        m_rows[r] = new QSplitter(Qt::Horizontal, m_outer);
        m_rows[r]->setChildrenCollapsible(false);
    }
    for (int i = 0; i < 4; ++i) {
        Pane& p = m_panes[i];
        p.box = new QWidget(this);
        p.chooser = new QComboBox(p.box);
        p.chooser->setObjectName(QStringLiteral("PaneChooser%1").arg(i));
        p.chooser->setAccessibleName(tr("Figure of pane %1").arg(i + 1));
        p.view = new FigureView(p.box);
        p.view->setObjectName(QStringLiteral("PaneView%1").arg(i));
        auto* l = new QVBoxLayout(p.box);
        l->setContentsMargins(0, 0, 0, 0);
        l->setSpacing(2);
        l->addWidget(p.chooser);
        l->addWidget(p.view, 1);
        connect(p.chooser, &QComboBox::currentIndexChanged, this, [this, i] {
            showPane(i);
            emit paneFigureChanged(i, m_panes[i].chooser->currentData().toString());
        });
    }
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_outer);
    setMode(FigureLayoutMode::SideBySide);
}

void FigureGrid::setFigures(const QList<QPair<QString, QString>>& figures) {
    m_figures = figures;
    for (int i = 0; i < 4; ++i) {
        QComboBox* c = m_panes[i].chooser;
        QSignalBlocker block(c);
        c->clear();
        for (const auto& [id, title] : figures)
            c->addItem(title, id);
        // Default: pane i shows figure i (the last one when there are fewer).
        c->setCurrentIndex(figures.isEmpty() ? -1 : std::min(i, int(figures.size()) - 1));
        showPane(i);
    }
}

void FigureGrid::setMode(FigureLayoutMode mode) {
    m_mode = mode;
    // Take every pane out, then place the visible ones.
    for (Pane& p : m_panes) {
        p.box->hide();
        p.box->setParent(this);
    }
    const int n = figureLayoutPanes(mode);
    m_rows[0]->hide();
    m_rows[1]->hide();
    if (mode == FigureLayoutMode::Quad) {
        m_outer->setOrientation(Qt::Vertical);
        for (int r = 0; r < 2; ++r) {
            m_rows[r]->addWidget(m_panes[2 * r].box);
            m_rows[r]->addWidget(m_panes[2 * r + 1].box);
            m_rows[r]->show();
        }
    } else {
        m_outer->setOrientation(mode == FigureLayoutMode::Stacked ? Qt::Vertical : Qt::Horizontal);
        for (int i = 0; i < n; ++i)
            m_outer->addWidget(m_panes[i].box);
    }
    for (int i = 0; i < n; ++i) {
        m_panes[i].box->show();
        showPane(i);
    }
    // Equal shares after a change of mode.
    QList<int> half{1000, 1000};
    m_outer->setSizes(half);
    m_rows[0]->setSizes(half);
    m_rows[1]->setSizes(half);
}

void FigureGrid::setPaneFigure(int pane, const QString& id) {
    if (pane < 0 || pane >= 4)
        return;
    const int i = m_panes[pane].chooser->findData(id);
    if (i >= 0)
        m_panes[pane].chooser->setCurrentIndex(i);
}

QStringList FigureGrid::paneFigures() const {
    QStringList ids;
    for (int i = 0; i < paneCount(); ++i)
        ids << m_panes[i].chooser->currentData().toString();
    return ids;
}

FigureView* FigureGrid::paneView(int pane) const {
    return pane >= 0 && pane < 4 ? m_panes[pane].view : nullptr;
}

void FigureGrid::updateSpec(const FigureSpec& spec) {
    for (int i = 0; i < paneCount(); ++i)
        if (m_panes[i].chooser->currentData().toString() == spec.id)
            m_panes[i].view->setSpec(spec);
}

void FigureGrid::setExportDpi(int dpi) {
    for (Pane& p : m_panes) {
        ExportOptions options = p.view->exportOptions();
        options.dpi = dpi;
        p.view->setExportOptions(options);
    }
}

void FigureGrid::focusNextPane() {
    const int n = paneCount();
    int current = -1;
    for (int i = 0; i < n; ++i)
        if (m_panes[i].box->isAncestorOf(QApplication::focusWidget()) || m_panes[i].box->hasFocus())
            current = i;
    m_panes[(current + 1) % n].chooser->setFocus(Qt::TabFocusReason);
}

void FigureGrid::showPane(int pane) {
    if (pane >= paneCount())
        return; // hidden panes are drawn when they are shown
    FigureSpec spec;
    const QString id = m_panes[pane].chooser->currentData().toString();
    if (!id.isEmpty() && m_source && m_source(id, &spec))
        m_panes[pane].view->setSpec(spec);
}

} // namespace pl::gui
