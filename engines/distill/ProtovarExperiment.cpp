#include "ProtovarExperiment.h"

#include "KMeans.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace pl::distill {

namespace {

Eigen::MatrixXd softmaxRowsOf(const Eigen::MatrixXd& Z) {
    Eigen::MatrixXd P = Z;
    for (Eigen::Index r = 0; r < P.rows(); ++r) {
        P.row(r).array() -= P.row(r).maxCoeff();
        P.row(r) = P.row(r).array().exp().matrix();
        P.row(r) /= P.row(r).sum();
    }
    return P;
}

Eigen::RowVectorXd flat(const Eigen::MatrixXd& latent) {
    Eigen::RowVectorXd v(latent.size());
    for (Eigen::Index p = 0; p < latent.rows(); ++p)
        v.segment(p * latent.cols(), latent.cols()) = latent.row(p);
    return v;
}

Eigen::MatrixXd unflat(const Eigen::RowVectorXd& v, Eigen::Index rows, Eigen::Index cols) {
    Eigen::MatrixXd m(rows, cols);
    for (Eigen::Index p = 0; p < rows; ++p)
        m.row(p) = v.segment(p * cols, cols);
    return m;
}

} // namespace

std::vector<double> betaSchedule(double beta, int scales) {
    std::vector<double> b;
    for (int k = 0; k < scales; ++k)
        b.push_back(beta * std::pow(0.5, k));
    return b;
}

Eigen::MatrixXd rowsOf(const Eigen::MatrixXd& X, const std::vector<int>& idx) {
    Eigen::MatrixXd R(Eigen::Index(idx.size()), X.cols());
    for (size_t i = 0; i < idx.size(); ++i)
        R.row(Eigen::Index(i)) = X.row(idx[i]);
    return R;
}

Eigen::MatrixXd shiftAugment(const Eigen::MatrixXd& X, int side, const std::vector<int>& y,
                             std::vector<int>& yOut) {
    const int shifts[5][2] = {{0, 0}, {0, -1}, {0, 1}, {-1, 0}, {1, 0}};
    const Eigen::Index n = X.rows();
    Eigen::MatrixXd out = Eigen::MatrixXd::Zero(5 * n, X.cols());
    yOut.clear();
    for (int s = 0; s < 5; ++s) {
        const int dy = shifts[s][0], dx = shifts[s][1];
        for (Eigen::Index r = 0; r < n; ++r) {
            for (int i = 0; i < side; ++i)
                for (int j = 0; j < side; ++j) {
                    const int si = i - dy, sj = j - dx;
                    if (si >= 0 && si < side && sj >= 0 && sj < side)
                        out(s * n + r, i * side + j) = X(r, si * side + sj);
                }
            yOut.push_back(y[size_t(r)]);
        }
    }
    return out;
}

