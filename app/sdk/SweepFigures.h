#pragma once
/// Figures of a finished sweep (model side: plain FigureSpecs, drawn by the usual exporters):
///  * `claims_by_cell`: heatmap of the fraction of seeds on which each claim holds, per grid cell;
///  * `claim_<id>`: the claim's observed value against the first grid axis (median over seeds with
///    the min–max band, one line per combination of the other axes, at most 4) or against the seed
///    without a grid, with the threshold as a marker;
///  * `phase_<id>`: for two-axis grids, the fraction holding over both axes (a phase diagram).
/// Any thread.

#include "sdk/SweepResults.h"
#include "sdk/figure/FigureSpec.h"

#include <QVector>

namespace pl {

QVector<gui::FigureSpec> sweepFigures(const SweepResults& sweep);

} // namespace pl
