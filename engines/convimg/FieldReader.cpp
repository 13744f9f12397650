#include "convimg/FieldReader.h"

#include "core/CsvReader.h"
#include "core/Errors.h"
#include "core/NpyReader.h"
#include "core/Numeric.h"

#include <algorithm>
#include <cctype>
#include <cmath>

namespace pl::convimg {

namespace {

constexpr int kMaxGrid = 1024;

bool isNpyPath(const std::string& p) {
    std::string e = p.size() >= 4 ? p.substr(p.size() - 4) : p;
    std::transform(e.begin(), e.end(), e.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    return e == ".npy";
}

FieldFile fromNpy(const NpyArray& a, const std::string& name) {
    if (a.dtype != "<f4" && a.dtype != "<f8")
        throw InputError(name, "field arrays must be float32 or float64 (<f4 or <f8), not " + a.dtype);
    const auto& sh = a.shape;
    const bool two = sh.size() == 2, three = sh.size() == 3;
    if (!(two || three) || sh[sh.size() - 1] != sh[sh.size() - 2] || sh.back() < 2 || sh.back() > kMaxGrid ||
        (three && sh[0] < 1))
        throw InputError(name, "field arrays must have shape N x N or n x N x N (2 <= N <= 1024)");
    const int n = int(sh.back());
    const int count = three ? int(sh[0]) : 1;
    FieldFile out;
    for (int k = 0; k < count; ++k) {
        Eigen::MatrixXd m(n, n);
        for (int y = 0; y < n; ++y)
            for (int x = 0; x < n; ++x) {
                const double v = a.data[size_t(k) * n * n + size_t(y) * n + size_t(x)];
                if (!std::isfinite(v))
                    throw InputError(name, "value at field " + std::to_string(k) + ", cell (row " +
                                               std::to_string(y) + ", column " + std::to_string(x) +
                                               ") is not finite");
                m(y, x) = v;
            }
        out.fields.push_back(std::move(m));
    }
    return out;
}

FieldFile fromCsv(const CsvTable& t, const std::string& name) {
    const auto r = t.values.rows(), c = t.values.cols();
    if (r == 0)
        throw InputError(name, "no numbers: a field is N lines of N numbers");
    if (r != c)
        throw InputError(name, "a field grid must be square (N lines of N numbers), got " +
                                   std::to_string(r) + " lines of " + std::to_string(c));
    if (r < 2 || r > kMaxGrid)
        throw InputError(name, "grid size must be 2 to 1024");
    FieldFile out;
    out.fields.push_back(t.values);
    return out;
}

} // namespace

std::string FieldFile::shapeText() const {
    const std::string nn = std::to_string(n()) + " x " + std::to_string(n());
    return fields.size() == 1 ? nn : std::to_string(fields.size()) + " x " + nn;
}

FieldFile readFieldFile(const std::string& path) {
    if (isNpyPath(path))
        return fromNpy(NpyReader::readFile(path, 256ll << 20), path);
    CsvOptions o;
    o.maxBytes = 64ll << 20;
    return fromCsv(CsvReader::readFile(path, o), path);
}

FieldFile parseFieldFile(const std::string& bytes, const std::string& name, bool npy) {
    if (npy)
        return fromNpy(NpyReader::parse(bytes, name), name);
    return fromCsv(CsvReader::parse(bytes, name), name);
}

void requirePositive(const FieldFile& K, const std::string& path) {
    for (size_t k = 0; k < K.fields.size(); ++k)
        for (int y = 0; y < K.n(); ++y)
            for (int x = 0; x < K.n(); ++x) {
                const double v = K.fields[k](y, x);
                if (!(v > 0) || !std::isfinite(v))
                    throw InputError(path, "permeability must be positive: K = " + formatSignificant(v, 6) +
                                               (K.fields.size() > 1 ? " in field " + std::to_string(k) : "") +
                                               " at cell (row " + std::to_string(y) + ", column " +
                                               std::to_string(x) + ")");
            }
}

} // namespace pl::convimg
