#include "PanelDefinition.h"

#include "PluginInfo.h"

#include <stdexcept>

namespace pl {

PanelDefinition::PanelDefinition(std::function<std::unique_ptr<Engine>()> createEngine,
                                 std::initializer_list<FigureEntry> figures)
    : m_createEngine(std::move(createEngine)), m_figures(figures) {}

const FigureEntry* PanelDefinition::figure(const QString& id) const {
    for (const FigureEntry& e : m_figures)
        if (id == QLatin1String(e.id))
            return &e;
    return nullptr;
}

gui::FigureSpec PanelDefinition::build(const QString& id, const ResultDocument& d) const {
    const FigureEntry* e = figure(id);
    if (!e || !e->build)
        throw std::invalid_argument("unknown figure '" + id.toStdString() + "'");
    gui::FigureSpec f;
    f.id = id;
    f.kind = e->kind;
    f.title = QString::fromUtf8(e->title);
    e->build(d, f);
    f.id = id;
    f.title = QString::fromUtf8(e->title);
    return f;
}

QStringList PanelDefinition::mismatches(const PluginInfo& info) const {
    QStringList out;
    for (const FigureEntry& e : m_figures) {
        const QString id = QString::fromUtf8(e.id);
        const FigureInfo* fi = info.figure(id);
        if (!fi) {
            out << QStringLiteral("figure '%1' is in the code's table but not in paper.json").arg(id);
            continue;
        }
        if (fi->kind != e.kind)
            out << QStringLiteral("figure '%1': paper.json says kind '%2', the code says '%3'")
                       .arg(id, gui::toString(fi->kind), gui::toString(e.kind));
        if (fi->title != QString::fromUtf8(e.title))
            out << QStringLiteral("figure '%1': paper.json says title \"%2\", the code says \"%3\"")
                       .arg(id, fi->title, QString::fromUtf8(e.title));
        if (!e.build)
            out << QStringLiteral("figure '%1' has no builder").arg(id);
    }
    for (const FigureInfo& fi : info.figures)
        if (!figure(fi.id))
            out << QStringLiteral("figure '%1' is in paper.json but not in the code's table").arg(fi.id);
    for (size_t i = 0; i < m_figures.size(); ++i)
        for (size_t j = 0; j < i; ++j)
            if (qstrcmp(m_figures[i].id, m_figures[j].id) == 0)
                out << QStringLiteral("figure '%1' is listed twice in the code's table")
                           .arg(QString::fromUtf8(m_figures[i].id));
    return out;
}

} // namespace pl
