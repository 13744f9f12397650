#include "CliRunner.h"

#include "CliOptions.h"
#include "CliSupport.h"
#include "SweepCommand.h"
#include "core/Errors.h"
#include "frontend/Frontend.h"
#include "sdk/FigureLayoutPlan.h"
#include "sdk/JobRunner.h"
#include "sdk/PanelModel.h"
#include "sdk/PaperPlugin.h"
#include "sdk/PluginManager.h"
#include "sdk/RunComparison.h"
#include "sdk/Session.h"
#include "sdk/Tour.h"
#include "sdk/Version.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSaveFile>

namespace pl::cli {

namespace {

const char* kHelp = R"(Usage:
  paperlab [SESSION.paperlab.json]           open the GUI (optionally restoring a session)
  paperlab list [--json]                     every panel: id, title, paper, tags, figures
  paperlab params PANEL [--json]             the panel's parameters and presets
  paperlab run PANEL [OPTIONS] --out RESULT.json
  paperlab figure PANEL FIGURE_ID [OPTIONS] --out FILE.png|FILE.svg|FILE.pdf
  paperlab figure PANEL all [OPTIONS] --out DIR
  paperlab report PANEL|all [OPTIONS] [--tour NAME] --out DIR|FILE.html|FILE.pdf
  paperlab report PANEL --sweep SWEEP_DIR --out DIR|FILE.html|FILE.pdf
  paperlab report PANEL --compare A.json B.json --out DIR|FILE.html|FILE.pdf
  paperlab replay SESSION.paperlab.json --out DIR
  paperlab sweep PANEL [OPTIONS] [--grid K=v1,v2,...|K=lo:hi:n[:log]]... [--seeds A..B|N] [--jobs N] --out DIR
  paperlab --version | --help
Options: --set KEY=VALUE (repeatable), --preset NAME, --seed N, --input FILE (repeatable),
         --format png,svg,pdf, --dpi N, --threads N, --backend auto|cpu|cuda
Exit codes: 0 done, 1 usage, 2 unknown panel or figure, 3 bad input file,
            4 engine failed or cancelled, 5 export failed.
)";

/// The rendering side for the commands that draw: the frontend module's renderer, or the reason
/// it could not be loaded (then drawing is an export failure, exit 5).
struct Renderer {
    FigureRenderer* renderer = nullptr;
    QString whyMissing;

