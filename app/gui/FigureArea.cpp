#include "FigureArea.h"

#include <QAction>
#include <QComboBox>
#include <QHBoxLayout>
#include <QJsonArray>
#include <QLabel>
#include <QStackedWidget>
#include <QTabWidget>
#include <QVBoxLayout>

namespace pl::gui {

namespace {

constexpr FigureLayoutMode kModes[] = {FigureLayoutMode::Single, FigureLayoutMode::SideBySide,
                                       FigureLayoutMode::Stacked, FigureLayoutMode::Quad};

} // namespace

FigureArea::FigureArea(QTabWidget* tabs, const QList<QPair<QString, QString>>& figures,
                       FigureGrid::SpecSource source, QWidget* parent)
    : QWidget(parent) {
    setObjectName(QStringLiteral("FigureArea"));
    m_chooser = new QComboBox(this);
    m_chooser->setObjectName(QStringLiteral("LayoutChooser"));
    m_chooser->setToolTip(tr("How many figures to show at once (Ctrl+Alt+1..4; Ctrl+Alt+Right: next pane)"));
    m_chooser->addItem(tr("One figure (tabs)"));
    m_chooser->addItem(tr("Two side by side"));
    m_chooser->addItem(tr("Two stacked"));
    m_chooser->addItem(tr("Four"));
    m_grid = new FigureGrid(std::move(source), this);
    m_grid->setFigures(figures);
    m_stack = new QStackedWidget(this);
    m_stack->addWidget(tabs);
    m_stack->addWidget(m_grid);
    auto* bar = new QHBoxLayout;
    bar->setContentsMargins(0, 0, 0, 0);
    bar->addWidget(new QLabel(tr("Layout:"), this));
    bar->addWidget(m_chooser);
    bar->addStretch(1);
    auto* l = new QVBoxLayout(this);
    l->setContentsMargins(0, 0, 0, 0);
    l->setSpacing(2);
    l->addLayout(bar);
    l->addWidget(m_stack, 1);
    connect(m_chooser, &QComboBox::currentIndexChanged, this, [this](int i) {
        if (i >= 0 && i < 4)
            setLayoutMode(kModes[i]);
    });
    connect(m_grid, &FigureGrid::paneFigureChanged, this, &FigureArea::layoutChanged);
    for (int i = 0; i < 4; ++i) {
        auto* a = new QAction(this);
        a->setShortcut(QKeySequence(Qt::CTRL | Qt::ALT | Qt::Key(Qt::Key_1 + i)));
        a->setShortcutContext(Qt::WidgetWithChildrenShortcut);
        connect(a, &QAction::triggered, this, [this, i] { setLayoutMode(kModes[i]); });
        addAction(a);
    }
    auto* next = new QAction(this);
    next->setShortcut(QKeySequence(Qt::CTRL | Qt::ALT | Qt::Key_Right));
    next->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    connect(next, &QAction::triggered, this, [this] {
        if (layoutMode() != FigureLayoutMode::Single)
            m_grid->focusNextPane();
    });
    addAction(next);
}

void FigureArea::setLayoutMode(FigureLayoutMode mode, const QStringList& figures) {
    const bool changed = mode != layoutMode();
    {
        QSignalBlocker block(m_chooser);
        for (int i = 0; i < 4; ++i)
            if (kModes[i] == mode)
                m_chooser->setCurrentIndex(i);
    }
    if (mode != FigureLayoutMode::Single)
        m_grid->setMode(mode);
    for (int i = 0; i < figures.size(); ++i)
        m_grid->setPaneFigure(i, figures[i]);
    m_stack->setCurrentIndex(mode == FigureLayoutMode::Single ? 0 : 1);
    if (changed || !figures.isEmpty())
        emit layoutChanged();
}

FigureLayoutMode FigureArea::layoutMode() const {
    return m_stack->currentIndex() == 0 ? FigureLayoutMode::Single : m_grid->mode();
}

QJsonObject FigureArea::layoutState() const {
    QJsonObject o{{"mode", figureLayoutName(layoutMode())}};
    if (layoutMode() != FigureLayoutMode::Single)
        o["figures"] = QJsonArray::fromStringList(m_grid->paneFigures());
    return o;
}

bool FigureArea::applyLayoutState(const QJsonObject& state) {
    FigureLayoutMode mode;
    if (!figureLayoutFromName(state.value("mode").toString(), &mode))
        return false;
    QStringList figures;
    for (const QJsonValue& v : state.value("figures").toArray())
        figures << v.toString();
    setLayoutMode(mode, figures);
    return true;
}

} // namespace pl::gui
