#pragma once
/// `paperlab sweep` (docs/cli-contract.md): every grid cell × seed through the same engine path as
/// `run`, one result JSON per run (atomic, resumable), a tidy `sweep.csv` and `sweep.json` with each
/// claim's fraction of seeds holding and its 95% Wilson interval, per cell and overall. Runs on
/// `--jobs` worker threads (engines are stateless); the main thread prints progress.

#include "CliOptions.h"

#include <QTextStream>

#include <functional>

namespace pl {
class FigureRenderer;
class JobRunner;
class PluginManager;
} // namespace pl

namespace pl::cli {

/// Returns the exit code; throws Failure like the other commands.
int cmdSweep(const CliOptions& o, PluginManager& pm, JobRunner& runner, QTextStream& err);

/// `report PANEL --sweep DIR --out FILE.html|FILE.pdf|OUTDIR`: the robustness report of a finished
/// sweep; OUTDIR also receives every sweep figure as .png, .svg and .csv. `renderer` is asked for
/// only after the id and input checks (it throws the export failure when there is none).
int cmdSweepReport(const CliOptions& o, PluginManager& pm, const std::function<FigureRenderer&()>& renderer);

} // namespace pl::cli
