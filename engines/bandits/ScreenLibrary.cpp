#include "ScreenLibrary.h"

#include "NumericCsv.h"

#include "core/Errors.h"
#include "core/Rng.h"

#include <Eigen/Core>

#include <cctype>
#include <cmath>
#include <cstdlib>
#include <unordered_map>

namespace pl::bandits {

namespace {

std::string lower(std::string s) {
    for (char& c : s)
        c = char(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

struct RawRow {
    std::string id, key, fingerprint, score;
    int64_t line;
};

} // namespace

namespace {

struct Columns {
    int id = -1, key = -1, fp = -1, score = -1;
};

/// The rows of a library file as text, with the column positions of the header.
std::vector<RawRow> readRawRows(const std::string& text, const std::string& name, Columns& col) {
    std::vector<RawRow> raw;
    int& cId = col.id;
    int& cKey = col.key;
    int& cFp = col.fp;
    int& cScore = col.score;
    size_t ncols = 0;
    size_t pos = 0;
    int64_t lineNo = 0;
    bool header = true;
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
        if (header) {
            header = false;
            for (size_t j = 0; j < f.size(); ++j) {
                const std::string h = lower(f[j]);
                if (h == "id")
                    cId = int(j);
                else if (h == "partition_key")
                    cKey = int(j);
                else if (h == "fingerprint")
                    cFp = int(j);
                else if (h == "score")
                    cScore = int(j);
                else if (h == "smiles")
                    throw InputError(name,
                                     "a SMILES column: provide precomputed fingerprints (hex or 0/1) in a "
                                     "'fingerprint' column; SMILES cannot be fingerprinted offline",
                                     lineNo, int64_t(j) + 1);
            }
            if (cId < 0 || cKey < 0 || cFp < 0)
                throw InputError(
                    name, "the header must name the columns id, partition_key, fingerprint[, score]", lineNo);
            ncols = f.size();
            continue;
        }
        if (f.size() != ncols)
            throw InputError(name,
                             "ragged row: " + std::to_string(f.size()) + " fields, expected " +
                                 std::to_string(ncols),
                             lineNo);
        raw.push_back(
            {f[size_t(cId)], f[size_t(cKey)], f[size_t(cFp)], cScore >= 0 ? f[size_t(cScore)] : "", lineNo});
        if (raw.size() > 20'000'000)
            throw InputError(name, "more than 20 million rows", lineNo);
    }
    if (header)
        throw InputError(name, "empty file (expected a header id,partition_key,fingerprint[,score])", lineNo);
    if (raw.empty())
        throw InputError(name, "no rows after the header", lineNo);
    return raw;
}

} // namespace

ScreenLibrary parseLibraryCsv(const std::string& text, const std::string& name) {
    Columns col;
    const std::vector<RawRow> raw = readRawRows(text, name, col);
    const int cId = col.id, cFp = col.fp, cScore = col.score;
    // One text form for the whole file: 0/1 strings unless some fingerprint needs hex.
    FingerprintText form = FingerprintText::Binary;
    for (const RawRow& r : raw) {
        if (looksLikeSmiles(r.fingerprint))
            throw InputError(name,
                             "'" + r.fingerprint.substr(0, 40) +
                                 "' looks like SMILES: provide precomputed fingerprints (hex or 0/1)",
                             r.line, cFp + 1);
        if (r.fingerprint.find_first_not_of("01") != std::string::npos)
            form = FingerprintText::Hex;
    }
    ScreenLibrary lib;
    lib.hasScore = cScore >= 0;
    std::vector<bool> bits;
    std::unordered_map<std::string, int64_t> idLine;
    std::unordered_map<std::string, int> keyIndex;
    int nbits = -1;
    for (size_t i = 0; i < raw.size(); ++i) {
        const RawRow& r = raw[i];
        if (!decodeFingerprint(r.fingerprint, form, bits))
            throw InputError(name,
                             "fingerprint '" + r.fingerprint.substr(0, 40) + "' is not " +
                                 (form == FingerprintText::Hex ? "hexadecimal" : "a 0/1 string"),
                             r.line, cFp + 1);
        if (nbits < 0) {
            nbits = int(bits.size());
            if (nbits > 4096)
                throw InputError(name, "fingerprints longer than 4096 bits", r.line, cFp + 1);
            lib.fp = PackedFingerprints(int64_t(raw.size()), nbits);
        } else if (int(bits.size()) != nbits) {
            throw InputError(name,
                             "fingerprint has " + std::to_string(bits.size()) + " bits, the first row " +
                                 std::to_string(nbits),
                             r.line, cFp + 1);
        }
        for (int b = 0; b < nbits; ++b)
            if (bits[size_t(b)])
                lib.fp.set(int64_t(i), b);
        const auto [it, fresh] = idLine.emplace(r.id, r.line);
        if (!fresh)
            throw InputError(name,
                             "duplicate id '" + r.id.substr(0, 40) + "' (first on line " +
                                 std::to_string(it->second) + ")",
                             r.line, cId + 1);
        if (r.id.empty())
            throw InputError(name, "empty id", r.line, cId + 1);
        int k = -1;
        if (!r.key.empty()) {
            const auto [kit, kfresh] = keyIndex.emplace(r.key, int(lib.keyNames.size()));
            if (kfresh)
                lib.keyNames.push_back(r.key);
            k = kit->second;
        }
        lib.key.push_back(k);
        lib.ids.push_back(r.id);
        double s = 0;
        if (lib.hasScore) {
            char* end = nullptr;
            s = std::strtod(r.score.c_str(), &end);
            if (r.score.empty() || end != r.score.c_str() + r.score.size() || !std::isfinite(s))
                throw InputError(name, "score '" + r.score.substr(0, 40) + "' is not a finite number", r.line,
                                 cScore + 1);
        }
        lib.score.push_back(s);
    }
    return lib;
}

namespace {

double studentT3(Rng& rng) {
    const double chi2 = 2 * rng.gamma(1.5);
    return rng.normal() / std::sqrt(chi2 / 3);
}

} // namespace

ScreenLibrary standInLibrary(const StandInSpec& s, uint64_t seed) {
    Rng rng = Rng(seed).fork("blocks");
    constexpr int kLatent = 8, kBlockBits = 64, kReactionBits = 32;
    // Random projections shared by both block sets: bit j = [p_jᵀ(z, e) + 0.5 g > 1].
    Eigen::MatrixXd proj(kBlockBits, kLatent + 1);
    for (Eigen::Index i = 0; i < proj.size(); ++i)
        proj.data()[i] = rng.normal() / 3.0;
    const auto makeBlocks = [&](int n, std::vector<double>& effect, Eigen::MatrixXd& z,
                                std::vector<uint64_t>& bits) {
        effect.resize(size_t(n));
        z.resize(n, kLatent);
        bits.assign(size_t(n), 0);
        for (int i = 0; i < n; ++i) {
            Eigen::VectorXd h(kLatent + 1);
            for (int k = 0; k < kLatent; ++k)
                h[k] = z(i, k) = rng.normal();
            effect[size_t(i)] = studentT3(rng);
            h[kLatent] = std::max(-3.0, std::min(3.0, effect[size_t(i)]));
            const Eigen::VectorXd q = proj * h;
            for (int j = 0; j < kBlockBits; ++j)
                if (q[j] + 0.5 * rng.normal() > 1.0)
                    bits[size_t(i)] |= uint64_t(1) << j;
        }
    };
    std::vector<double> u, v;
    Eigen::MatrixXd za, zb;
    std::vector<uint64_t> fa, fb;
    makeBlocks(s.nA, u, za, fa);
    makeBlocks(s.nB, v, zb, fb);
    Eigen::MatrixXd W(kLatent, kLatent);
    for (Eigen::Index i = 0; i < W.size(); ++i)
        W.data()[i] = rng.normal() / std::sqrt(double(kLatent));
    const Eigen::MatrixXd zbW = zb * W.transpose(); // row b: (W z_b)ᵀ
    ScreenLibrary lib;
    const int64_t N = int64_t(s.nA) * s.nB;
    lib.fp = PackedFingerprints(N, kBlockBits + kReactionBits);
    lib.score.resize(size_t(N));
    lib.key.resize(size_t(N));
    for (int a = 0; a < s.nA; ++a)
        lib.keyNames.push_back("A" + std::to_string(a + 1));
    Rng orng = Rng(seed).fork("oracle");
    for (int a = 0; a < s.nA; ++a)
        for (int b = 0; b < s.nB; ++b) {
            const int64_t r = int64_t(a) * s.nB + b;
            uint64_t* w = lib.fp.row(r);
            w[0] = fa[size_t(a)] | fb[size_t(b)];
            // 32 reaction bits hashed from (a, b): AND of three random words (density 1/8).
            const uint64_t h = orng.next() & orng.next() & orng.next();
            w[1] = h & 0xffffffffu;
            lib.score[size_t(r)] = s.gammaA * u[size_t(a)] + v[size_t(b)] +
                                   s.omega * za.row(a).dot(zbW.row(b)) + s.noise * orng.normal();
            lib.key[size_t(r)] = a;
        }
    return lib;
}

} // namespace pl::bandits
