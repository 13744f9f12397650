#include "CliSupport.h"

#include "core/Errors.h"
#include "sdk/JobRunner.h"
#include "sdk/PaperPlugin.h"
#include "sdk/PluginManager.h"
#include "sdk/Version.h"

#include <QDir>
#include <QSaveFile>
#include <functional>

namespace pl::cli {

Prepared prepare(const QString& panel, const CliOptions& o, PluginManager& pm, JobRunner& runner) {
    const PluginInfo* info = pm.info(panel);
    if (!info) {
        QStringList ids;
        for (const auto& p : pm.plugins())
            ids << p.id;
        throw Failure{
            UnknownId,
            QStringLiteral("unknown panel '%1' (known: %2)").arg(panel, ids.join(QStringLiteral(", ")))};
    }
    QString err;
    IPaperPlugin* plugin = pm.load(panel, &err);
    if (!plugin)
        throw Failure{EngineFailed, QStringLiteral("panel '%1' cannot be loaded: %2").arg(panel, err)};
    Prepared p;
    p.info = info;
    try {
        p.model = std::make_unique<PanelModel>(*info, plugin, &runner);
    } catch (const std::exception& e) {
        throw Failure{EngineFailed, QStringLiteral("panel '%1' failed to start: %2").arg(panel, e.what())};
    }
    if (o.backend == QLatin1String("cuda") && !p.model->engine().hasCudaPath())
        throw Failure{Usage,
                      QStringLiteral("--backend cuda: panel '%1' has no CUDA path in this build").arg(panel)};
    if (!o.backend.isEmpty())
        p.model->setBackend(parseBackend(o.backend.toStdString()));
    if (!o.preset.isEmpty() && !p.model->applyPreset(o.preset, &err))
        throw Failure{Usage, err};
    ParamSet ps = p.model->params();
    try {
        for (const auto& [k, v] : o.sets)
            ps.setText(k.toStdString(), v.toStdString());
    } catch (const UsageError& e) {
        throw Failure{Usage, QString::fromStdString(e.what())};
    }
    p.model->setParams(ps);
    if (o.seed)
        p.model->setSeed(*o.seed);
    p.model->setEngineThreads(o.threads);
    if (o.inputs.size() > std::max(0, p.model->engine().maxInputs()))
        throw Failure{Usage, QStringLiteral("panel '%1' takes at most %2 input file(s)")
                                 .arg(panel)
                                 .arg(p.model->engine().maxInputs())};
    for (int i = 0; i < o.inputs.size(); ++i)
        if (!p.model->loadInput(o.inputs[i], &err, i > 0))
            throw Failure{BadInput, err};
    return p;
}

namespace {

ResultDocument guarded(const std::function<ResultDocument()>& work) {
    try {
        ResultDocument d = work();
        d.paperlabVersion = paperlabVersion().toStdString();
        return d;
    } catch (...) {
        rethrowAsFailure(std::current_exception());
    }
}

} // namespace

void rethrowAsFailure(std::exception_ptr e) {
    try {
        std::rethrow_exception(e);
    } catch (const Failure&) {
        throw;
    } catch (const InputError& x) {
        throw Failure{BadInput, QString::fromStdString(x.what())};
    } catch (const UsageError& x) {
        throw Failure{Usage, QString::fromStdString(x.what())};
    } catch (const Cancelled&) {
        throw Failure{EngineFailed, QStringLiteral("the engine was cancelled")};
    } catch (const std::exception& x) {
        throw Failure{EngineFailed, QStringLiteral("the engine failed: %1").arg(x.what())};
    } catch (...) {
        throw Failure{EngineFailed, QStringLiteral("the engine failed")};
    }
}

ResultDocument compute(PanelModel& model) {
    return guarded([&] {
        RunContext ctx(model.seed(), model.engineThreads());
        return model.runBlocking(ctx);
    });
}

void writeAtomically(const QString& path, const QByteArray& bytes) {
    QSaveFile f(path);
    if (!f.open(QIODevice::WriteOnly) || f.write(bytes) != bytes.size() || !f.commit())
        throw Failure{ExportFailed, QStringLiteral("cannot write %1: %2").arg(path, f.errorString())};
}

QString needOut(const CliOptions& o) {
    if (o.out.isEmpty())
        throw Failure{Usage, QStringLiteral("missing --out")};
    return o.out;
}

void ensureDir(const QString& dir) {
    if (!QDir().mkpath(dir))
        throw Failure{ExportFailed, QStringLiteral("cannot create directory %1").arg(dir)};
}

} // namespace pl::cli
