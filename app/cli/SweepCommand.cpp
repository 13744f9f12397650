#include "SweepCommand.h"

#include "CliSupport.h"
#include "MpiSweep.h"
#include "core/Errors.h"
#include "frontend/Frontend.h"
#include "sdk/ClaimRobustness.h"
#include "sdk/PluginInfo.h"
#include "sdk/PluginManager.h"
#include "sdk/SweepFigures.h"
#include "sdk/SweepFiles.h"
#include "sdk/SweepPlan.h"
#include "sdk/SweepResults.h"
#include "sdk/SweepRunner.h"
#include "sdk/Version.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <chrono>
#include <cstdio>
#include <set>
#include <unistd.h>

namespace pl::cli {

namespace {

using Clock = std::chrono::steady_clock;

/// A finished run found on disk is reused only when it is the same run: panel, seed, every
/// parameter (as text) and the inputs' hashes.
bool sameRun(const ResultDocument& d, const ResultDocument& want) {
    if (d.panel != want.panel || d.seed != want.seed || d.params.size() != want.params.size() ||
        d.inputs.size() != want.inputs.size())
        return false;
    for (size_t i = 0; i < d.params.size(); ++i)
        if (d.params[i].first != want.params[i].first ||
            toString(d.params[i].second) != toString(want.params[i].second))
            return false;
    for (size_t i = 0; i < d.inputs.size(); ++i)
        if (d.inputs[i].sha256 != want.inputs[i].sha256)
            return false;
    return true;
}

struct SweepState {
    const PanelModel* model = nullptr;
    const SweepPlan* plan = nullptr;
    std::vector<SweepCell> runs;
    std::vector<ResultDocument> results;
    std::vector<int> pending;
    QString dir;
    ParamSet base;
};

QString pathOf(const SweepState& s, const SweepCell& r) {
    return QDir(s.dir).filePath(QString::fromStdString(r.fileStem) + QStringLiteral(".json"));
}

/// Marks every run whose result file already holds that run as done.
int resume(SweepState& s) {
    int reused = 0;
    for (size_t i = 0; i < s.runs.size(); ++i) {
        QFile f(pathOf(s, s.runs[i]));
        if (f.open(QIODevice::ReadOnly)) {
            try {
                ResultDocument d =
                    ResultDocument::fromJson(f.readAll().toStdString(), f.fileName().toStdString());
                ResultDocument want;
                want.panel = s.model->engine().id();
                want.seed = s.runs[i].seed;
                want.setParams(s.plan->paramsOf(s.base, s.runs[i]));
                for (const auto& in : s.model->inputs())
                    want.inputs.push_back({"", in.sha256.toStdString()});
                if (sameRun(d, want)) {
                    s.results[i] = std::move(d);
                    ++reused;
                    continue;
                }
            } catch (const std::exception&) {
                // not a finished run of this sweep: computed again
            }
        }
        s.pending.push_back(int(i));
    }
    return reused;
}

/// The file text of a finished run (the same for a local run and one from another MPI rank).
std::string cellJson(ResultDocument& d) {
    d.paperlabVersion = paperlabVersion().toStdString();
    return d.toJson(2) + "\n";
}

MpiSweepJob mpiJob(const SweepState& s) {
    return MpiSweepJob{s.model->snapshot(), s.model->engineThreads(), s.plan, s.base, s.runs};
}

/// Runs the pending runs here (`mpi` null) or on every MPI rank (this is rank 0).
void runAll(SweepState& s, int jobs, MpiTransport* mpi, QTextStream& err) {
    const bool tty = isatty(fileno(stderr));
    const auto t0 = Clock::now();
    auto last = t0 - std::chrono::seconds(10);
    auto progress = [&](int done, int total) {
        const auto now = Clock::now();
        if (!tty && done != total && now - last < std::chrono::seconds(5))
            return;
        last = now;
        const double sec = std::chrono::duration<double>(now - t0).count();
        const double rate = sec > 0 ? done / sec : 0;
        err << (tty ? "\r" : "")
            << QStringLiteral("sweep: %1/%2 runs, %3 runs/s, ETA %4 s")
                   .arg(done)
                   .arg(total)
                   .arg(rate, 0, 'f', 2)
                   .arg(rate > 0 ? (total - done) / rate : 0.0, 0, 'f', 0)
            << (tty && done != total ? "" : "\n");
        err.flush();
    };
    auto done = [&s](size_t i, ResultDocument& d) {
        writeAtomically(pathOf(s, s.runs[i]), QByteArray::fromStdString(cellJson(d)));
        s.results[i] = std::move(d); // each index is written by one worker only
    };
    auto remoteDone = [&s](size_t i, const std::string& json) {
        const QString path = pathOf(s, s.runs[i]);
        ResultDocument d = ResultDocument::fromJson(json, path.toStdString());
        writeAtomically(path, QByteArray::fromStdString(json));
        s.results[i] = std::move(d);
    };
    MpiSweepStats where;
    const std::exception_ptr failure =
        mpi ? serveMpiSweep(*mpi, mpiJob(s), s.pending, jobs, done, remoteDone, progress, &where)
            : SweepRunner::run(*s.model, *s.plan, s.base, s.runs, s.pending, jobs, done, progress);
    if (mpi)
        err << "sweep: " << where.here << " runs on rank 0, " << where.remote << " on ranks 1.."
            << mpi->size() - 1 << "\n";
    if (!failure)
        return;
    try {
        rethrowAsFailure(failure);
    } catch (const Failure& f) {
        throw Failure{f.code, QStringLiteral("sweep stopped: %1 (finished runs are kept in %2; run the same "
                                             "command again to resume)")
                                  .arg(f.message, s.dir)};
    }
}

} // namespace

int cmdSweep(const CliOptions& o, PluginManager& pm, JobRunner& runner, QTextStream& err) {
    if (o.positional.size() != 1)
        throw Failure{
            Usage,
            QStringLiteral("usage: paperlab sweep PANEL [OPTIONS] [--grid K=v1,v2,...|K=lo:hi:n[:log]]... "
                           "[--seeds A..B|N] [--jobs N] --out DIR")};
    const QString dir = needOut(o);
    Prepared p = prepare(o.positional[0], o, pm, runner);
    std::vector<std::string> grids;
    for (const QString& g : o.grids)
        grids.push_back(g.toStdString());
    SweepPlan plan;
    try {
        plan = SweepPlan::parse(p.model->engine().params(), grids,
                                o.seeds.isEmpty() ? std::string("1..10") : o.seeds.toStdString());
    } catch (const UsageError& e) {
        throw Failure{Usage, QString::fromStdString(e.what())};
    }
    SweepState s;
    s.model = p.model.get();
    s.plan = &plan;
    s.runs = plan.runs();
    s.results.resize(s.runs.size());
    s.dir = dir;
    s.base = p.model->params();
    // Every rank got here the same way (same options, plan and inputs); MPI starts only now, so
    // usage and input errors above end each rank on its own with the contract's exit code.
    std::unique_ptr<MpiTransport> mpi;
    if (startedByMpiLauncher())
        mpi = openMpiTransport();
    try {
        if (mpi && mpi->rank() > 0) {
            workMpiSweep(*mpi, mpiJob(s), cellJson);
            return Ok;
        }
        ensureDir(dir);
        const int reused = resume(s);
        if (reused)
            err << "sweep: " << reused << " of " << s.runs.size() << " runs already done in " << dir << "\n";
        if (mpi)
            err << "sweep: " << s.pending.size() << " runs over " << mpi->size() << " MPI ranks\n";
        runAll(s, o.jobs, mpi.get(), err);
        QJsonObject sets;
        for (const auto& [k, v] : o.sets)
            sets[k] = v;
        const SweepRecord record{
            QString::fromStdString(s.model->engine().id()), o.preset, sets, s.plan, &s.runs, &s.results};
        writeAtomically(QDir(dir).filePath(QStringLiteral("sweep.csv")), sweepTableCsv(record));
        writeAtomically(QDir(dir).filePath(QStringLiteral("sweep.json")), sweepSummaryJson(record));
    } catch (const Failure& f) {
        if (!mpi || mpi->size() < 2)
            throw;
        // The other ranks may be waiting on this one: end them all with this code.
        err << "paperlab: error: " << (mpi->rank() ? QStringLiteral("rank %1: ").arg(mpi->rank()) : QString())
            << f.message << "\n";
        err.flush();
        mpi->abort(f.code);
    }
    return Ok;
}

int cmdSweepReport(const CliOptions& o, PluginManager& pm, const std::function<FigureRenderer&()>& renderer) {
    if (o.positional.size() != 1)
        throw Failure{Usage, QStringLiteral(
                                 "usage: paperlab report PANEL --sweep DIR --out FILE.html|FILE.pdf|OUTDIR")};
    const QString outPath = needOut(o);
    const QString panel = o.positional[0];
    const PluginInfo* info = pm.info(panel);
    if (!info)
        throw Failure{UnknownId, QStringLiteral("unknown panel '%1'").arg(panel)};
    SweepResults sweep;
    QString err;
    if (!SweepResults::read(o.sweepDir, &sweep, &err))
        throw Failure{BadInput, err};
    if (sweep.panel != panel)
        throw Failure{
            Usage,
            QStringLiteral("%1 is a sweep of panel '%2', not '%3'").arg(o.sweepDir, sweep.panel, panel)};
    const QVector<gui::FigureSpec> figures = sweepFigures(sweep);
    FigureRenderer& r = renderer();
    const QString suffix = QFileInfo(outPath).suffix().toLower();
    bool ok = true;
    if (suffix == QLatin1String("html") || suffix == QLatin1String("pdf")) {
        const bool html = suffix == QLatin1String("html");
        ok = r.writeSweepReport(*info, sweep, figures, o.dpi, html ? outPath : QString(),
                                html ? QString() : outPath, &err);
    } else {
        const QString figDir = QDir(outPath).filePath(QStringLiteral("figures"));
        ensureDir(figDir);
        for (const gui::FigureSpec& f : figures)
            for (const char* fmt : {"png", "svg", "csv"})
                if (!r.exportFigure(f, QDir(figDir).filePath(f.id + QLatin1Char('.') + QLatin1String(fmt)),
                                    o.dpi, &err))
                    throw Failure{ExportFailed, err};
        const QString stem = QDir(outPath).filePath(panel + QStringLiteral("-robustness"));
        ok = r.writeSweepReport(*info, sweep, figures, o.dpi, stem + QStringLiteral(".html"),
                                stem + QStringLiteral(".pdf"), &err);
    }
    if (!ok)
        throw Failure{ExportFailed, err};
    return Ok;
}

} // namespace pl::cli
