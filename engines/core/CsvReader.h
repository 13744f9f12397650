#pragma once
/// Staged, validated reader for numeric CSV matrices. Accepts ',', ';', tab or whitespace
/// separators, '#' comment lines, blank lines and one optional header row (all fields
/// non-numeric). Refuses ragged rows, non-numeric fields, non-finite values (unless allowed)
/// and files larger than the size cap, naming the file, line and column.

#include <Eigen/Core>
#include <cstdint>
#include <string>
#include <vector>

namespace pl {

struct CsvOptions {
    bool allowNonFinite = false;       ///< accept nan/inf fields
    int64_t maxBytes = 512ll << 20;    ///< refuse bigger files before reading them
    int64_t maxCells = 50'000'000;     ///< refuse more cells than this (checked while parsing)
};

struct CsvTable {
    Eigen::MatrixXd values;            ///< rows x cols
    std::vector<std::string> header;   ///< empty when the file has none
};

class CsvReader {
public:
    /// Reads a whole file. Throws pl::InputError with file, line, column and reason.
    static CsvTable readFile(const std::string& path, const CsvOptions& opt = {});
    /// Parses text already in memory; `name` is used in messages.
    static CsvTable parse(const std::string& text, const std::string& name, const CsvOptions& opt = {});
};

/// Reads a file into memory after checking its size. Throws pl::InputError (missing,
/// unreadable, too big). Shared by every text reader.
std::string readFileChecked(const std::string& path, int64_t maxBytes);

} // namespace pl
