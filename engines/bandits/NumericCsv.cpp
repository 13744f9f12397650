#include "NumericCsv.h"

#include "core/CsvReader.h"
#include "core/Errors.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>

namespace pl::bandits {

std::vector<std::string> splitCsvLine(const std::string& line) {
    std::vector<std::string> out;
    std::string cur;
    auto flush = [&] {
        size_t a = 0, b = cur.size();
        while (a < b && (cur[a] == ' ' || cur[a] == '\t'))
            ++a;
        while (b > a && (cur[b - 1] == ' ' || cur[b - 1] == '\t' || cur[b - 1] == '\r'))
            --b;
        out.push_back(cur.substr(a, b - a));
        cur.clear();
    };
    for (char c : line) {
        if (c == ',' || c == ';' || c == '\t')
            flush();
        else
            cur.push_back(c);
    }
    flush();
    return out;
}

namespace {

/// Parses a whole field as a double; false when it is not one number.
bool parseNumber(const std::string& s, double* v) {
    if (s.empty())
        return false;
    errno = 0;
    char* end = nullptr;
    *v = std::strtod(s.c_str(), &end);
    return end == s.c_str() + s.size();
}

} // namespace

NumericTable parseNumericCsv(const std::string& text, const std::string& name) {
    NumericTable t;
    std::vector<std::vector<double>> rows;
    size_t pos = 0;
    int64_t lineNo = 0;
    bool first = true;
    size_t cols = 0;
    while (pos <= text.size()) {
        size_t nl = text.find('\n', pos);
        if (nl == std::string::npos)
            nl = text.size();
        std::string line = text.substr(pos, nl - pos);
        pos = nl + 1;
        ++lineNo;
        if (!line.empty() && line.back() == '\r')
            line.pop_back();
        const size_t nb = line.find_first_not_of(" \t");
        if (nb == std::string::npos || line[nb] == '#')
            continue;
        const std::vector<std::string> f = splitCsvLine(line);
        if (first) {
            first = false;
            bool numeric = true;
            double v;
            for (const auto& s : f)
                numeric = numeric && parseNumber(s, &v);
            if (!numeric) {
                t.header = f;
                cols = f.size();
                continue;
            }
        }
        if (cols == 0)
            cols = f.size();
        if (f.size() != cols)
            throw InputError(
                name, "ragged row: " + std::to_string(f.size()) + " fields, expected " + std::to_string(cols),
                lineNo);
        std::vector<double> row(cols);
        for (size_t j = 0; j < cols; ++j) {
            if (!parseNumber(f[j], &row[j]))
                throw InputError(name, "not a number: '" + f[j].substr(0, 40) + "'", lineNo, int64_t(j) + 1);
            if (!std::isfinite(row[j]))
                throw InputError(name, "NaN or infinite value '" + f[j].substr(0, 40) + "'", lineNo,
                                 int64_t(j) + 1);
        }
        rows.push_back(std::move(row));
        t.lines.push_back(lineNo);
        if (rows.size() * cols > 20'000'000)
            throw InputError(name, "table too large (more than 20 million numbers)", lineNo);
    }
    if (rows.empty())
        throw InputError(name, "no data rows", lineNo);
    t.values.resize(Eigen::Index(rows.size()), Eigen::Index(cols));
    for (size_t i = 0; i < rows.size(); ++i)
        for (size_t j = 0; j < cols; ++j)
            t.values(Eigen::Index(i), Eigen::Index(j)) = rows[i][j];
    return t;
}

NumericTable readNumericCsv(const std::string& path) {
    return parseNumericCsv(readFileChecked(path, 64ll << 20), path);
}

} // namespace pl::bandits
