#pragma once
/// Exception types shared by engines, readers and the CLI. Each maps to one CLI exit code
/// (see docs/cli-contract.md): UsageError -> 1, InputError -> 3, EngineError and
/// Cancelled -> 4.

#include <cstdint>
#include <stdexcept>
#include <string>

namespace pl {

/// A parameter or option that is not allowed (unknown key, out of range, wrong type).
class UsageError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// A user file that cannot be used. Carries the file, the 1-based line (0 = unknown), the
/// 1-based column (0 = unknown) or a byte offset (-1 = unknown), and the reason.
class InputError : public std::runtime_error {
public:
    InputError(std::string file, std::string reason, int64_t line = 0, int64_t column = 0,
               int64_t byteOffset = -1);
    const std::string& file() const { return m_file; }
    const std::string& reason() const { return m_reason; }
    int64_t line() const { return m_line; }
    int64_t column() const { return m_column; }
    int64_t byteOffset() const { return m_byteOffset; }

private:
    static std::string format(const std::string& file, const std::string& reason, int64_t line,
                              int64_t column, int64_t byteOffset);
    std::string m_file;
    std::string m_reason;
    int64_t m_line;
    int64_t m_column;
    int64_t m_byteOffset;
};

/// The computation itself failed (numerical breakdown, invalid state).
class EngineError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// Thrown by RunContext::throwIfCancelled() when the caller asked the engine to stop.
class Cancelled : public std::runtime_error {
public:
    Cancelled() : std::runtime_error("cancelled") {}
};

} // namespace pl
