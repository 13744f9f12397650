#include "VectorFiles.h"

#include "core/CsvReader.h"
#include "core/Errors.h"
#include "core/NpyReader.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstring>
#include <limits>

namespace pl::search {

namespace {

std::string lowerExt(const std::string& path) {
    const auto dot = path.find_last_of('.');
    const auto slash = path.find_last_of('/');
    if (dot == std::string::npos || (slash != std::string::npos && dot < slash))
        return {};
    std::string e = path.substr(dot + 1);
    std::transform(e.begin(), e.end(), e.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    return e;
}

void checkShape(int64_t rows, int64_t dim, const std::string& name) {
    if (rows < 1 || dim < 1)
        throw InputError(name, "no vectors (need at least one row of dimension >= 1)");
    if (dim > kMaxVectorDim)
        throw InputError(name, "dimension " + std::to_string(dim) + " is over the cap of " +
                                   std::to_string(kMaxVectorDim));
    if (rows > kMaxVectorValues / dim)
        throw InputError(name, std::to_string(rows) + " x " + std::to_string(dim) +
                                   " values are over the memory cap of " + std::to_string(kMaxVectorValues));
}

void checkFinite(const VectorSet& v, const std::string& name) {
    for (int64_t r = 0; r < v.rows; ++r) {
        const float* p = v.row(r);
        for (int64_t c = 0; c < v.dim; ++c)
            if (!std::isfinite(p[c]))
                throw InputError(name,
                                 "row " + std::to_string(r + 1) + " holds a NaN or infinite value (column " +
                                     std::to_string(c + 1) + ")",
                                 r + 1, c + 1);
    }
}

} // namespace

VectorSet parseFvecs(const std::string& bytes, const std::string& name) {
    if (bytes.size() < 4)
        throw InputError(name, "empty or truncated .fvecs file (no dimension field)", 0, 0, 0);
    int32_t d0 = 0;
    std::memcpy(&d0, bytes.data(), 4);
    if (d0 < 1)
        throw InputError(name, "row 1 declares dimension " + std::to_string(d0), 1, 0, 0);
    if (d0 > kMaxVectorDim)
        throw InputError(
            name, "dimension " + std::to_string(d0) + " is over the cap of " + std::to_string(kMaxVectorDim),
            1, 0, 0);
    const int64_t stride = 4 + 4 * int64_t(d0);
    if (int64_t(bytes.size()) % stride != 0)
        throw InputError(name,
                         "size " + std::to_string(bytes.size()) + " bytes is not a whole number of rows of " +
                             std::to_string(stride) + " bytes (truncated file or rows of other dimensions)",
                         int64_t(bytes.size()) / stride + 1, 0, int64_t(bytes.size()) / stride * stride);
    const int64_t rows = int64_t(bytes.size()) / stride;
    checkShape(rows, d0, name);
    VectorSet v;
    v.rows = rows;
    v.dim = d0;
    for (int64_t r = 0; r < rows; ++r) {
        int32_t d = 0;
        std::memcpy(&d, bytes.data() + r * stride, 4);
        if (d != d0)
            throw InputError(name,
                             "row " + std::to_string(r + 1) + " declares dimension " + std::to_string(d) +
                                 ", row 1 declared " + std::to_string(d0),
                             r + 1, 0, r * stride);
    }
    v.data.resize(size_t(rows * d0));
    for (int64_t r = 0; r < rows; ++r)
        std::memcpy(v.data.data() + r * d0, bytes.data() + r * stride + 4, size_t(4 * d0));
    checkFinite(v, name);
    return v;
}

VectorSet parseNpyVectors(const std::string& bytes, const std::string& name) {
    const NpyArray a = NpyReader::parse(bytes, name);
    if (a.shape.size() > 2 || a.shape.empty())
        throw InputError(name, "expected a 2-D array (rows x dimension), got " +
                                   std::to_string(a.shape.size()) + " dimensions");
    const int64_t rows = a.shape.size() == 2 ? a.shape[0] : 1;
    const int64_t dim = a.shape.size() == 2 ? a.shape[1] : a.shape[0];
    checkShape(rows, dim, name);
    VectorSet v;
    v.rows = rows;
    v.dim = dim;
    v.data.resize(size_t(rows * dim));
    for (size_t i = 0; i < v.data.size(); ++i) {
        const double x = a.data[i];
        // values beyond the float range (or NaN) become non-finite and are refused as such
        v.data[i] = std::fabs(x) <= double(std::numeric_limits<float>::max())
                        ? float(x)
                        : (std::isnan(x) ? std::numeric_limits<float>::quiet_NaN()
                                         : std::numeric_limits<float>::infinity());
    }
    checkFinite(v, name);
    return v;
}

VectorSet readVectorFile(const std::string& path) {
    const std::string ext = lowerExt(path);
    if (ext != "npy" && ext != "fvecs")
        throw InputError(path, "expected a .npy or .fvecs file");
    const std::string bytes = readFileChecked(path, kMaxVectorFileBytes);
    return ext == "npy" ? parseNpyVectors(bytes, path) : parseFvecs(bytes, path);
}

std::shared_ptr<const VectorInput> loadVectorInput(const std::string& path) {
    auto in = std::make_shared<VectorInput>();
    in->vectors = readVectorFile(path);
    in->path = path;
    in->kind = lowerExt(path);
    in->summary = std::to_string(in->vectors.rows) + " x " + std::to_string(in->vectors.dim) + " vectors";
    return in;
}

void checkBimetricFiles(const std::vector<const VectorInput*>& f, int64_t maxValues) {
    if (f.size() != 4)
        throw UsageError("bimetric search needs four files (base expensive, base proxy, queries expensive, "
                         "queries proxy), got " +
                         std::to_string(f.size()));
    const char* role[4] = {"base (expensive)", "base (proxy)", "queries (expensive)", "queries (proxy)"};
    auto shape = [&](int i) {
        return std::string(role[i]) + " " + std::to_string(f[size_t(i)]->vectors.rows) + " x " +
               std::to_string(f[size_t(i)]->vectors.dim);
    };
    if (f[1]->vectors.rows != f[0]->vectors.rows)
        throw InputError(f[1]->path, "row-count mismatch: " + shape(1) + " vs " + shape(0));
    if (f[3]->vectors.rows != f[2]->vectors.rows)
        throw InputError(f[3]->path, "row-count mismatch: " + shape(3) + " vs " + shape(2));
    if (f[2]->vectors.dim != f[0]->vectors.dim)
        throw InputError(f[2]->path, "dimension mismatch: " + shape(2) + " vs " + shape(0));
    if (f[3]->vectors.dim != f[1]->vectors.dim)
        throw InputError(f[3]->path, "dimension mismatch: " + shape(3) + " vs " + shape(1));
    int64_t total = 0;
    for (const auto* v : f)
        total += v->vectors.rows * v->vectors.dim;
    if (total > maxValues)
        throw InputError(f[0]->path, "the four files hold " + std::to_string(total) +
                                         " values, over the memory cap of " + std::to_string(maxValues));
}

} // namespace pl::search