ProtovarModels buildModels(const ImageSet& train, const ImageSet& test, const ProtovarSettings& s,
                           const Rng& root, const std::function<void(double, const std::string&)>& poll) {
    ProtovarModels m;
    const int C = int(train.classes.size()), side = train.side;
    // stage "classifier": phi = penultimate layer of an MLP trained on the real training images
    Rng ci = root.fork("classifier/init"), cf = root.fork("classifier/fit");
    m.classifier = std::make_unique<Student>(int(train.X.cols()), 64, 32, C, 0, ci);
    StudentTraining ct;
    ct.epochs = 8;
    ct.batch = 64;
    m.classifier->train(train.X, train.y, ct, cf,
                        [&](double f) { poll(0.25 * f, "training the classifier"); });
    m.realPhi = m.classifier->features(train.X);
    m.realFeatures = s.pixelSpace ? train.X : m.realPhi;
    m.classMeans = Eigen::MatrixXd::Zero(C, m.realFeatures.cols());
    Eigen::VectorXd counts = Eigen::VectorXd::Zero(C);
    for (size_t i = 0; i < train.y.size(); ++i) {
        m.classMeans.row(train.y[i]) += m.realFeatures.row(Eigen::Index(i));
        counts(train.y[i]) += 1;
    }
    for (int c = 0; c < C; ++c)
        m.classMeans.row(c) /= std::max(1.0, counts(c));
    // stage "tokeniser": codebook by k-means on pooled residuals, 3 alternations
    m.quantiser = std::make_unique<MultiScaleQuantiser>(side, scalesForGrid(side / 4), s.codebook);
    Rng tr = root.fork("tokeniser");
    m.quantiser->fit(train.X, tr, 6000, [&] { poll(0.3, "fitting the codebook"); });
    const MultiScaleQuantiser& q = *m.quantiser;
    const int K = q.scaleCount();
    std::vector<ScaleTokens> tokens;
    std::vector<std::vector<Eigen::RowVectorXd>> cumFlat(
        static_cast<size_t>(K)); // per scale, rows in train order
    for (Eigen::Index i = 0; i < train.X.rows(); ++i) {
        std::vector<Eigen::MatrixXd> cum;
        tokens.push_back(q.encode(q.latent(train.X.row(i).transpose()), &cum));
        for (int k = 0; k < K; ++k)
            cumFlat[size_t(k)].push_back(flat(cum[size_t(k)]));
        if (i % 256 == 0)
            poll(0.35, "tokenising");
    }
    double mse = 0;
    for (Eigen::Index i = 0; i < test.X.rows(); ++i) {
        const Eigen::MatrixXd f = q.latent(test.X.row(i).transpose());
        mse += (q.image(q.decode(q.encode(f))) - test.X.row(i).transpose()).squaredNorm() /
               double(test.X.cols());
    }
    m.reconstructionMse = test.X.rows() > 0 ? mse / double(test.X.rows()) : 0;
    // stage "prototypes": k-means++ (M centres) over each class's f_hat_<=k, per scale
    m.prototypes.assign(size_t(C), std::vector<std::vector<Eigen::MatrixXd>>(size_t(K)));
    for (int c = 0; c < C; ++c) {
        std::vector<int> rows;
        for (size_t i = 0; i < train.y.size(); ++i)
            if (train.y[i] == c)
                rows.push_back(int(i));
        for (int k = 0; k < K; ++k) {
            Eigen::MatrixXd Xc(Eigen::Index(rows.size()), q.grid() * q.grid() * q.dim());
            for (size_t r = 0; r < rows.size(); ++r)
                Xc.row(Eigen::Index(r)) = cumFlat[size_t(k)][size_t(rows[r])];
            Rng pr = root.fork("prototypes/" + std::to_string(c) + "/" + std::to_string(k));
            const KMeansResult km = kmeans(Xc, s.prototypes, pr, 30);
            for (Eigen::Index j = 0; j < km.centres.rows(); ++j)
                m.prototypes[size_t(c)][size_t(k)].push_back(
                    unflat(km.centres.row(j), q.grid() * q.grid(), q.dim()));
        }
        poll(0.4, "prototypes");
    }
    // stage "generator": per-scale MLPs with class dropout (CFG), on at most kGeneratorImages per class
    std::vector<ScaleTokens> genTokens;
    std::vector<int> genLabels, perClass(size_t(C), 0);
    for (size_t i = 0; i < tokens.size(); ++i)
        if (perClass[size_t(train.y[i])]++ < kGeneratorImagesPerClass) {
            genTokens.push_back(tokens[i]);
            genLabels.push_back(train.y[i]);
        }
    Rng gi = root.fork("generator/init"), gf = root.fork("generator/fit");
    m.generator = std::make_unique<ScaleGenerator>(q, C, 64, gi);
    GeneratorTraining gt;
    gt.steps = s.generatorSteps;
    m.generator->train(genTokens, genLabels, gt, gf,
                       [&](double f) { poll(0.4 + 0.3 * f, "training the generator"); });
    return m;
}

ClassPool generatePool(const ProtovarModels& m, const ProtovarSettings& s, int c, int count, double beta,
                       Rng rng) {
    const MultiScaleQuantiser& q = *m.quantiser;
    SampleRequest req;
    req.cls = c;
    req.count = count;
    req.cfg = s.cfg;
    req.temperature = s.temperature;
    req.prototypes = m.prototypes[size_t(c)];
    req.betaK = betaSchedule(beta, q.scaleCount());
    ClassPool p;
    p.sampled = m.generator->sample(req, rng);
    p.images.resize(count, q.side() * q.side());
    for (int n = 0; n < count; ++n)
        p.images.row(n) = q.image(p.sampled.latents[size_t(n)]).cwiseMax(0.0).cwiseMin(1.0).transpose();
    p.phi = m.classifier->features(p.images);
    p.features = s.pixelSpace ? p.images : p.phi;
    p.prob = softmaxRowsOf(m.classifier->logits(p.images)).col(c);
    return p;
}

