// bench_sweep: throughput of `paperlab sweep` (issue 33). The same 40 runs (4 grid cells x 10
// seeds; --quick: 4 x 3) with --jobs 1, --jobs 2 and mpirun -np 2: runs per second and the ratio to
// --jobs 1 (aim >= 1.8 on 2 cores); and the per-run overhead of a sweep (wall time per run of
// --jobs 1 minus the engine's own elapsed_ms) against a bare `paperlab run` process (its wall time
// minus its elapsed_ms: process start, plugin load, JSON out). Processes are timed from outside.
#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>

#include <algorithm>
#include <cstdio>
#include <vector>

namespace {

const QStringList kWorkload{QStringLiteral("ssn-nash"),
                            QStringLiteral("--set"),
                            QStringLiteral("rows=100"),
                            QStringLiteral("--set"),
                            QStringLiteral("cols=100"),
                            QStringLiteral("--set"),
                            QStringLiteral("solver=prm_plus"),
                            QStringLiteral("--set"),
                            QStringLiteral("compare_solvers=false"),
                            QStringLiteral("--set"),
                            QStringLiteral("claim_games=0"),
                            QStringLiteral("--set"),
                            QStringLiteral("lp_reference=false"),
                            QStringLiteral("--set"),
                            QStringLiteral("target_gap=1e-12")};

/// Runs a process to the end; its wall time in ms, or -1 on failure (message on stderr).
double timed(const QString& program, const QStringList& args, const QProcessEnvironment& env = {}) {
    QProcess p;
    if (!env.isEmpty())
        p.setProcessEnvironment(env);
    QElapsedTimer t;
    t.start();
    p.start(program, args);
    if (!p.waitForFinished(1800000) || p.exitCode() != 0) {
        std::fprintf(stderr, "%s failed: %s\n", qPrintable(program), p.readAllStandardError().constData());
        return -1;
    }
    return double(t.nsecsElapsed()) / 1e6;
}

/// Sum of elapsed_ms over the sweep's cell files (the engines' own time).
double engineMs(const QString& dir) {
    double sum = 0;
    for (const QString& f : QDir(dir).entryList({QStringLiteral("*_seed-*.json")}, QDir::Files)) {
        QFile file(QDir(dir).filePath(f));
        if (file.open(QIODevice::ReadOnly))
            sum += QJsonDocument::fromJson(file.readAll()).object().value("elapsed_ms").toDouble();
    }
    return sum;
}

QJsonObject row(const QString& engine, const QString& size, const QString& unit, double ours, double peer) {
    return QJsonObject{{"engine", engine}, {"size", size}, {"unit", unit},
                       {"ours", ours},     {"peer", peer}, {"ratio", peer > 0 ? ours / peer : 0.0}};
}

} // namespace

int main(int argc, char** argv) {
    QCoreApplication app(argc, argv);
    const QStringList args = app.arguments();
    const bool quick = args.contains(QStringLiteral("--quick"));
    const int at = int(args.indexOf(QStringLiteral("--json")));
    const QString json = at > 0 && at + 1 < args.size() ? args[at + 1] : QString();
    const QString bin = QStringLiteral(PAPERLAB_BINARY);
    const int seeds = quick ? 3 : 10;
    const int runs = 4 * seeds;
    const QStringList grid{QStringLiteral("--grid"), QStringLiteral("max_iterations=100000:200000:4"),
                           QStringLiteral("--seeds"), QStringLiteral("1..%1").arg(seeds)};
    QTemporaryDir dir;
    auto sweep = [&](const QString& name, const QStringList& extra) {
        return QStringList{QStringLiteral("sweep")} + kWorkload + grid + extra +
               QStringList{QStringLiteral("--out"), dir.filePath(name)};
    };
    const double one =
        timed(bin, sweep(QStringLiteral("one"), {QStringLiteral("--jobs"), QStringLiteral("1")}));
    const double two =
        timed(bin, sweep(QStringLiteral("two"), {QStringLiteral("--jobs"), QStringLiteral("2")}));
    double mpi = -1;
#ifdef PAPERLAB_MPIEXEC
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("OMPI_ALLOW_RUN_AS_ROOT"), QStringLiteral("1"));
    env.insert(QStringLiteral("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM"), QStringLiteral("1"));
    env.insert(QStringLiteral("OMPI_MCA_btl_vader_single_copy_mechanism"), QStringLiteral("none"));
    mpi = timed(
        QStringLiteral(PAPERLAB_MPIEXEC),
        QStringList{QStringLiteral("-np"), QStringLiteral("2"), QStringLiteral("--oversubscribe"), bin} +
            sweep(QStringLiteral("mpi"), {}),
        env);
#endif
    // Bare runs: the first cell's parameters, one process per seed.
    double bareWall = 0, bareEngine = 0;
    for (int s = 1; s <= seeds; ++s) {
        const QString out = dir.filePath(QStringLiteral("bare-%1.json").arg(s));
        bareWall += timed(
            bin, QStringList{QStringLiteral("run")} + kWorkload +
                     QStringList{QStringLiteral("--set"), QStringLiteral("max_iterations=100000"),
                                 QStringLiteral("--seed"), QString::number(s), QStringLiteral("--out"), out});
        QFile f(out);
        if (f.open(QIODevice::ReadOnly))
            bareEngine += QJsonDocument::fromJson(f.readAll()).object().value("elapsed_ms").toDouble();
    }
    if (one < 0 || two < 0)
        return 1;
    const QString size = QStringLiteral("%1 runs").arg(runs);
    QJsonArray rows;
    rows.append(row(QStringLiteral("sweep --jobs 2 vs --jobs 1"), size, QStringLiteral("runs/s"),
                    runs / (two / 1e3), runs / (one / 1e3)));
    if (mpi > 0)
        rows.append(row(QStringLiteral("sweep mpirun -np 2 vs --jobs 1"), size, QStringLiteral("runs/s"),
                        runs / (mpi / 1e3), runs / (one / 1e3)));
    const double sweepOverhead = (one - engineMs(dir.filePath(QStringLiteral("one")))) / runs;
    const double bareOverhead = (bareWall - bareEngine) / seeds;
    rows.append(row(QStringLiteral("overhead per run: sweep vs bare run"), size, QStringLiteral("ms"),
                    sweepOverhead, bareOverhead));
    std::printf("%-40s %-9s %10s %10s %7s %s\n", "engine", "size", "ours", "peer", "ratio", "unit");
    for (const QJsonValue& v : rows) {
        const QJsonObject r = v.toObject();
        std::printf("%-40s %-9s %10.2f %10.2f %7.2f %s\n", qPrintable(r["engine"].toString()),
                    qPrintable(r["size"].toString()), r["ours"].toDouble(), r["peer"].toDouble(),
                    r["ratio"].toDouble(), qPrintable(r["unit"].toString()));
    }
    if (!json.isEmpty()) {
        QFile f(json);
        if (f.open(QIODevice::WriteOnly))
            f.write(QJsonDocument(QJsonObject{{"rows", rows}}).toJson());
    }
    return 0;
}
