#pragma once
/// What the headless commands share (app/cli): the failure type that carries an exit code, a panel
/// prepared from the options (preset, --set, seed, inputs), one engine run with the contract's error
/// mapping, and atomic file writes. Main thread unless stated.

#include "CliOptions.h"
#include "core/ResultDocument.h"
#include "sdk/PanelModel.h"

#include <QByteArray>
#include <QString>
#include <exception>
#include <memory>

namespace pl {
class JobRunner;
class PluginManager;
struct PluginInfo;
} // namespace pl

namespace pl::cli {

/// Thrown by the commands; run() prints the message and returns the code.
struct Failure {
    int code;
    QString message;
};

/// A panel set up from the options, ready to run.
struct Prepared {
    std::unique_ptr<PanelModel> model;
    const PluginInfo* info = nullptr;
};

/// Loads PANEL and applies --preset, --set, --seed, --threads, --backend and --input
/// (exit 2 unknown panel, 1 usage, 3 bad input, 4 plugin failure).
Prepared prepare(const QString& panel, const CliOptions& o, PluginManager& pm, JobRunner& runner);
/// Runs the model's engine once with its parameters and seed (exit 3, 1 or 4 on failure).
ResultDocument compute(PanelModel& model);
/// Rethrows an engine-run exception as the Failure of the contract (input 3, usage 1, other 4).
[[noreturn]] void rethrowAsFailure(std::exception_ptr e);
/// Writes a whole file or nothing (QSaveFile); exit 5 on failure. Any thread.
void writeAtomically(const QString& path, const QByteArray& bytes);
/// --out, or a usage failure.
QString needOut(const CliOptions& o);
/// mkpath, or an export failure.
void ensureDir(const QString& dir);

} // namespace pl::cli
