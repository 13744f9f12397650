#pragma once
/// Reads PDB and mmCIF files (optionally .gz) through gemmi and reduces them to C-alpha models.
/// gemmi tolerates several kinds of broken input silently (short ATOM lines, unparsable
/// coordinates read as 0, MODEL without ENDMDL), so the text is validated first by our own
/// checks; every failure is a pl::InputError naming the file, the line and the reason.
/// Stateless; thread-safe.

#include "ProteinStructure.h"

#include <memory>
#include <string>

namespace pl::protein {

class StructureReader {
public:
    /// Largest decompressed input accepted (bytes).
    static constexpr size_t kMaxBytes = size_t(512) << 20;

    /// Reads a file from disk (gzip detected by its magic bytes). Throws InputError.
    static std::shared_ptr<ProteinStructure> readFile(const std::string& path);
    /// Parses bytes already in memory; `name` is used in messages and for the format guess
    /// (".cif"/".mmcif" → mmCIF, else the content decides). Throws InputError.
    static std::shared_ptr<ProteinStructure> parse(const std::string& bytes, const std::string& name);
    /// Inflates gzip data (refuses more than kMaxBytes). Throws InputError.
    static std::string gunzip(const std::string& bytes, const std::string& name);
};

} // namespace pl::protein
