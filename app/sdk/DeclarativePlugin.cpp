#include "DeclarativePlugin.h"

#include "PluginInfo.h"

#include <QFile>

namespace pl {

DeclarativePlugin::DeclarativePlugin(const PanelDefinition& definition, QString id)
    : m_definition(definition), m_id(std::move(id)) {}

QString DeclarativePlugin::check(const PanelDefinition& definition, const QString& id,
                                 const PluginInfo& info) {
    QStringList problems;
    if (info.id != id)
        problems << QStringLiteral("built as panel '%1' but paper.json has id '%2'").arg(id, info.id);
    problems << definition.mismatches(info);
    return problems.join(QStringLiteral("; "));
}

bool DeclarativePlugin::initialize(const PluginInfo& info, QString* error) {
    const QString problems = check(m_definition, m_id, info);
    if (problems.isEmpty())
        return true;
    if (error)
        *error = QStringLiteral("paper.json and the figure table disagree: ") + problems;
    return false;
}

std::unique_ptr<Engine> DeclarativePlugin::createEngine() const {
    return m_definition.createEngine();
}

gui::FigureSpec DeclarativePlugin::buildFigure(const QString& figureId, const ResultDocument& result) const {
    return m_definition.build(figureId, result);
}

QString DeclarativePlugin::helpMarkdown() const {
    QFile f(QStringLiteral(":/%1/help.md").arg(m_id));
    return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QStringLiteral("# %1\n").arg(m_id);
}

} // namespace pl
