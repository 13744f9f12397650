#include "SaeInputs.h"

#include "core/CsvReader.h"
#include "core/Errors.h"

#include <cmath>
#include <sstream>

namespace pl::hiddenstate {

namespace {

std::vector<std::string> splitLine(const std::string& line) {
    std::vector<std::string> f;
    std::string cur;
    for (char ch : line) {
        if (ch == ',') {
            f.push_back(cur);
            cur.clear();
        } else {
            cur += ch;
        }
    }
    f.push_back(cur);
    for (std::string& s : f) {
        while (!s.empty() && (s.back() == ' ' || s.back() == '\t'))
            s.pop_back();
        while (!s.empty() && (s.front() == ' ' || s.front() == '\t'))
            s.erase(s.begin());
    }
    return f;
}

void checkFinite(const std::vector<double>& v, const std::string& file, const std::string& what) {
    for (size_t i = 0; i < v.size(); ++i)
        if (!std::isfinite(v[i]))
            throw InputError(file, what + ": non-finite value at flat index " + std::to_string(i));
}

const NpyArray& shaped(const NpzArchive& z, const std::string& name, size_t rank) {
    const NpyArray& a = z.get(name);
    if (a.shape.size() != rank)
        throw InputError(z.source, "array '" + name + "' must have rank " + std::to_string(rank));
    for (int64_t s : a.shape)
        if (s < 1)
            throw InputError(z.source, "array '" + name + "' is empty");
    checkFinite(a.data, z.source, "array '" + name + "'");
    return a;
}

} // namespace

TextTable parseTextTable(const std::string& text, const std::string& name) {
    TextTable t;
    std::istringstream in(text);
    std::string line;
    int64_t lineNo = 0;
    bool header = false;
    while (std::getline(in, line)) {
        ++lineNo;
        if (!line.empty() && line.back() == '\r')
            line.pop_back();
        if (line.find_first_not_of(" \t") == std::string::npos)
            continue;
        const std::vector<std::string> f = splitLine(line);
        if (!header) {
            if (f.size() != 3 || f[0] != "id" || f[1] != "domain" || f[2] != "split")
                throw InputError(name, "the header must be 'id,domain,split'", lineNo);
            header = true;
            continue;
        }
        if (f.size() != 3)
            throw InputError(name, "expected 3 fields (id,domain,split), got " + std::to_string(f.size()),
                             lineNo);
        if (f[1].empty())
            throw InputError(name, "empty domain", lineNo);
        if (f[2] != "train" && f[2] != "test")
            throw InputError(name, "unknown split '" + f[2] + "' (train or test)", lineNo);
        t.ids.push_back(f[0]);
        t.domain.push_back(f[1]);
        t.split.push_back(f[2]);
    }
    if (!header)
        throw InputError(name, "empty file (header 'id,domain,split' expected)");
    if (t.ids.empty())
        throw InputError(name, "no text rows after the header");
    return t;
}

TextTable readTextTable(const std::string& path) {
    return parseTextTable(readFileChecked(path, 256ll << 20), path);
}

std::vector<Eigen::MatrixXd> activationsFromNpy(const NpyArray& a, const std::string& name) {
    if (a.shape.size() != 3 || a.shape[0] < 1 || a.shape[1] < 1 || a.shape[2] < 1)
        throw InputError(name, "activations must be a non-empty [L, N, d] array");
    checkFinite(a.data, name, "activations");
    const int64_t L = a.shape[0], N = a.shape[1], d = a.shape[2];
    std::vector<Eigen::MatrixXd> out(static_cast<size_t>(L), Eigen::MatrixXd(N, d));
    for (int64_t l = 0; l < L; ++l)
        for (int64_t n = 0; n < N; ++n)
            for (int64_t j = 0; j < d; ++j)
                out[size_t(l)](n, j) = a.data[size_t((l * N + n) * d + j)];
    return out;
}

std::vector<SaeLayer> saeFromArchive(const NpzArchive& z) {
    const NpyArray& we = shaped(z, "W_enc", 3);
    const NpyArray& be = shaped(z, "b_enc", 2);
    const NpyArray& wd = shaped(z, "W_dec", 3);
    const NpyArray& bd = shaped(z, "b_dec", 2);
    const int64_t L = we.shape[0], d = we.shape[1], m = we.shape[2];
    if (be.shape != std::vector<int64_t>{L, m})
        throw InputError(z.source, "array 'b_enc' must be [L, m] = [" + std::to_string(L) + ", " +
                                       std::to_string(m) + "]");
    if (wd.shape != std::vector<int64_t>{L, m, d})
        throw InputError(z.source, "array 'W_dec' must be [L, m, d] = [" + std::to_string(L) + ", " +
                                       std::to_string(m) + ", " + std::to_string(d) + "]");
    if (bd.shape != std::vector<int64_t>{L, d})
        throw InputError(z.source, "array 'b_dec' must be [L, d] = [" + std::to_string(L) + ", " +
                                       std::to_string(d) + "]");
    std::vector<SaeLayer> out(static_cast<size_t>(L));
    for (int64_t l = 0; l < L; ++l) {
        SaeLayer& s = out[size_t(l)];
        s.encoder.resize(d, m);
        s.decoder.resize(m, d);
        s.encoderBias.resize(m);
        s.decoderBias.resize(d);
        for (int64_t i = 0; i < d; ++i)
            for (int64_t j = 0; j < m; ++j) {
                s.encoder(i, j) = we.data[size_t((l * d + i) * m + j)];
                s.decoder(j, i) = wd.data[size_t((l * m + j) * d + i)];
            }
        for (int64_t j = 0; j < m; ++j)
            s.encoderBias(j) = be.data[size_t(l * m + j)];
        for (int64_t i = 0; i < d; ++i)
            s.decoderBias(i) = bd.data[size_t(l * d + i)];
    }
    return out;
}

} // namespace pl::hiddenstate
