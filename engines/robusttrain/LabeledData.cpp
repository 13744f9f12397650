#include "LabeledData.h"

#include "core/CsvReader.h"
#include "core/Errors.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>

namespace pl::robusttrain {

namespace {

constexpr int kMaxLabel = 1000;

std::string trim(const std::string& s) {
    const size_t a = s.find_first_not_of(" \t\r");
    if (a == std::string::npos)
        return {};
    return s.substr(a, s.find_last_not_of(" \t\r") - a + 1);
}

std::vector<std::string> splitLine(const std::string& line) {
    char sep = ',';
    for (char c : line)
        if (c == ',' || c == ';' || c == '\t') {
            sep = c;
            break;
        }
    std::vector<std::string> out;
    size_t start = 0;
    for (size_t i = 0; i <= line.size(); ++i)
        if (i == line.size() || line[i] == sep) {
            out.push_back(trim(line.substr(start, i - start)));
            start = i + 1;
        }
    return out;
}

double number(const std::string& tok, const std::string& name, int64_t line, int64_t col) {
    const char* b = tok.c_str();
    char* end = nullptr;
    errno = 0;
    const double v = std::strtod(b, &end);
    if (tok.empty() || end != b + tok.size())
        throw InputError(
            name, "column " + std::to_string(col) + ": not a number: '" + tok.substr(0, 40) + "'", line);
    if (!std::isfinite(v))
        throw InputError(
            name, "column " + std::to_string(col) + ": non-finite value '" + tok.substr(0, 40) + "'", line);
    return v;
}

int64_t integer(const std::string& tok, const std::string& what, int64_t hi, const std::string& name,
                int64_t line, int64_t col) {
    const double v = number(tok, name, line, col);
    if (v != std::floor(v) || v < 0 || v >= double(hi))
        throw InputError(
            name, what + " '" + tok.substr(0, 40) + "' is not an integer in [0, " + std::to_string(hi) + ")",
            line);
    return int64_t(v);
}

struct Columns {
    int label = -1, client = -1, clean = -1, split = -1;
    std::vector<int> features;
};

Columns columnsOf(const std::vector<std::string>& header, const std::string& name, int64_t line) {
    Columns c;
    for (int i = 0; i < int(header.size()); ++i) {
        const std::string& h = header[size_t(i)];
        int* slot = h == "label"         ? &c.label
                    : h == "client_id"   ? &c.client
                    : h == "clean_label" ? &c.clean
                    : h == "split"       ? &c.split
                                         : nullptr;
        if (!slot) {
            c.features.push_back(i);
            continue;
        }
        if (*slot >= 0)
            throw InputError(name, "column '" + h + "' appears twice in the header", line);
        *slot = i;
    }
    if (c.label < 0)
        throw InputError(name, "the header names no 'label' column", line);
    if (c.features.empty())
        throw InputError(name, "the header names no feature column", line);
    return c;
}

} // namespace

LabeledTable parseLabeledCsv(const std::string& text, const std::string& name) {
    if (text.find('\0') != std::string::npos)
        throw InputError(name, "binary data (NUL byte) in a text file", 0, 0, int64_t(text.find('\0')));
    LabeledTable t;
    Columns cols;
    size_t width = 0;
    std::vector<double> cells;
    int64_t lineNo = 0;
    bool haveHeader = false;
    int maxLabel = -1;
    for (size_t pos = 0; pos <= text.size();) {
        const size_t nl = text.find('\n', pos);
        const std::string line = text.substr(pos, nl == std::string::npos ? std::string::npos : nl - pos);
        pos = nl == std::string::npos ? text.size() + 1 : nl + 1;
        ++lineNo;
        const std::string tl = trim(line);
        if (tl.empty() || tl[0] == '#')
            continue;
        const std::vector<std::string> f = splitLine(line);
        if (!haveHeader) {
            cols = columnsOf(f, name, lineNo);
            t.featureNames.clear();
            for (int i : cols.features)
                t.featureNames.push_back(f[size_t(i)]);
            width = f.size();
            haveHeader = true;
            continue;
        }
        if (f.size() != width)
            throw InputError(name,
                             "bad column count: " + std::to_string(f.size()) +
                                 " fields where the header has " + std::to_string(width),
                             lineNo);
        if (cells.size() + width > size_t(50'000'000))
            throw InputError(name, "more than 50 000 000 values", lineNo);
        for (int i : cols.features)
            cells.push_back(number(f[size_t(i)], name, lineNo, i + 1));
        const int y = int(integer(f[size_t(cols.label)], "label", kMaxLabel, name, lineNo, cols.label + 1));
        t.data.y.push_back(y);
        maxLabel = std::max(maxLabel, y);
        if (cols.client >= 0)
            t.clientId.push_back(integer(f[size_t(cols.client)], "client_id", int64_t(1) << 40, name, lineNo,
                                         cols.client + 1));
        if (cols.clean >= 0) {
            t.cleanLabel.push_back(
                int(integer(f[size_t(cols.clean)], "clean_label", kMaxLabel, name, lineNo, cols.clean + 1)));
            maxLabel = std::max(maxLabel, t.cleanLabel.back());
        }
        if (cols.split >= 0) {
            const std::string& s = f[size_t(cols.split)];
            if (s != "train" && s != "test")
                throw InputError(name, "split '" + s.substr(0, 40) + "' is neither 'train' nor 'test'",
                                 lineNo);
            t.isTest.push_back(s == "test");
        }
        t.lines.push_back(lineNo);
    }
    if (!haveHeader)
        throw InputError(name, "no header line");
    if (t.lines.size() < 2)
        throw InputError(name, "fewer than two data rows");
    const auto n = Eigen::Index(t.lines.size()), d = Eigen::Index(cols.features.size());
    t.data.X.resize(n, d);
    for (Eigen::Index r = 0; r < n; ++r)
        for (Eigen::Index c = 0; c < d; ++c)
            t.data.X(r, c) = cells[size_t(r * d + c)];
    t.data.classes = std::max(2, maxLabel + 1);
    return t;
}

LabeledTable readLabeledCsv(const std::string& path) {
    return parseLabeledCsv(readFileChecked(path, int64_t(256) << 20), path);
}

bool looksLikeIdx(const std::string& b) {
    return b.size() >= 4 && b[0] == 0 && b[1] == 0 && static_cast<unsigned char>(b[2]) == 0x08;
}

IdxArray parseIdx(const std::string& b, const std::string& name) {
    if (b.size() < 4)
        throw InputError(name, "shorter than an IDX header (4 bytes)", 0, 0, 0);
    if (!looksLikeIdx(b))
        throw InputError(name, "not an IDX file of unsigned bytes (magic must be 00 00 08 nn)", 0, 0, 0);
    const int nd = static_cast<unsigned char>(b[3]);
    if (nd < 1 || nd > 3)
        throw InputError(name, std::to_string(nd) + " dimensions (1 to 3 supported)", 0, 0, 3);
    if (b.size() < size_t(4 + 4 * nd))
        throw InputError(name, "header ends before its " + std::to_string(nd) + " dimensions", 0, 0,
                         int64_t(b.size()));
    IdxArray a;
    int64_t total = 1;
    for (int k = 0; k < nd; ++k) {
        int64_t v = 0;
        for (int j = 0; j < 4; ++j)
            v = (v << 8) | static_cast<unsigned char>(b[size_t(4 + 4 * k + j)]);
        if (v == 0)
            throw InputError(name, "dimension " + std::to_string(k + 1) + " is zero", 0, 0, 4 + 4 * k);
        a.dims.push_back(v);
        total *= v;
        if (total > (int64_t(1) << 31))
            throw InputError(name, "more than 2^31 values", 0, 0, 4 + 4 * k);
    }
    const int64_t payload = int64_t(b.size()) - (4 + 4 * nd);
    if (payload != total)
        throw InputError(name,
                         "payload has " + std::to_string(payload) + " bytes where the dimensions need " +
                             std::to_string(total),
                         0, 0, 4 + 4 * nd);
    a.values.assign(b.begin() + (4 + 4 * nd), b.end());
    return a;
}

IdxArray readIdx(const std::string& path) {
    return parseIdx(readFileChecked(path, int64_t(256) << 20), path);
}

Dataset idxPair(const IdxArray& images, const std::string& imagesName, const IdxArray& labels,
                const std::string& labelsName) {
    if (labels.dims.size() != 1)
        throw InputError(labelsName,
                         "a label file has one dimension, this one " + std::to_string(labels.dims.size()), 0,
                         0, 3);
    if (images.dims.size() < 2)
        throw InputError(imagesName, "an image file has 2 or 3 dimensions, this one 1", 0, 0, 3);
    if (images.dims[0] != labels.dims[0])
        throw InputError(imagesName,
                         "count mismatch: " + std::to_string(images.dims[0]) + " images but " +
                             std::to_string(labels.dims[0]) + " labels in " + labelsName,
                         0, 0, 4);
    const int64_t n = images.dims[0];
    const int64_t d = int64_t(images.values.size()) / n;
    Dataset ds{Eigen::MatrixXd(n, d), std::vector<int>(size_t(n)), 0};
    int maxLabel = -1;
    for (int64_t i = 0; i < n; ++i) {
        const int y = labels.values[size_t(i)];
        ds.y[size_t(i)] = y;
        maxLabel = std::max(maxLabel, y);
        for (int64_t j = 0; j < d; ++j)
            ds.X(i, j) = images.values[size_t(i * d + j)] / 255.0;
    }
    ds.classes = std::max(2, maxLabel + 1);
    return ds;
}

} // namespace pl::robusttrain
