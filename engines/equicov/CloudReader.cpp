#include "equicov/CloudReader.h"

#include "equicov/Features.h"

#include "core/Errors.h"
#include "core/PathUtil.h"

#include <Eigen/Eigenvalues>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <map>
#include <sstream>

namespace pl::equicov {

namespace {

constexpr size_t kMaxRows = 5'000'000;

std::string trim(const std::string& s) {
    size_t a = 0, b = s.size();
    while (a < b && std::isspace(static_cast<unsigned char>(s[a])))
        ++a;
    while (b > a && std::isspace(static_cast<unsigned char>(s[b - 1])))
        --b;
    return s.substr(a, b - a);
}

std::string lower(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    return s;
}

std::vector<std::string> split(const std::string& line) {
    std::vector<std::string> f;
    std::string cur;
    for (char c : line) {
        if (c == ',' || c == ';' || c == '\t') {
            f.push_back(trim(cur));
            cur.clear();
        } else {
            cur += c;
        }
    }
    f.push_back(trim(cur));
    return f;
}

double number(const std::string& s, const std::string& name, int line, int col) {
    double v = 0;
    const auto r = std::from_chars(s.data(), s.data() + s.size(), v);
    if (s.empty() || r.ec != std::errc() || r.ptr != s.data() + s.size())
        throw InputError(name, "not a number: '" + s.substr(0, 40) + "'", line, col);
    if (!std::isfinite(v))
        throw InputError(name, "non-finite value", line, col);
    return v;
}

/// Data lines (1-based line numbers), comments and blank lines skipped.
std::vector<std::pair<int, std::string>> lines(const std::string& text) {
    std::vector<std::pair<int, std::string>> out;
    std::istringstream in(text);
    std::string l;
    int n = 0;
    while (std::getline(in, l)) {
        ++n;
        const std::string t = trim(l);
        if (!t.empty() && t[0] != '#')
            out.emplace_back(n, t);
        if (out.size() > kMaxRows)
            throw InputError("", "more than 5000000 rows");
    }
    return out;
}

/// Column index of each wanted header name; throws when one is missing.
std::vector<size_t> columns(const std::vector<std::string>& header, const std::vector<std::string>& want,
                            const std::string& name, int line) {
    std::vector<size_t> idx;
    for (const auto& w : want) {
        const auto it = std::find_if(header.begin(), header.end(),
                                     [&](const std::string& h) { return lower(h) == lower(w); });
        if (it == header.end())
            throw InputError(name, "the header has no column '" + w + "'", line);
        idx.push_back(size_t(it - header.begin()));
    }
    return idx;
}

} // namespace

bool looksLikeTensorCsv(const std::string& text) {
    const auto ls = lines(text);
    if (ls.empty())
        return false;
    for (const auto& h : split(ls.front().second))
        if (lower(h) == "t11" || lower(h) == "v1")
            return true;
    return false;
}

std::vector<Cloud> parseCloudCsv(const std::string& text, const std::string& name) {
    const auto ls = lines(text);
    if (ls.empty())
        throw InputError(name, "empty file (expected a header id,x,y,z and one row per point)");
    const auto idx = columns(split(ls.front().second), {"id", "x", "y", "z"}, name, ls.front().first);
    std::map<std::string, size_t> where;
    std::vector<std::string> order;
    std::vector<std::vector<Eigen::Vector3d>> pts;
    for (size_t k = 1; k < ls.size(); ++k) {
        const auto f = split(ls[k].second);
        const size_t need = *std::max_element(idx.begin(), idx.end()) + 1;
        if (f.size() < need)
            throw InputError(name,
                             "expected " + std::to_string(need) + " fields, got " + std::to_string(f.size()),
                             ls[k].first);
        const std::string id = f[idx[0]];
        if (id.empty())
            throw InputError(name, "empty id", ls[k].first, int(idx[0]) + 1);
        auto [it, fresh] = where.emplace(id, pts.size());
        if (fresh) {
            order.push_back(id);
            pts.emplace_back();
        }
        Eigen::Vector3d p;
        for (int c = 0; c < 3; ++c)
            p(c) = number(f[idx[size_t(c) + 1]], name, ls[k].first, int(idx[size_t(c) + 1]) + 1);
        pts[it->second].push_back(p);
    }
    if (order.empty())
        throw InputError(name, "no points");
    std::vector<Cloud> out;
    for (size_t c = 0; c < order.size(); ++c) {
        Cloud cl;
        cl.id = order[c];
        cl.points.resize(Eigen::Index(pts[c].size()), 3);
        for (size_t i = 0; i < pts[c].size(); ++i)
            cl.points.row(Eigen::Index(i)) = pts[c][i].transpose();
        out.push_back(std::move(cl));
    }
    validateClouds(out, name);
    return out;
}

std::vector<Cloud> parsePly(const std::string& text, const std::string& name) {
    std::istringstream in(text);
    std::string l;
    int line = 0;
    auto next = [&] {
        if (!std::getline(in, l))
            throw InputError(name, "unexpected end of file in the PLY header", line);
        ++line;
        return trim(l);
    };
    if (next() != "ply")
        throw InputError(name, "not a PLY file (first line is not 'ply')", 1);
    long long vertices = -1;
    std::vector<std::string> props;
    bool inVertex = false;
    for (;;) {
        const std::string h = next();
        std::istringstream hs(h);
        std::string w;
        hs >> w;
        if (w == "format") {
            std::string f;
            hs >> f;
            if (f != "ascii")
                throw InputError(name, "only ASCII PLY is read (format " + f + ")", line);
        } else if (w == "element") {
            std::string e;
            long long n = -1;
            hs >> e >> n;
            inVertex = e == "vertex";
            if (inVertex) {
                if (n < 0 || n > 5'000'000)
                    throw InputError(name, "bad vertex count", line);
                vertices = n;
            }
        } else if (w == "property" && inVertex) {
            std::string type, pname;
            hs >> type >> pname;
            if (type == "list")
                throw InputError(name, "list properties on vertices are not supported", line);
            props.push_back(pname);
        } else if (w == "end_header") {
            break;
        }
    }
    if (vertices < 0)
        throw InputError(name, "no 'element vertex' in the header", line);
    const auto idx = columns(props, {"x", "y", "z"}, name, line);
    Cloud c;
    c.id = baseName(name);
    c.points.resize(Eigen::Index(vertices), 3);
    for (long long v = 0; v < vertices; ++v) {
        const std::string row = next();
        std::istringstream rs(row);
        std::vector<std::string> f;
        std::string tok;
        while (rs >> tok)
            f.push_back(tok);
        if (f.size() < props.size())
            throw InputError(name, "expected " + std::to_string(props.size()) + " values", line);
        for (int k = 0; k < 3; ++k)
            c.points(Eigen::Index(v), k) = number(f[idx[size_t(k)]], name, line, int(idx[size_t(k)]) + 1);
    }
    std::vector<Cloud> out{c};
    validateClouds(out, name);
    return out;
}

std::vector<TensorRow> parseTensorCsv(const std::string& text, const std::string& name) {
    const auto ls = lines(text);
    if (ls.empty())
        throw InputError(name, "empty file");
    const auto header = split(ls.front().second);
    const bool mandel =
        std::any_of(header.begin(), header.end(), [](const std::string& h) { return lower(h) == "v1"; });
    const std::vector<std::string> want =
        mandel ? std::vector<std::string>{"id", "v1", "v2", "v3", "v4", "v5", "v6"}
               : std::vector<std::string>{"id", "T11", "T22", "T33", "T23", "T13", "T12"};
    const auto idx = columns(header, want, name, ls.front().first);
    std::vector<TensorRow> out;
    std::map<std::string, int> seen;
    for (size_t k = 1; k < ls.size(); ++k) {
        const auto f = split(ls[k].second);
        if (f.size() < *std::max_element(idx.begin(), idx.end()) + 1)
            throw InputError(name, "expected 7 fields", ls[k].first);
        TensorRow r;
        r.id = f[idx[0]];
        r.line = ls[k].first;
        if (!seen.emplace(r.id, r.line).second)
            throw InputError(name, "id '" + r.id + "' appears twice", r.line);
        Vec6 x;
        for (int c = 0; c < 6; ++c)
            x(c) = number(f[idx[size_t(c) + 1]], name, r.line, int(idx[size_t(c) + 1]) + 1);
        if (mandel) {
            r.v = x;
        } else {
            Eigen::Matrix3d t;
            t << x(0), x(5), x(4), x(5), x(1), x(3), x(4), x(3), x(2);
            r.v = kelvinMandel(t);
        }
        out.push_back(r);
    }
    if (out.empty())
        throw InputError(name, "no tensor rows");
    return out;
}

void validateClouds(const std::vector<Cloud>& clouds, const std::string& name) {
    for (const Cloud& c : clouds) {
        if (c.points.rows() < 4)
            throw InputError(name, "cloud '" + c.id + "' has " + std::to_string(c.points.rows()) +
                                       " points (at least 4 are needed)");
        const Eigen::Vector3d ev =
            Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d>(secondMoment(c)).eigenvalues();
        if (!(ev(1) > 1e-12 * std::max(ev(2), 1e-300)))
            throw InputError(name, "cloud '" + c.id + "' is degenerate: its second moment has rank < 2");
    }
}

} // namespace pl::equicov
