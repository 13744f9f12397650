#include "NegLabelData.h"

#include "EmbedGeometry.h"

#include "core/Errors.h"
#include "core/NpzReader.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <numeric>

namespace pl::embedgeo {

namespace {

const char* const kArrays[] = {"id_text", "neg_text", "images", "is_id"};

bool knownArray(const std::string& n) {
    return std::find(std::begin(kArrays), std::end(kArrays), n) != std::end(kArrays);
}

Eigen::MatrixXd toMatrix(const NpyArray& a, const std::string& file, const std::string& name) {
    if (name == "is_id") {
        if (a.shape.size() != 1)
            throw InputError(file,
                             "array 'is_id' must be 1-d, has " + std::to_string(a.shape.size()) + " dims");
    } else if (a.shape.size() != 2) {
        throw InputError(file, "array '" + name + "' must be 2-d (rows x d), has " +
                                   std::to_string(a.shape.size()) + " dims");
    }
    for (size_t i = 0; i < a.data.size(); ++i)
        if (!std::isfinite(a.data[i]))
            throw InputError(file, "array '" + name + "': NaN or infinite value at flat index " +
                                       std::to_string(i));
    const Eigen::Index r = a.rows(), c = a.cols();
    Eigen::MatrixXd m(r, c);
    for (Eigen::Index i = 0; i < r; ++i)
        for (Eigen::Index j = 0; j < c; ++j)
            m(i, j) = a.data[size_t(i * c + j)];
    return m;
}

std::string shapeText(const Eigen::MatrixXd& m) {
    return "[" + std::to_string(m.rows()) + "," + std::to_string(m.cols()) + "]";
}

} // namespace

std::shared_ptr<const NegLabelInput> loadNegLabelFile(const std::string& path) {
    auto in = std::make_shared<NegLabelInput>();
    in->path = path;
    const std::filesystem::path p(path);
    std::string ext = p.extension().string();
    std::transform(ext.begin(), ext.end(), ext.begin(),
                   [](unsigned char ch) { return char(std::tolower(ch)); });
    if (ext == ".npz") {
        in->kind = "npz";
        const NpzArchive z = NpzReader::readFile(path);
        for (const auto& [name, a] : z.arrays) {
            if (!knownArray(name))
                throw InputError(path,
                                 "unknown array '" + name + "' (expected id_text, neg_text, images, is_id)");
            in->arrays.emplace_back(name, toMatrix(a, path, name));
        }
    } else {
        in->kind = "npy";
        const std::string stem = p.stem().string();
        if (!knownArray(stem))
            throw InputError(path, "an .npy file must be named id_text, neg_text, images or is_id (got '" +
                                       stem + "')");
        in->arrays.emplace_back(stem, toMatrix(NpyReader::readFile(path), path, stem));
    }
    std::string s;
    for (const auto& [name, m] : in->arrays)
        s += (s.empty() ? "" : ", ") + name + " " + shapeText(m);
    in->summary = s;
    return in;
}

NegLabelData assembleNegLabel(const InputList& inputs) {
    std::map<std::string, std::pair<Eigen::MatrixXd, std::string>> got;
    for (const auto& li : inputs) {
        const auto* in = dynamic_cast<const NegLabelInput*>(li.get());
        if (!in)
            continue;
        for (const auto& [name, m] : in->arrays) {
            if (got.count(name))
                throw InputError(in->path,
                                 "array '" + name + "' given twice (also in " + got[name].second + ")");
            got[name] = {m, in->path};
        }
    }
    const std::string any = inputs.empty() ? std::string("<inputs>") : inputs.front()->path;
    for (const char* n : kArrays)
        if (!got.count(n))
            throw InputError(any, std::string("missing array '") + n + "'");
    NegLabelData d;
    d.idText = got["id_text"].first;
    d.negText = got["neg_text"].first;
    d.images = got["images"].first;
    const Eigen::MatrixXd lab = got["is_id"].first;
    const Eigen::Index dim = d.idText.cols();
    if (d.negText.cols() != dim || d.images.cols() != dim)
        throw InputError(got["images"].second, "embedding widths differ: id_text " + shapeText(d.idText) +
                                                   ", neg_text " + shapeText(d.negText) + ", images " +
                                                   shapeText(d.images));
    if (d.idText.rows() < 1 || d.negText.rows() < 1 || d.images.rows() < 2)
        throw InputError(any, "need K >= 1 ID labels, M >= 1 negatives and N >= 2 images");
    if (lab.rows() != d.images.rows())
        throw InputError(got["is_id"].second, "label count: is_id has " + std::to_string(lab.rows()) +
                                                  " entries, images " + shapeText(d.images));
    int nId = 0;
    for (Eigen::Index i = 0; i < lab.rows(); ++i) {
        if (lab(i, 0) != 0 && lab(i, 0) != 1)
            throw InputError(got["is_id"].second, "is_id[" + std::to_string(i) + "] is not 0 or 1");
        d.isId.push_back(int(lab(i, 0)));
        nId += d.isId.back();
    }
    if (nId == 0 || nId == int(lab.rows()))
        throw InputError(got["is_id"].second, "is_id must mark both ID (1) and OOD (0) images");
    const std::pair<Eigen::MatrixXd*, const char*> rows[] = {
        {&d.idText, "id_text"}, {&d.negText, "neg_text"}, {&d.images, "images"}};
    for (const auto& [m, name] : rows) {
        const int changed = normaliseRows(*m, got[name].second, name);
        if (changed > 0)
            d.notes.push_back(std::string(name) + ": " + std::to_string(changed) +
                              " rows were not unit length and were renormalised");
    }
    return d;
}

Eigen::MatrixXd mineNegatives(const Eigen::MatrixXd& neg, const Eigen::MatrixXd& idText, int count) {
    if (count <= 0 || count >= neg.rows())
        return neg;
    const Eigen::VectorXd mx = cosineMatrix(neg, idText).rowwise().maxCoeff();
    std::vector<int> o(static_cast<size_t>(neg.rows()));
    std::iota(o.begin(), o.end(), 0);
    std::stable_sort(o.begin(), o.end(), [&](int a, int b) { return mx(a) < mx(b); });
    o.resize(size_t(count));
    std::sort(o.begin(), o.end());
    Eigen::MatrixXd out(count, neg.cols());
    for (int i = 0; i < count; ++i)
        out.row(i) = neg.row(o[size_t(i)]);
    return out;
}

Eigen::MatrixXd makeSynonymOutliers(const Eigen::MatrixXd& idText, int count, Rng& rng) {
    const int d = int(idText.cols());
    Eigen::MatrixXd out(count, d);
    for (int i = 0; i < count; ++i) {
        const Eigen::VectorXd t =
            idText.row(Eigen::Index(rng.uniformInt(uint64_t(idText.rows())))).transpose();
        Eigen::VectorXd v = t + 0.3 * randomUnit(rng, d);
        out.row(i) = (v / v.norm()).transpose();
    }
    return out;
}

namespace {

NegLabelData drawImages(const Eigen::MatrixXd& concepts, const std::vector<int>& idIdx,
                        const std::vector<int>& oodIdx, const Eigen::VectorXd& gap, int perSide, Rng& rng) {
    NegLabelData d;
    const int dim = int(concepts.cols());
    const double kappa = 0.8 * dim; // mean cosine to the class direction ~ 0.6 at d = 128
    d.images.resize(2 * perSide, dim);
    for (int i = 0; i < 2 * perSide; ++i) {
        const bool id = i < perSide;
        const auto& pool = id ? idIdx : oodIdx;
        const int c = pool[size_t(rng.uniformInt(uint64_t(pool.size())))];
        Eigen::VectorXd mu = concepts.row(c).transpose() + 1.5 * gap;
        mu /= mu.norm();
        d.images.row(i) = sampleVmf(rng, mu, kappa).transpose();
        d.isId.push_back(id ? 1 : 0);
    }
    return d;
}

} // namespace

NegLabelWorld makeNegLabelWorld(const NegLabelWorldSpec& s, Rng& rng) {
    Rng rc = rng.fork("concepts"), rp = rng.fork("pool"), ri = rng.fork("images"),
        rv = rng.fork("validation"), ro = rng.fork("outliers");
    const int d = s.dim, C = s.concepts, K = std::min(s.idClasses, C - 1);
    const int clusters = std::max(1, C / 8);
    Eigen::MatrixXd centres(clusters, d), concepts(C, d);
    for (int k = 0; k < clusters; ++k)
        centres.row(k) = randomUnit(rc, d).transpose();
    for (int c = 0; c < C; ++c) {
        Eigen::VectorXd t = centres.row(c % clusters).transpose() + 1.2 * randomUnit(rc, d);
        concepts.row(c) = (t / t.norm()).transpose();
    }
    std::vector<int> perm(static_cast<size_t>(C));
    std::iota(perm.begin(), perm.end(), 0);
    for (int i = C - 1; i > 0; --i)
        std::swap(perm[size_t(i)], perm[size_t(rc.uniformInt(uint64_t(i + 1)))]);
    std::vector<int> idIdx(perm.begin(), perm.begin() + K), oodIdx(perm.begin() + K, perm.end());
    const Eigen::VectorXd gap = randomUnit(rc, d);
    NegLabelWorld w;
    w.test.idText.resize(K, d);
    for (int k = 0; k < K; ++k)
        w.test.idText.row(k) = concepts.row(idIdx[size_t(k)]);
    // Candidate pool: OOD concepts that the open world leaves in, then random "words".
    const int hidden = int(std::lround(s.openWorldBias * double(oodIdx.size())));
    const int pool = std::max(5 * s.negatives, int(oodIdx.size()) - hidden);
    Eigen::MatrixXd cand(pool, d);
    int r = 0;
    for (size_t i = size_t(hidden); i < oodIdx.size(); ++i)
        cand.row(r++) = concepts.row(oodIdx[i]);
    while (r < pool)
        cand.row(r++) = randomUnit(rp, d).transpose();
    w.test.negText = mineNegatives(cand, w.test.idText, s.negatives);
    const NegLabelData imgs = drawImages(concepts, idIdx, oodIdx, gap, s.imagesPerSide, ri);
    w.test.images = imgs.images;
    w.test.isId = imgs.isId;
    const NegLabelData val = drawImages(concepts, idIdx, oodIdx, gap, 300, rv);
    w.validation = w.test;
    w.validation.images = val.images;
    w.validation.isId = val.isId;
    w.outlierBank = makeSynonymOutliers(w.test.idText, 50, ro);
    return w;
}

} // namespace pl::embedgeo