    FigureRenderer& get() const {
        if (!renderer)
            throw Failure{ExportFailed, whyMissing.isEmpty()
                                            ? QStringLiteral("the renderer module is not available")
                                            : whyMissing};
        return *renderer;
    }
};

gui::FigureSpec buildFigure(const IPaperPlugin& plugin, const ResultDocument& d, const QString& figureId) {
    try {
        return plugin.buildFigure(figureId, d);
    } catch (const std::exception& e) {
        throw Failure{EngineFailed, QStringLiteral("figure '%1': %2").arg(figureId, e.what())};
    }
}

void exportFigure(FigureRenderer& r, const gui::FigureSpec& spec, const QString& path, int dpi) {
    QString err;
    if (!r.exportFigure(spec, path, dpi, &err))
        throw Failure{ExportFailed, err.isEmpty() ? QStringLiteral("cannot export %1").arg(path) : err};
}

int cmdList(const CliOptions& o, PluginManager& pm, QTextStream& out) {
    if (o.json) {
        QJsonArray arr;
        for (const auto& p : pm.plugins())
            arr.append(p.toJson());
        out << QJsonDocument(arr).toJson(QJsonDocument::Indented);
        return Ok;
    }
    for (const auto& p : pm.plugins()) {
        out << p.id << "\t" << p.title;
        if (!p.error.isEmpty())
            out << "\t[broken: " << p.error << "]";
        out << "\n";
    }
    return Ok;
}

int cmdParams(const CliOptions& o, PluginManager& pm, JobRunner& runner, QTextStream& out) {
    if (o.positional.size() != 1)
        throw Failure{Usage, QStringLiteral("usage: paperlab params PANEL [--json]")};
    CliOptions plain = o;
    plain.sets.clear();
    plain.inputs.clear();
    Prepared p = prepare(o.positional[0], plain, pm, runner);
    const auto specs = p.model->engine().params();
    if (o.json) {
        QJsonArray arr;
        for (const auto& s : specs) {
            QJsonObject j{{"key", QString::fromStdString(s.key)},
                          {"label", QString::fromStdString(s.label)},
                          {"type", QString::fromStdString(toString(s.type))},
                          {"unit", QString::fromStdString(s.unit)},
                          {"help", QString::fromStdString(s.help)}};
            ParamValue def = s.defaultValue;
            if (auto i = std::get_if<int64_t>(&def))
                j["default"] = double(*i);
            else if (auto d = std::get_if<double>(&def))
                j["default"] = *d;
            else if (auto b = std::get_if<bool>(&def))
                j["default"] = *b;
            else
                j["default"] = QString::fromStdString(std::get<std::string>(def));
            if (s.type == ParamType::Int || s.type == ParamType::Double) {
                j["min"] = s.min;
                j["max"] = s.max;
                j["log_scale"] = s.logScale;
            }
            if (s.type == ParamType::Choice) {
                QJsonArray c;
                for (const auto& x : s.choices)
                    c.append(QString::fromStdString(x));
                j["choices"] = c;
            }
            arr.append(j);
        }
        QJsonArray presets;
        for (const auto& pr : p.info->presets)
            presets.append(
                QJsonObject{{"name", pr.name}, {"description", pr.description}, {"params", pr.params}});
        QJsonObject doc{{"panel", p.info->id}, {"params", arr}, {"presets", presets}};
        QJsonArray exts;
        for (const auto& e : p.model->engine().inputExtensions())
            exts.append(QString::fromStdString(e));
        doc["inputs"] = QJsonObject{{"max", p.model->engine().maxInputs()}, {"extensions", exts}};
        out << QJsonDocument(doc).toJson(QJsonDocument::Indented);
        return Ok;
    }
    for (const auto& s : specs) {
        out << QString::fromStdString(s.key) << "\t" << QString::fromStdString(toString(s.type)) << "\t"
            << QString::fromStdString(s.allowedText()) << "\tdefault "
            << QString::fromStdString(toString(s.defaultValue));
        if (!s.unit.empty())
            out << " " << QString::fromStdString(s.unit);
        out << "\t" << QString::fromStdString(s.help) << "\n";
    }
    for (const auto& pr : p.info->presets)
        out << "preset\t" << pr.name << "\t" << pr.description << "\n";
    return Ok;
}

int cmdRun(const CliOptions& o, PluginManager& pm, JobRunner& runner) {
    if (o.positional.size() != 1)
        throw Failure{Usage, QStringLiteral("usage: paperlab run PANEL [OPTIONS] --out RESULT.json")};
    const QString outPath = needOut(o);
    Prepared p = prepare(o.positional[0], o, pm, runner);
    const ResultDocument d = compute(*p.model);
    writeAtomically(outPath, QByteArray::fromStdString(d.toJson(2) + "\n"));
    return Ok;
}

int cmdFigure(const CliOptions& o, PluginManager& pm, JobRunner& runner, const Renderer& renderer) {
    if (o.positional.size() != 2)
        throw Failure{Usage,
                      QStringLiteral("usage: paperlab figure PANEL FIGURE_ID|all [OPTIONS] --out FILE|DIR")};
    const QString outPath = needOut(o);
    const QString panel = o.positional[0], fig = o.positional[1];
    const PluginInfo* info = pm.info(panel);
    if (info && fig != QLatin1String("all") && !info->figure(fig)) {
        QStringList ids;
        for (const auto& f : info->figures)
            ids << f.id;
        throw Failure{UnknownId, QStringLiteral("panel '%1' has no figure '%2' (known: %3)")
                                     .arg(panel, fig, ids.join(QStringLiteral(", ")))};
    }
    if (fig != QLatin1String("all")) {
        const QString suffix = QFileInfo(outPath).suffix().toLower();
        if (suffix != QLatin1String("png") && suffix != QLatin1String("svg") &&
            suffix != QLatin1String("pdf"))
            throw Failure{Usage, QStringLiteral("--out must end in .png, .svg or .pdf")};
    }
    Prepared p = prepare(panel, o, pm, runner);
    FigureRenderer& r = renderer.get();
    const ResultDocument d = compute(*p.model);
    if (fig != QLatin1String("all")) {
        exportFigure(r, buildFigure(*p.model->plugin(), d, fig), outPath, o.dpi);
        return Ok;
    }
    ensureDir(outPath);
    const QStringList formats = o.formats.isEmpty() ? QStringList{QStringLiteral("png")} : o.formats;
    for (const auto& f : p.info->figures) {
        const gui::FigureSpec spec = buildFigure(*p.model->plugin(), d, f.id);
        for (const QString& fmt : formats)
            exportFigure(r, spec, QDir(outPath).filePath(f.id + QLatin1Char('.') + fmt), o.dpi);
    }
    return Ok;
}

/// `report PANEL --tour NAME`: one figure per tour step, each computed with that step's parameters.
int cmdTourReport(const CliOptions& o, PluginManager& pm, JobRunner& runner, const Renderer& renderer) {
    const QString outPath = needOut(o);
    const QString id = o.positional[0];
    if (id == QLatin1String("all"))
        throw Failure{Usage, QStringLiteral("--tour needs one panel, not 'all'")};
    const QString suffix = QFileInfo(outPath).suffix().toLower();
    const bool toFile = suffix == QLatin1String("html") || suffix == QLatin1String("pdf");
    Prepared p = prepare(id, o, pm, runner);
    Tour tour;
    QString err;
    if (!Tour::load(*p.info, o.tour, &tour, &err))
        throw Failure{UnknownId, err};
    FigureRenderer& r = renderer.get();
    const ParamSet base = p.model->params();
    std::vector<ResultDocument> results;
    for (int i = 0; i < tour.steps.size(); ++i) {
        try {
            p.model->setParams(tour.paramsAt(i, base, *p.info));
        } catch (const UsageError& e) {
            throw Failure{Usage, QString::fromStdString(e.what())};
        }
        results.push_back(compute(*p.model));
    }
    const IPaperPlugin& plugin = *p.model->plugin();
    bool ok = true;
    if (toFile) {
        const bool html = suffix == QLatin1String("html");
        ok = r.writeTourReport(*p.info, plugin, tour, results, o.dpi, html ? outPath : QString(),
                               html ? QString() : outPath, &err);
    } else {
        ensureDir(outPath);
        const QString stem = QDir(outPath).filePath(QStringLiteral("%1-tour-%2").arg(id, tour.name));
        ok = r.writeTourReport(*p.info, plugin, tour, results, o.dpi, stem + QStringLiteral(".html"),
                               stem + QStringLiteral(".pdf"), &err);
    }
    if (!ok)
        throw Failure{ExportFailed, err};
    return Ok;
}

ResultDocument readResultFile(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        throw Failure{BadInput, QStringLiteral("%1: cannot read (%2)").arg(path, f.errorString())};
    try {
        return ResultDocument::fromJson(f.readAll().toStdString(), path.toStdString());
    } catch (const std::exception& e) {
        throw Failure{BadInput, QString::fromUtf8(e.what())};
    }
}

/// `report PANEL --compare A.json B.json --out DIR|FILE`: the A/B comparison of two saved results.
int cmdCompareReport(const CliOptions& o, PluginManager& pm, const Renderer& renderer) {
    const QString outPath = needOut(o);
    const QString panel = o.positional[0];
    const PluginInfo* info = pm.info(panel);
    QString e;
    IPaperPlugin* plugin = info ? pm.load(panel, &e) : nullptr;
    if (!plugin)
        throw Failure{UnknownId, info ? e : QStringLiteral("unknown panel '%1'").arg(panel)};
    const ResultDocument a = readResultFile(o.compare[0]), b = readResultFile(o.compare[1]);
    for (const auto& [path, d] : {std::pair{o.compare[0], &a}, std::pair{o.compare[1], &b}})
        if (QString::fromStdString(d->panel) != panel)
            throw Failure{Usage, QStringLiteral("%1 is a result of panel '%2', not '%3'")
                                     .arg(path, QString::fromStdString(d->panel), panel)};
    QVector<gui::FigureSpec> figures;
    for (const auto& f : info->figures)
        figures << compareFigures(buildFigure(*plugin, a, f.id), buildFigure(*plugin, b, f.id),
                                  CompareView::Overlay);
    FigureRenderer& r = renderer.get();
    const QString suffix = QFileInfo(outPath).suffix().toLower();
    bool ok = true;
    if (suffix == QLatin1String("html") || suffix == QLatin1String("pdf")) {
        const bool html = suffix == QLatin1String("html");
        ok = r.writeCompareReport(*info, a, b, figures, o.dpi, html ? outPath : QString(),
                                  html ? QString() : outPath, &e);
    } else {
        const QString figDir = QDir(outPath).filePath(QStringLiteral("figures"));
        ensureDir(figDir);
        for (const gui::FigureSpec& f : figures)
            for (const char* fmt : {"png", "svg", "csv"})
                exportFigure(r, f, QDir(figDir).filePath(f.id + QLatin1Char('.') + QLatin1String(fmt)),
                             o.dpi);
        const QString stem = QDir(outPath).filePath(panel + QStringLiteral("-compare"));
        ok = r.writeCompareReport(*info, a, b, figures, o.dpi, stem + QStringLiteral(".html"),
                                  stem + QStringLiteral(".pdf"), &e);
    }
    if (!ok)
        throw Failure{ExportFailed, e};
    return Ok;
}

int cmdReport(const CliOptions& o, PluginManager& pm, JobRunner& runner, const Renderer& renderer) {
    if (o.positional.size() != 1)
        throw Failure{
            Usage, QStringLiteral("usage: paperlab report PANEL|all [OPTIONS] --out DIR|FILE.html|FILE.pdf")};
    if (!o.tour.isEmpty())
        return cmdTourReport(o, pm, runner, renderer);
    if (!o.sweepDir.isEmpty())
        return cmdSweepReport(o, pm, [&renderer]() -> FigureRenderer& { return renderer.get(); });
    if (!o.compare.isEmpty())
        return cmdCompareReport(o, pm, renderer);
    const QString outPath = needOut(o);
    const QString which = o.positional[0];
    const QString suffix = QFileInfo(outPath).suffix().toLower();
    const bool toFile = suffix == QLatin1String("html") || suffix == QLatin1String("pdf");
    QStringList panels;
    if (which == QLatin1String("all")) {
        if (toFile)
            throw Failure{Usage, QStringLiteral("report all needs --out DIR")};
        for (const auto& p : pm.plugins())
            if (p.error.isEmpty())
                panels << p.id;
    } else {
        panels << which;
    }
    if (!toFile)
        ensureDir(outPath);
    for (const QString& id : panels) {
        Prepared p = prepare(id, o, pm, runner);
        FigureRenderer& r = renderer.get();
        const ResultDocument d = compute(*p.model);
        QString err;
        bool ok = true;
        if (toFile) {
            const bool html = suffix == QLatin1String("html");
            ok = r.writeReport(*p.info, *p.model->plugin(), d, o.dpi, html ? outPath : QString(),
                               html ? QString() : outPath, &err);
        } else {
            ok = r.writeReport(*p.info, *p.model->plugin(), d, o.dpi,
                               QDir(outPath).filePath(id + QStringLiteral(".html")),
                               QDir(outPath).filePath(id + QStringLiteral(".pdf")), &err);
        }
        if (!ok)
            throw Failure{ExportFailed, err};
    }
    return Ok;
}

/// The split figure area the session saved for panel `slot` (layout.figureLayouts), drawn as one
/// composite: layout.png and layout.svg in `dir`. Nothing for a panel shown as tabs.
void writeReplayLayout(const Session& s, int slot, const PluginInfo& info, const IPaperPlugin& plugin,
                       const ResultDocument& d, FigureRenderer& r, const QString& dir, int dpi) {
    QStringList ids;
    for (const auto& f : info.figures)
        ids << f.id;
    for (const QJsonValue& v : s.layout.value(QStringLiteral("figureLayouts")).toArray()) {
        FigureLayoutPlan plan;
        if (v.toObject().value(QStringLiteral("panel")).toInt(-1) != slot ||
            !figureLayoutPlan(v.toObject(), ids, &plan))
            continue;
        QVector<gui::FigureSpec> specs;
        for (const QString& id : plan.figures)
            specs << buildFigure(plugin, d, id);
        QString e;
        for (const char* fmt : {"png", "svg"})
            if (!r.exportLayout(specs, plan.rows, plan.cols,
                                QDir(dir).filePath(QStringLiteral("layout.") + QLatin1String(fmt)), dpi, &e))
                throw Failure{ExportFailed, e};
    }
}

int cmdReplay(const CliOptions& o, PluginManager& pm, JobRunner& runner, const Renderer& renderer,
              QTextStream& err) {
    if (o.positional.size() != 1)
        throw Failure{Usage, QStringLiteral("usage: paperlab replay SESSION.paperlab.json --out DIR")};
    const QString outPath = needOut(o);
    Session s;
    QString e;
    if (!Session::read(o.positional[0], &s, &e))
        throw Failure{BadInput, e};
    const QString sessionDir = QFileInfo(o.positional[0]).absolutePath();
    ensureDir(outPath);
    int index = 0;
    for (const QJsonObject& rec : s.panels) {
        ++index;
        const QString id = rec.value("plugin").toString();
        const PluginInfo* info = pm.info(id);
        IPaperPlugin* plugin = info ? pm.load(id, &e) : nullptr;
        if (!plugin) {
            err << "paperlab: warning: session panel " << index << " needs plugin '" << id
                << "', which is not available; skipped\n";
            continue;
        }
        PanelModel model(*info, plugin, &runner);
        if (!model.restoreState(rec, sessionDir, &e))
            throw Failure{BadInput,
                          QStringLiteral("%1: panel %2 (%3): %4").arg(o.positional[0]).arg(index).arg(id, e)};
        FigureRenderer& r = renderer.get();
        const ResultDocument d = compute(model);
        const QString dir =
            QDir(outPath).filePath(QStringLiteral("%1-%2").arg(index, 2, 10, QLatin1Char('0')).arg(id));
        ensureDir(dir);
        writeAtomically(QDir(dir).filePath(QStringLiteral("result.json")),
                        QByteArray::fromStdString(d.toJson(2) + "\n"));
        for (const auto& f : info->figures) {
            const gui::FigureSpec spec = buildFigure(*plugin, d, f.id);
            exportFigure(r, spec, QDir(dir).filePath(f.id + QStringLiteral(".png")), o.dpi);
            exportFigure(r, spec, QDir(dir).filePath(f.id + QStringLiteral(".svg")), o.dpi);
        }
        if (!r.writeReport(*info, *plugin, d, o.dpi, QDir(dir).filePath(QStringLiteral("report.html")),
                           QString(), &e))
            throw Failure{ExportFailed, e};
        writeReplayLayout(s, index - 1, *info, *plugin, d, r, dir, o.dpi);
    }
    return Ok;
}

} // namespace

