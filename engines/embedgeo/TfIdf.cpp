#include "TfIdf.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace pl::embedgeo {

namespace {

bool wordByte(unsigned char c) {
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
           c >= 0x80;
}

} // namespace

std::vector<std::string> tokenize(const std::string& text) {
    std::vector<std::string> out;
    size_t i = 0;
    while (i < text.size()) {
        while (i < text.size() && !wordByte(static_cast<unsigned char>(text[i])))
            ++i;
        size_t j = i;
        while (j < text.size() && wordByte(static_cast<unsigned char>(text[j])))
            ++j;
        size_t chars = 0; // UTF-8 characters: bytes that are not continuation bytes
        for (size_t t = i; t < j; ++t)
            chars += (static_cast<unsigned char>(text[t]) & 0xC0) != 0x80;
        if (chars >= 2) {
            std::string t = text.substr(i, j - i);
            std::transform(t.begin(), t.end(), t.begin(),
                           [](unsigned char c) { return c < 0x80 ? char(std::tolower(c)) : char(c); });
            out.push_back(std::move(t));
        }
        i = j;
    }
    return out;
}

Eigen::MatrixXd TfIdfMatrix::dense() const {
    Eigen::MatrixXd m = Eigen::MatrixXd::Zero(Eigen::Index(rows.size()), Eigen::Index(vocab.size()));
    for (size_t r = 0; r < rows.size(); ++r)
        for (const auto& [c, v] : rows[r])
            m(Eigen::Index(r), c) = v;
    return m;
}

TfIdfMatrix tfidf(const std::vector<std::string>& docs) {
    std::vector<std::map<std::string, int>> counts(docs.size());
    std::map<std::string, int> df;
    for (size_t d = 0; d < docs.size(); ++d) {
        const auto tok = tokenize(docs[d]);
        for (size_t i = 0; i < tok.size(); ++i) {
            ++counts[d][tok[i]];
            if (i + 1 < tok.size())
                ++counts[d][tok[i] + " " + tok[i + 1]];
        }
        for (const auto& [term, c] : counts[d])
            ++df[term];
    }
    TfIdfMatrix m;
    std::map<std::string, int> index;
    std::vector<double> idf;
    const double n = double(docs.size());
    for (const auto& [term, f] : df) {
        index[term] = int(m.vocab.size());
        m.vocab.push_back(term);
        idf.push_back(std::log((1 + n) / (1 + f)) + 1);
    }
    m.rows.resize(docs.size());
    for (size_t d = 0; d < docs.size(); ++d) {
        double ss = 0;
        for (const auto& [term, c] : counts[d]) {
            const int j = index[term];
            const double v = c * idf[size_t(j)];
            m.rows[d].push_back({j, v});
            ss += v * v;
        }
        const double norm = std::sqrt(ss);
        if (norm > 0)
            for (auto& e : m.rows[d])
                e.second /= norm;
    }
    return m;
}

Eigen::MatrixXd randomProjection(const TfIdfMatrix& m, int d, Rng& rng) {
    const double s = std::sqrt(3.0 / d);
    Eigen::MatrixXd R(Eigen::Index(m.vocab.size()), d);
    for (Eigen::Index j = 0; j < R.rows(); ++j)
        for (int c = 0; c < d; ++c) {
            const uint64_t u = rng.uniformInt(6);
            R(j, c) = u == 0 ? s : (u == 1 ? -s : 0.0);
        }
    Eigen::MatrixXd E = Eigen::MatrixXd::Zero(Eigen::Index(m.rows.size()), d);
    for (size_t r = 0; r < m.rows.size(); ++r) {
        for (const auto& [j, v] : m.rows[r])
            E.row(Eigen::Index(r)) += v * R.row(j);
        const double nrm = E.row(Eigen::Index(r)).norm();
        if (nrm > 0)
            E.row(Eigen::Index(r)) /= nrm;
    }
    return E;
}

} // namespace pl::embedgeo
