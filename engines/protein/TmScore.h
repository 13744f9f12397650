#pragma once
/// TM-score and GDT-TS of a model against a reference with residues already matched, following
/// the definition of the TMscore program (Zhang & Skolnick 2004): normalised by the reference
/// length, d0 = 1.24 (L - 15)^(1/3) - 1.8 (at least 0.5), and the maximum over a superposition
/// search: seeds on every window of lengths n, n/2, n/4, ... down to 4 of the matched pairs, each
/// extended iteratively (up to 20 rounds) by re-superposing on the pairs closer than a cutoff
/// derived from d0 (clamped to [4.5, 8] A, relaxed by 0.5 A while fewer than 3 pairs qualify).
/// Written from the published description, not from the program's source. Thread-safe.

#include "Superposition.h"

#include <Eigen/Core>

#include <functional>
#include <vector>

namespace pl::protein {

struct TmResult {
    double tmScore = 0;            ///< normalised by the reference length
    double gdtTs = 0;              ///< (P1 + P2 + P4 + P8) / 4, fractions of the reference length
    double rmsdCommon = 0;         ///< Kabsch RMSD over all matched pairs, Angstrom
    double d0 = 0;                 ///< Angstrom
    int common = 0;                ///< matched pairs
    int lengthRef = 0;             ///< reference length used for normalisation
    Superposition best;            ///< the superposition that gave the TM-score (mobile onto reference)
    std::vector<double> deviation; ///< per matched pair after `best`, Angstrom
};

/// d0 of the TM-score for a reference of length L (Angstrom).
double tmD0(int lengthRef);

/// Scores `mobile` against `reference` (3 x n each, pair i matched to pair i). `lengthRef` is
/// the full reference length (>= n). `poll` is called between seeds (may throw to cancel).
/// Throws std::invalid_argument when sizes differ or n < 1.
TmResult tmScore(const Eigen::Matrix3Xd& mobile, const Eigen::Matrix3Xd& reference, int lengthRef,
                 const std::function<void()>& poll = {});

} // namespace pl::protein