bool isHeadlessCommand(const QStringList& args) {
    if (args.isEmpty())
        return false;
    static const QStringList cmds{"list",  "params",    "run",    "figure", "report", "replay",
                                  "sweep", "--version", "--help", "-h",     "help"};
    const QString& first = args.first();
    if (cmds.contains(first))
        return true;
    // Anything else that is neither a Qt option ("-style ...") nor a session file is a mistyped
    // command: answer it on the command line instead of opening a window.
    if (first.startsWith(QLatin1Char('-')))
        return false;
    return !first.endsWith(QLatin1String(".json")) && !QFileInfo::exists(first);
}

bool needsRenderer(const QStringList& args) {
    static const QStringList drawing{"figure", "report", "replay"};
    return !args.isEmpty() && drawing.contains(args.first());
}

int run(const QStringList& args, PluginManager& pm, QTextStream& out, QTextStream& err,
        FigureRenderer* renderer, const QString& rendererError) {
    if (!args.isEmpty() && (args.first() == QLatin1String("--help") || args.first() == QLatin1String("-h") ||
                            args.first() == QLatin1String("help"))) {
        out << kHelp;
        return Ok;
    }
    if (!args.isEmpty() && args.first() == QLatin1String("--version")) {
        out << "paperlab " << paperlabVersion() << " (commit " << paperlabCommit() << ")\n";
        return Ok;
    }
    CliOptions o;
    QString why;
    if (!CliOptions::parse(args, &o, &why)) {
        err << "paperlab: error: " << why << "\n";
        return Usage;
    }
    JobRunner runner(nullptr, 1);
    const Renderer drawing{renderer, rendererError};
    try {
        if (o.command == QLatin1String("list"))
            return cmdList(o, pm, out);
        if (o.command == QLatin1String("params"))
            return cmdParams(o, pm, runner, out);
        if (o.command == QLatin1String("run"))
            return cmdRun(o, pm, runner);
        if (o.command == QLatin1String("figure"))
            return cmdFigure(o, pm, runner, drawing);
        if (o.command == QLatin1String("report"))
            return cmdReport(o, pm, runner, drawing);
        if (o.command == QLatin1String("replay"))
            return cmdReplay(o, pm, runner, drawing, err);
        if (o.command == QLatin1String("sweep"))
            return cmdSweep(o, pm, runner, err);
        throw Failure{Usage, QStringLiteral("unknown command '%1' (try --help)").arg(o.command)};
    } catch (const Failure& f) {
        err << "paperlab: error: " << f.message << "\n";
        return f.code;
    }
}

} // namespace pl::cli
