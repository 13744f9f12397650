#pragma once
/// Residue correspondence by residue key (chain, number, insertion code): between two
/// structures (for TM-score, GDT-TS) and across the models of an ensemble (residues present in
/// every model). Pure functions.

#include "ProteinStructure.h"

#include <utility>
#include <vector>

namespace pl::protein {

/// Matched residue pairs (index in a, index in b). Matches by full key; when the two models
/// share no chain name, matches the first chain of each by number and insertion code (what the
/// TMscore program does, which reads one chain).
std::vector<std::pair<int, int>> matchResidues(const ProteinModel& a, const ProteinModel& b);

/// Keys of model 0 present in every model, and per model the column of each such key.
struct EnsembleMatch {
    std::vector<ResidueKey> keys;
    std::vector<std::string> resNames;
    std::vector<Eigen::Matrix3Xd> coords; ///< per model, 3 x keys.size()
    int droppedResidues = 0;              ///< residues of model 0 missing in some model
};
EnsembleMatch matchEnsemble(const std::vector<ProteinModel>& models);

} // namespace pl::protein
