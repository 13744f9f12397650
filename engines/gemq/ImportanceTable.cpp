#include "ImportanceTable.h"

#include "core/CsvReader.h"
#include "core/Errors.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>
#include <set>
#include <tuple>

namespace pl::gemq {

namespace {

std::string trim(const std::string& s) {
    size_t a = 0, b = s.size();
    while (a < b && std::isspace(static_cast<unsigned char>(s[a])))
        ++a;
    while (b > a && std::isspace(static_cast<unsigned char>(s[b - 1])))
        --b;
    return s.substr(a, b - a);
}

std::vector<std::string> splitComma(const std::string& line) {
    std::vector<std::string> out;
    size_t from = 0;
    while (true) {
        const size_t at = line.find(',', from);
        out.push_back(trim(line.substr(from, at == std::string::npos ? std::string::npos : at - from)));
        if (at == std::string::npos)
            return out;
        from = at + 1;
    }
}

double number(const std::string& s, const std::string& name, int64_t line, int64_t col, const char* what) {
    size_t used = 0;
    double v = 0;
    try {
        v = std::stod(s, &used);
    } catch (const std::exception&) {
        used = 0;
    }
    if (s.empty() || used != s.size() || !std::isfinite(v))
        throw InputError(name, std::string(what) + " '" + s + "' is not a finite number", line, col);
    return v;
}

int integer(const std::string& s, const std::string& name, int64_t line, int64_t col, const char* what,
            int lo, int hi) {
    const double v = number(s, name, line, col, what);
    if (v != std::floor(v) || v < lo || v > hi)
        throw InputError(name,
                         std::string(what) + " '" + s + "' is not an integer in [" + std::to_string(lo) +
                             ", " + std::to_string(hi) + "]",
                         line, col);
    return int(v);
}

} // namespace

std::shared_ptr<ImportanceInput> parseImportanceCsv(const std::string& text, const std::string& name) {
    struct Row {
        double cost, params;
        int64_t line;
    };
    std::map<std::tuple<int, int, int>, Row> rows;
    std::map<std::pair<int, int>, Row> params;
    bool header = false;
    int64_t lineNo = 0;
    size_t from = 0;
    while (from < text.size()) {
        size_t end = text.find('\n', from);
        if (end == std::string::npos)
            end = text.size();
        std::string line = text.substr(from, end - from);
        from = end + 1;
        ++lineNo;
        if (!line.empty() && line.back() == '\r')
            line.pop_back();
        const std::string t = trim(line);
        if (t.empty() || t[0] == '#')
            continue;
        const auto f = splitComma(t);
        if (!header) {
            std::string h;
            for (const auto& x : f) {
                std::string lx = x;
                for (char& c : lx)
                    c = char(std::tolower(static_cast<unsigned char>(c)));
                h += (h.empty() ? "" : ",") + lx;
            }
            if (h != "layer,expert,bits,cost,params")
                throw InputError(name, "the header must be 'layer,expert,bits,cost,params'", lineNo, 1);
            header = true;
            continue;
        }
        if (f.size() != 5)
            throw InputError(
                name, "expected 5 fields (layer,expert,bits,cost,params), found " + std::to_string(f.size()),
                lineNo);
        const int l = integer(f[0], name, lineNo, 1, "layer", 0, 1023);
        const int e = integer(f[1], name, lineNo, 2, "expert", 0, 4095);
        const int b = integer(f[2], name, lineNo, 3, "bits", 1, 16);
        const double c = number(f[3], name, lineNo, 4, "cost");
        if (c < 0)
            throw InputError(name, "negative cost " + f[3], lineNo, 4);
        const double n = number(f[4], name, lineNo, 5, "params");
        if (!(n > 0) || n > 1e15)
            throw InputError(name, "params " + f[4] + " must be positive", lineNo, 5);
        if (!rows.emplace(std::make_tuple(l, e, b), Row{c, n, lineNo}).second)
            throw InputError(name,
                             "duplicate row for layer " + f[0] + ", expert " + f[1] + ", bits " + f[2] +
                                 " (first on line " + std::to_string(rows.at({l, e, b}).line) + ")",
                             lineNo);
        const auto [it, fresh] = params.emplace(std::make_pair(l, e), Row{c, n, lineNo});
        if (!fresh && it->second.params != n)
            throw InputError(name,
                             "inconsistent params for layer " + f[0] + ", expert " + f[1] + ": " + f[4] +
                                 " here, " + std::to_string(int64_t(it->second.params)) + " on line " +
                                 std::to_string(it->second.line),
                             lineNo, 5);
        if (rows.size() > 1000000)
            throw InputError(name, "more than 1 000 000 rows", lineNo);
    }
    if (!header)
        throw InputError(name, "empty file: expected the header 'layer,expert,bits,cost,params'", lineNo);
    if (rows.empty())
        throw InputError(name, "no data rows", lineNo);
    auto in = std::make_shared<ImportanceInput>();
    std::set<int> bits;
    for (const auto& [k, r] : rows) {
        in->layers = std::max(in->layers, std::get<0>(k) + 1);
        in->experts = std::max(in->experts, std::get<1>(k) + 1);
        bits.insert(std::get<2>(k));
    }
    in->bits.assign(bits.begin(), bits.end());
    const size_t need = size_t(in->layers) * size_t(in->experts) * bits.size();
    if (need > 1000000)
        throw InputError(name, "the grid layers x experts x bits spans more than 1 000 000 combinations");
    in->cost.resize(Eigen::Index(in->layers) * in->experts, Eigen::Index(bits.size()));
    in->params.assign(size_t(in->layers) * size_t(in->experts), 0);
    for (int l = 0; l < in->layers; ++l)
        for (int e = 0; e < in->experts; ++e)
            for (size_t j = 0; j < in->bits.size(); ++j) {
                const auto it = rows.find({l, e, in->bits[j]});
                if (it == rows.end())
                    throw InputError(name, "missing combination layer " + std::to_string(l) + ", expert " +
                                               std::to_string(e) + ", bits " + std::to_string(in->bits[j]) +
                                               " (every layer x expert x bits of the file's grid is needed)");
                const Eigen::Index r = Eigen::Index(l) * in->experts + e;
                in->cost(r, Eigen::Index(j)) = it->second.cost;
                in->params[size_t(r)] = it->second.params;
            }
    in->path = name;
    in->kind = "importance";
    in->summary = "importance table: " + std::to_string(in->layers) + " layers x " +
                  std::to_string(in->experts) + " experts x " + std::to_string(in->bits.size()) +
                  " bit-widths";
    return in;
}

std::shared_ptr<ImportanceInput> readImportanceCsv(const std::string& path) {
    return parseImportanceCsv(readFileChecked(path, int64_t(64) << 20), path);
}

} // namespace pl::gemq
