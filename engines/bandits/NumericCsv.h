#pragma once
/// A small CSV reader for numeric tables that keeps the 1-based line of every data row, so that
/// later checks (a mean outside [0, 1], a zero mean with p ≤ 0) can name the line. Separators ',',
/// ';' or tab; '#' comment lines and blank lines are skipped; the first remaining line is a header
/// when any of its fields is not a number. Refuses NaN/inf, non-numeric fields and ragged rows
/// with pl::InputError (file, line, column, reason). Pure; any thread.

#include <Eigen/Core>

#include <cstdint>
#include <string>
#include <vector>

namespace pl::bandits {

struct NumericTable {
    std::vector<std::string> header; ///< empty when the file has none
    Eigen::MatrixXd values;          ///< rows x cols
    std::vector<int64_t> lines;      ///< 1-based file line of each row
};

/// Parses \a text; \a name is the file named in errors.
NumericTable parseNumericCsv(const std::string& text, const std::string& name);
/// Reads and parses a file (at most 64 MiB).
NumericTable readNumericCsv(const std::string& path);

/// Splits one CSV line at ',', ';' or tab and trims spaces and a trailing '\r' of each field.
std::vector<std::string> splitCsvLine(const std::string& line);

} // namespace pl::bandits
