#pragma once
/// A finished sweep read back from its directory (`paperlab sweep --out DIR`): the plan from
/// sweep.json and every run's result JSON, for reports and figures. Plain value; any thread.

#include "core/ResultDocument.h"
#include "sdk/SweepPlan.h"

#include <QString>

#include <vector>

namespace pl {

struct SweepResults {
    QString dir;
    QString panel;
    SweepPlan plan;
    std::vector<SweepCell> runs;      ///< plan.runs()
    std::vector<ResultDocument> docs; ///< docs[i] is the result of runs[i]

    /// Reads DIR/sweep.json and every run file. False with a message naming the file and what is
    /// wrong (not a sweep, a run missing: resume the sweep first, a result of another panel).
    static bool read(const QString& dir, SweepResults* out, QString* error);
    /// The runs of cell `c` (its seeds), in seed order.
    std::vector<const ResultDocument*> cell(int c) const;
    /// "k1 = v1, k2 = v2" of cell `c` ("all runs" without a grid).
    QString cellLabel(int c) const;
};

} // namespace pl
