#pragma once
/// The two summary files of a sweep directory (docs/cli-contract.md, `paperlab sweep`): the tidy
/// table sweep.csv (one row per run: grid values, seed, every metric, every claim's observed
/// value and verdict, elapsed ms) and sweep.json (plan, per-cell and overall claim tallies). Written
/// by the CLI and by the GUI's Sweep dialog, read back by SweepResults. Any thread.

#include "core/ResultDocument.h"
#include "sdk/SweepPlan.h"

#include <QByteArray>
#include <QJsonObject>
#include <QString>

#include <vector>

namespace pl {

/// What the files describe; the pointers are borrowed for the call.
struct SweepRecord {
    QString panel;
    QString preset;   ///< preset applied before --set ("" for none)
    QJsonObject sets; ///< the --set values, key → text
    const SweepPlan* plan = nullptr;
    const std::vector<SweepCell>* runs = nullptr;         ///< plan->runs()
    const std::vector<ResultDocument>* results = nullptr; ///< results[i] of runs[i]
};

/// sweep.csv: header, then one row per run in run order.
QByteArray sweepTableCsv(const SweepRecord& record);
/// sweep.json (format paperlab-sweep/1).
QByteArray sweepSummaryJson(const SweepRecord& record);

} // namespace pl

namespace pl {

/// Writes a sweep directory that `paperlab sweep` can resume and `paperlab report --sweep` reads:
/// every finished run (a result with a panel) as <fileStem>.json, then sweep.csv and sweep.json.
/// Each file is written whole or not at all. False with a message naming the file on failure.
bool saveSweepDirectory(const QString& dir, const SweepRecord& record, QString* error);

} // namespace pl