std::vector<int> filterAndSelect(const ClassPool& pool, const Eigen::RowVectorXd& mu, int ipc,
                                 const ProtovarSettings& s, int* passed, int* filledUp) {
    const int n = int(pool.prob.size());
    std::vector<int> keep;
    for (int i = 0; i < n; ++i)
        if (pool.prob(i) >= s.tau)
            keep.push_back(i);
    if (passed)
        *passed = int(keep.size());
    int filled = 0;
    if (int(keep.size()) < ipc) {
        std::vector<int> rest;
        for (int i = 0; i < n; ++i)
            if (pool.prob(i) < s.tau)
                rest.push_back(i);
        std::stable_sort(rest.begin(), rest.end(), [&](int a, int b) { return pool.prob(a) > pool.prob(b); });
        for (size_t j = 0; j < rest.size() && int(keep.size()) < ipc; ++j, ++filled)
            keep.push_back(rest[j]);
        std::sort(keep.begin(), keep.end());
    }
    if (filledUp)
        *filledUp = filled;
    const std::vector<int> local = selectWith(s.selector, rowsOf(pool.features, keep), mu, ipc);
    std::vector<int> out;
    for (int i : local)
        out.push_back(keep[size_t(i)]);
    return out;
}

double studentAccuracy(const Eigen::MatrixXd& X, const std::vector<int>& y, const ImageSet& test, int side,
                       int classes, const ProtovarSettings& s, const Rng& root, const std::string& tag,
                       const std::function<void(double)>& poll) {
    std::vector<int> ya;
    const Eigen::MatrixXd Xa = shiftAugment(X, side, y, ya);
    StudentTraining t;
    t.batch = 32;
    const int batches = std::max(1, int((Xa.rows() + t.batch - 1) / t.batch));
    t.epochs = std::max(1, (s.studentSteps + batches - 1) / batches);
    double acc = 0;
    for (int i = 0; i < s.studentInits; ++i) {
        Rng init = root.fork("student/init/" + std::to_string(i));
        Rng fit = root.fork("student/fit/" + tag + "/" + std::to_string(i));
        Student st(int(X.cols()), 64, 32, classes, 0, init);
        st.train(Xa, ya, t, fit, [&](double f) { poll((i + f) / s.studentInits); });
        acc += accuracyOf(st.predict(test.X), test.y) / s.studentInits;
    }
    return acc;
}

Eigen::MatrixXd imageGrid(const std::vector<std::vector<Eigen::VectorXd>>& tiles, int side,
                          const std::vector<std::vector<char>>& framed) {
    size_t cols = 0;
    for (const auto& r : tiles)
        cols = std::max(cols, r.size());
    const Eigen::Index H = Eigen::Index(tiles.size()) * (side + 1) + 1,
                       W = Eigen::Index(cols) * (side + 1) + 1;
    Eigen::MatrixXd G = Eigen::MatrixXd::Zero(H, W); // black separators
    for (size_t r = 0; r < tiles.size(); ++r)
        for (size_t c = 0; c < tiles[r].size(); ++c) {
            const Eigen::Index y0 = Eigen::Index(r) * (side + 1) + 1, x0 = Eigen::Index(c) * (side + 1) + 1;
            for (int i = 0; i < side; ++i)
                for (int j = 0; j < side; ++j)
                    G(y0 + i, x0 + j) = tiles[r][c](i * side + j);
            if (r < framed.size() && c < framed[r].size() && framed[r][c]) {
                G.block(y0 - 1, x0 - 1, 1, side + 2).setOnes();
                G.block(y0 + side, x0 - 1, 1, side + 2).setOnes();
                G.block(y0 - 1, x0 - 1, side + 2, 1).setOnes();
                G.block(y0 - 1, x0 + side, side + 2, 1).setOnes();
            }
        }
    return G;
}

} // namespace pl::distill
