#include "Errors.h"

namespace pl {

InputError::InputError(std::string file, std::string reason, int64_t line, int64_t column, int64_t byteOffset)
    : std::runtime_error(format(file, reason, line, column, byteOffset)), m_file(std::move(file)),
      m_reason(std::move(reason)), m_line(line), m_column(column), m_byteOffset(byteOffset) {}

std::string InputError::format(const std::string& file, const std::string& reason, int64_t line,
                               int64_t column, int64_t byteOffset) {
    std::string s = file.empty() ? std::string("<input>") : file;
    if (line > 0) {
        s += ":" + std::to_string(line);
        if (column > 0)
            s += ":" + std::to_string(column);
    } else if (byteOffset >= 0) {
        s += ": byte " + std::to_string(byteOffset);
    }
    return s + ": " + reason;
}

} // namespace pl
