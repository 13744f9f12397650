#include "streams/StreamCsv.h"

#include "core/Errors.h"

#include <cerrno>
#include <cstdlib>
#include <string>

namespace pl::streams {

namespace {

constexpr size_t kMaxLine = size_t(1) << 20;

std::string_view trim(std::string_view s) {
    size_t a = 0, b = s.size();
    while (a < b && (s[a] == ' ' || s[a] == '\t'))
        ++a;
    while (b > a && (s[b - 1] == ' ' || s[b - 1] == '\t' || s[b - 1] == '\r'))
        --b;
    s = s.substr(a, b - a);
    if (s.size() >= 2 && s.front() == '"' && s.back() == '"')
        s = s.substr(1, s.size() - 2);
    return s;
}

} // namespace

bool splitQuotedCsv(std::string_view line, std::vector<std::string>& fields) {
    fields.clear();
    bool quoted = false;
    int depth = 0;
    size_t start = 0;
    for (size_t i = 0; i < line.size(); ++i) {
        const char c = line[i];
        if (c == '"')
            quoted = !quoted;
        else if (!quoted && c == '[')
            ++depth;
        else if (!quoted && c == ']')
            depth = depth > 0 ? depth - 1 : -1;
        else if (!quoted && depth == 0 && c == ',') {
            fields.emplace_back(trim(line.substr(start, i - start)));
            start = i + 1;
        }
        if (depth < 0)
            return false;
    }
    fields.emplace_back(trim(line.substr(start)));
    return !quoted && depth == 0;
}

bool parseDouble(std::string_view s, double* v) {
    if (s.empty() || s.size() > 64)
        return false;
    const std::string tmp(s);
    char* end = nullptr;
    errno = 0;
    *v = std::strtod(tmp.c_str(), &end);
    return end == tmp.c_str() + tmp.size();
}

bool parseInt64(std::string_view s, int64_t* v) {
    if (s.empty() || s.size() > 20)
        return false;
    const std::string tmp(s);
    char* end = nullptr;
    errno = 0;
    const long long x = std::strtoll(tmp.c_str(), &end, 10);
    if (end != tmp.c_str() + tmp.size() || errno == ERANGE)
        return false;
    *v = int64_t(x);
    return true;
}

bool parseNumberList(std::string_view s, std::vector<double>& out) {
    out.clear();
    s = trim(s);
    if (!s.empty() && s.front() == '[') {
        if (s.back() != ']')
            return false;
        s = s.substr(1, s.size() - 2);
    }
    size_t i = 0;
    while (i < s.size()) {
        while (i < s.size() && (s[i] == ' ' || s[i] == ',' || s[i] == ';' || s[i] == '\t'))
            ++i;
        size_t j = i;
        while (j < s.size() && s[j] != ' ' && s[j] != ',' && s[j] != ';' && s[j] != '\t')
            ++j;
        if (j > i) {
            double v = 0;
            if (!parseDouble(s.substr(i, j - i), &v))
                return false;
            out.push_back(v);
        }
        i = j;
    }
    return true;
}

StreamCsvReader::StreamCsvReader(std::istream& in, std::string name) : m_in(in), m_name(std::move(name)) {}

bool StreamCsvReader::next(std::vector<std::string>& fields) {
    while (std::getline(m_in, m_buf)) {
        ++m_line;
        if (m_buf.size() > kMaxLine)
            fail("line longer than 1 MiB");
        const std::string_view t = trim(m_buf);
        if (t.empty() || t.front() == '#')
            continue;
        if (!splitQuotedCsv(m_buf, fields))
            fail("unterminated quote or bracket");
        return true;
    }
    return false;
}

void StreamCsvReader::fail(const std::string& reason, int64_t column) const {
    throw InputError(m_name, reason, m_line, column);
}

} // namespace pl::streams
