#pragma once
/// Data model of a loaded structure, reduced to what the protein engine needs: per model the
/// residues of amino-acid chains with their C-alpha position (one altloc chosen per residue) and
/// the count of ligand atoms. Plain data, no gemmi types; immutable once loaded.

#include "core/Engine.h"

#include <Eigen/Core>

#include <cstdint>
#include <string>
#include <vector>

namespace pl::protein {

/// Residue identity inside one structure: chain name, residue number and insertion code.
struct ResidueKey {
    std::string chain;
    int number = 0;
    char icode = ' '; ///< ' ' when there is none
    bool operator==(const ResidueKey& o) const {
        return number == o.number && icode == o.icode && chain == o.chain;
    }
    bool operator<(const ResidueKey& o) const {
        if (chain != o.chain)
            return chain < o.chain;
        if (number != o.number)
            return number < o.number;
        return icode < o.icode;
    }
    /// "A:42" or "A:42B".
    std::string text() const;
};

/// One model: residues in file order with their C-alpha coordinates (Angstrom).
struct ProteinModel {
    std::string name;                  ///< model number as in the file ("1", "2", ...)
    std::vector<ResidueKey> keys;      ///< one per C-alpha
    std::vector<std::string> resNames; ///< three-letter residue names, parallel to keys
    Eigen::Matrix3Xd ca;               ///< 3 x residues, Angstrom
    int ligandAtoms = 0;               ///< non-water HETATM atoms outside amino-acid residues
};

/// A structure file read by StructureReader (PDB or mmCIF, optionally gzip-compressed).
struct ProteinStructure : LoadedInput {
    std::string format;                ///< "pdb" or "mmcif"
    std::vector<ProteinModel> models;  ///< at least one, each with at least one C-alpha
    std::vector<std::string> warnings; ///< e.g. duplicate residues dropped
};

} // namespace pl::protein
