#include "TemplatePlugin.h"

#include "TemplateEngine.h"
#include "sdk/FigureHelpers.h"

#include <QFile>
#include <stdexcept>

std::unique_ptr<pl::Engine> templatePlugin::createEngine() const { return std::make_unique<pl::templ::TemplateEngine>(); }

pl::gui::FigureSpec templatePlugin::buildFigure(const QString& id, const pl::ResultDocument& d) const {
    if (id != QLatin1String("msd"))
        throw std::invalid_argument("unknown figure '" + id.toStdString() + "'");
    pl::gui::FigureSpec f;
    f.id = id;
    f.title = QStringLiteral("Mean squared displacement");
    f.chart.xLabel = QStringLiteral("step");
    f.chart.yLabel = QStringLiteral("mean squared displacement (units²)");
    f.chart.series << pl::fig::series(d, "msd", QStringLiteral("simulated"));
    f.caption = QStringLiteral("A straight line through the origin: diffusion.");
    return f;
}

QString templatePlugin::helpMarkdown() const {
    QFile f(QStringLiteral(":/template/help.md"));
    return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
}
