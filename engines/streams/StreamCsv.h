#pragma once
/// A streamed CSV record reader shared by the stream panels: reads one line at a time from an
/// std::istream (never the whole file), skips blank and '#' comment lines, splits at ',' outside
/// double quotes and square brackets (so "[3, 17, 42]" stays one field), strips quotes and spaces,
/// and keeps the 1-based line of the current record for errors. Not thread-safe (one reader per
/// stream); no Qt.

#include <cstdint>
#include <istream>
#include <string>
#include <string_view>
#include <vector>

namespace pl::streams {

class StreamCsvReader {
public:
    /// Reads from \a in (not owned; must outlive the reader); \a name is the file named in errors.
    StreamCsvReader(std::istream& in, std::string name);

    /// The next record's fields; false at the end of the stream. Throws pl::InputError for a line
    /// over 1 MiB or an unterminated quote or bracket.
    bool next(std::vector<std::string>& fields);
    /// 1-based line of the record last returned by next().
    int64_t line() const { return m_line; }
    const std::string& name() const { return m_name; }
    /// Throws pl::InputError naming the file, the current line, the 1-based column (0 = none) and
    /// \a reason.
    [[noreturn]] void fail(const std::string& reason, int64_t column = 0) const;

private:
    std::istream& m_in;
    std::string m_name;
    std::string m_buf;
    int64_t m_line = 0;
};

/// Splits one CSV line at ',' outside quotes and brackets; trims spaces, tabs, '\r' and one pair of
/// enclosing double quotes. Returns false on an unterminated quote or bracket.
bool splitQuotedCsv(std::string_view line, std::vector<std::string>& fields);

/// Parses the whole of \a s as a double (false when it is not exactly one number).
bool parseDouble(std::string_view s, double* v);
/// Parses the whole of \a s as a signed 64-bit integer (false otherwise).
bool parseInt64(std::string_view s, int64_t* v);
/// Parses a list "[a, b, c]", "a b c" or "a;b;c" of numbers; false on any non-number.
bool parseNumberList(std::string_view s, std::vector<double>& out);

} // namespace pl::streams
