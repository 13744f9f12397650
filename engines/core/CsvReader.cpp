#include "CsvReader.h"

#include "Errors.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sys/stat.h>

namespace pl {

std::string readFileChecked(const std::string& path, int64_t maxBytes) {
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0)
        throw InputError(path, "cannot open file (" + std::string(std::strerror(errno)) + ")");
    if (S_ISDIR(st.st_mode))
        throw InputError(path, "is a directory, not a file");
    if (int64_t(st.st_size) > maxBytes)
        throw InputError(path, "file is " + std::to_string(int64_t(st.st_size)) + " bytes, more than the limit of " +
                                   std::to_string(maxBytes) + " bytes");
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw InputError(path, "cannot open file for reading");
    std::string text;
    text.resize(size_t(st.st_size));
    in.read(text.data(), std::streamsize(text.size()));
    text.resize(size_t(in.gcount()));
    return text;
}

namespace {

bool parseNumber(const std::string& tok, double& out) {
    if (tok.empty())
        return false;
    const char* b = tok.c_str();
    char* end = nullptr;
    errno = 0;
    out = std::strtod(b, &end);
    return end == b + tok.size();
}

std::string trim(const std::string& s) {
    size_t a = s.find_first_not_of(" \t\r");
    if (a == std::string::npos)
        return {};
    size_t b = s.find_last_not_of(" \t\r");
    return s.substr(a, b - a + 1);
}

std::vector<std::pair<std::string, int64_t>> splitFields(const std::string& line) {
    // Returns (field, 1-based column of its first character).
    std::vector<std::pair<std::string, int64_t>> out;
    char sep = 0;
    for (char c : line)
        if (c == ',' || c == ';' || c == '\t') {
            sep = c;
            break;
        }
    if (sep) {
        size_t start = 0;
        for (size_t i = 0; i <= line.size(); ++i) {
            if (i == line.size() || line[i] == sep) {
                std::string raw = line.substr(start, i - start);
                size_t lead = raw.find_first_not_of(" \t\r");
                out.emplace_back(trim(raw), int64_t(start + (lead == std::string::npos ? 0 : lead) + 1));
                start = i + 1;
            }
        }
    } else {
        size_t i = 0;
        while (i < line.size()) {
            while (i < line.size() && (line[i] == ' ' || line[i] == '\r'))
                ++i;
            if (i >= line.size())
                break;
            size_t j = i;
            while (j < line.size() && line[j] != ' ' && line[j] != '\r')
                ++j;
            out.emplace_back(line.substr(i, j - i), int64_t(i + 1));
            i = j;
        }
    }
    return out;
}

} // namespace

CsvTable CsvReader::readFile(const std::string& path, const CsvOptions& opt) {
    return parse(readFileChecked(path, opt.maxBytes), path, opt);
}

CsvTable CsvReader::parse(const std::string& text, const std::string& name, const CsvOptions& opt) {
    if (text.find('\0') != std::string::npos)
        throw InputError(name, "binary data (NUL byte) in a text file", 0, 0, int64_t(text.find('\0')));
    CsvTable t;
    std::vector<double> cells;
    int64_t cols = -1, rows = 0, lineNo = 0;
    size_t pos = 0;
    bool seenData = false;
    while (pos <= text.size()) {
        size_t nl = text.find('\n', pos);
        std::string line = text.substr(pos, nl == std::string::npos ? std::string::npos : nl - pos);
        pos = (nl == std::string::npos) ? text.size() + 1 : nl + 1;
        ++lineNo;
        std::string tl = trim(line);
        if (tl.empty() || tl[0] == '#')
            continue;
        auto fields = splitFields(line);
        if (!seenData && t.header.empty()) {
            bool allText = true;
            for (const auto& f : fields) {
                double d;
                if (parseNumber(f.first, d)) {
                    allText = false;
                    break;
                }
            }
            if (allText) {
                for (const auto& f : fields)
                    t.header.push_back(f.first);
                cols = int64_t(fields.size());
                continue;
            }
        }
        if (cols >= 0 && int64_t(fields.size()) != cols)
            throw InputError(name,
                             "ragged row: " + std::to_string(fields.size()) + " fields where the " +
                                 (seenData ? "first row has " : "header has ") + std::to_string(cols),
                             lineNo);
        cols = int64_t(fields.size());
        if (int64_t(cells.size()) + cols > opt.maxCells)
            throw InputError(name, "more than " + std::to_string(opt.maxCells) + " values", lineNo);
        for (const auto& [tok, col] : fields) {
            double d;
            if (!parseNumber(tok, d))
                throw InputError(name, tok.empty() ? "empty field" : "not a number: '" + tok.substr(0, 40) + "'",
                                 lineNo, col);
            if (!std::isfinite(d) && !opt.allowNonFinite)
                throw InputError(name, "non-finite value '" + tok + "'", lineNo, col);
            cells.push_back(d);
        }
        seenData = true;
        ++rows;
    }
    if (rows == 0 || cols <= 0)
        throw InputError(name, "no numeric data");
    t.values.resize(rows, cols);
    for (int64_t r = 0; r < rows; ++r)
        for (int64_t c = 0; c < cols; ++c)
            t.values(r, c) = cells[size_t(r * cols + c)];
    return t;
}

} // namespace pl
