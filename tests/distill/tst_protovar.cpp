// The distill engine (protovar-distillation): k-means (Lloyd from k-means++ seeds) against
// scipy.cluster.vq.kmeans2, herding and k-center against numpy (ties to the lowest index), the
// multi-scale quantiser (tokens and reconstructions) against numpy, the prototype bias, the glyph
// renderer, the IDX and PNG-folder readers on good and bad files, determinism, cancellation and
// the claims over three seeds.
#include "common/PythonOracle.h"
#include "core/Errors.h"
#include "core/Rng.h"
#include "distill/GlyphRenderer.h"
#include "distill/KMeans.h"
#include "distill/MultiScaleQuantiser.h"
#include "distill/ProtovarEngine.h"
#include "distill/ProtovarExperiment.h"
#include "distill/ProtovarInputs.h"
#include "distill/ProtovarKeys.h"
#include "distill/ScaleGenerator.h"
#include "distill/Selectors.h"

#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <set>

using namespace pl::distill;
namespace keys = pl::distill::protovar::keys;

using pl::test::havePython;
using pl::test::pythonLines;

namespace {

const QString kFixtures = QStringLiteral(PAPERLAB_SOURCE_DIR "/tests/data/protovar/");

/// Writes matrices as "name rows cols values..." for the numpy scripts.
void writeMatrix(QFile& f, const char* name, const Eigen::MatrixXd& M) {
    QByteArray s = QByteArray(name) + ' ' + QByteArray::number(qlonglong(M.rows())) + ' ' +
                   QByteArray::number(qlonglong(M.cols())) + '\n';
    for (Eigen::Index r = 0; r < M.rows(); ++r)
        for (Eigen::Index c = 0; c < M.cols(); ++c)
            s += QByteArray::number(M(r, c), 'g', 17) + ' ';
    f.write(s + '\n');
}

const char* kReadMatrices = R"(
import sys, numpy as np
M = {}
with open(sys.argv[1]) as f:
    tok = f.read().split()
i = 0
while i < len(tok):
    name, r, c = tok[i], int(tok[i + 1]), int(tok[i + 2]); i += 3
    M[name] = np.array([float(v) for v in tok[i:i + r * c]]).reshape(r, c); i += r * c
)";

const std::string kKmeansScript = std::string(kReadMatrices) + R"(
from scipy.cluster.vq import kmeans2, vq
C, lab = kmeans2(M['X'], M['C0'], iter=int(sys.argv[2]), minit='matrix', missing='warn')
for row in C:
    print(' '.join('%.12f' % v for v in row))
print(' '.join(str(v) for v in vq(M['X'], C)[0]))
)";

const std::string kSelectorScript = std::string(kReadMatrices) + R"(
phi, mu, n = M['phi'], M['mu'][0], int(sys.argv[2])
S, s = [], np.zeros(phi.shape[1])
for k in range(1, n + 1):
    d = [np.inf if i in S else np.sum((mu - (s + phi[i]) / k) ** 2) for i in range(len(phi))]
    i = int(np.argmin(d)); S.append(i); s = s + phi[i]
print(' '.join(map(str, S)))
d2 = lambda a, b: np.sum((a - b) ** 2, axis=-1)
K = [int(np.argmin(d2(phi, mu)))]
dmin = d2(phi, phi[K[0]])
while len(K) < n:
    dd = dmin.copy(); dd[K] = -1
    i = int(np.argmax(dd)); K.append(i); dmin = np.minimum(dmin, d2(phi, phi[i]))
print(' '.join(map(str, K)))
)";

// The quantiser from its definition: standardised patches, area pooling (adaptive average),
// bilinear upsampling with half-pixel centres, nearest codeword, residual accumulation.
const std::string kQuantiserScript = std::string(kReadMatrices) + R"(
E, imgs, (mean, sd) = M['E'], M['I'], M['S'][0]
side = int(sys.argv[2]); g = side // 4; scales = [int(v) for v in sys.argv[3].split(',')]
def pool(n, m):
    P = np.zeros((m, n))
    for a in range(m):
        lo, hi = (a * n) // m, -(-((a + 1) * n) // m)
        P[a, lo:hi] = 1.0 / (hi - lo)
    return P
def bil(m, n):
    U = np.zeros((n, m))
    for i in range(n):
        src = max(0.0, (i + 0.5) * m / n - 0.5)
        i0 = min(int(np.floor(src)), m - 1); i1 = min(i0 + 1, m - 1); l = src - i0
        U[i, i0] += 1 - l; U[i, i1] += l
    return U
for img in imgs:
    x = (img.reshape(side, side) - mean) / sd
    f = x.reshape(g, 4, g, 4).transpose(0, 2, 1, 3).reshape(g, g, 16)
    fh = np.zeros_like(f)
    toks = []
    for s in scales:
        D, U = pool(g, s), bil(s, g)
        z = np.einsum('ai,bj,ijc->abc', D, D, f - fh).reshape(s * s, 16)
        t = np.argmin(((z[:, None, :] - E[None, :, :]) ** 2).sum(-1), axis=1)
        toks += list(t)
        q = E[t].reshape(s, s, 16)
        fh = fh + np.einsum('ia,jb,abc->ijc', U, U, q)
    rec = fh.reshape(g, g, 4, 4).transpose(0, 2, 1, 3).reshape(-1) * sd + mean
    print(' '.join(map(str, toks)))
    print(' '.join('%.12f' % v for v in rec))
)";

pl::ParamSet quick(const ProtovarEngine& e) {
    pl::ParamSet p(e.params());
    p.setText(keys::param::kImagesPerClass, "30");
    p.setText(keys::param::kTestPerClass, "10");
    p.setText(keys::param::kStudentInits, "1");
    p.setText(keys::param::kIpcSweep, "false");
    p.setText(keys::param::kIpc, "2");
    p.setText(keys::param::kGenSteps, "20");
    p.setText(keys::param::kStudentSteps, "30");
    p.setText(keys::param::kCodebook, "32");
    return p;
}

template <class F> std::string inputError(F f) {
    try {
        f();
    } catch (const pl::InputError& e) {
        return e.what();
    }
    return "no error";
}

std::string idxBytes(std::vector<unsigned char> magic, std::vector<uint32_t> dims, size_t payload) {
    std::string b(magic.begin(), magic.end());
    for (uint32_t d : dims)
        for (int s = 24; s >= 0; s -= 8)
            b.push_back(char((d >> s) & 0xff));
    return b + std::string(payload, '\x07');
}

/// NaN (grid separators) -> -1, so that grids compare with ==.
std::vector<double> noNan(std::vector<double> v) {
    for (double& x : v)
        if (std::isnan(x))
            x = -1;
    return v;
}

std::vector<int> ints(const QString& line) {
    std::vector<int> v;
    for (const QString& t : line.split(' ', Qt::SkipEmptyParts))
        v.push_back(t.toInt());
    return v;
}

} // namespace

class TestProtovar : public QObject {
    Q_OBJECT
private slots:
    void kmeansMatchesScipy() {
        if (!havePython("numpy, scipy"))
            QSKIP("/usr/bin/python3 with numpy and scipy not available");
        pl::Rng rng(11);
        Eigen::MatrixXd X(300, 4);
        for (Eigen::Index i = 0; i < X.rows(); ++i)
            for (Eigen::Index j = 0; j < X.cols(); ++j)
                X(i, j) = rng.normal() + 4.0 * double((i % 5) == j);
        const Eigen::MatrixXd C0 = kmeansPlusPlus(X, 6, rng);
        std::set<std::vector<double>> seeds;
        for (Eigen::Index c = 0; c < C0.rows(); ++c) { // seeds are distinct data rows
            bool isRow = false;
            for (Eigen::Index i = 0; i < X.rows() && !isRow; ++i)
                isRow = (X.row(i) - C0.row(c)).norm() == 0;
            QVERIFY(isRow);
            seeds.insert({C0.row(c).data(), C0.row(c).data() + 4});
        }
        QCOMPARE(seeds.size(), size_t(6));
        const KMeansResult r = lloyd(X, C0, 7);
        QTemporaryDir dir;
        QFile f(dir.filePath("m.txt"));
        QVERIFY(f.open(QIODevice::WriteOnly));
        writeMatrix(f, "X", X);
        writeMatrix(f, "C0", C0);
        f.close();
        const QStringList out = pythonLines(kKmeansScript.c_str(), {f.fileName(), "7"});
        QCOMPARE(out.size(), 7);
        for (int c = 0; c < 6; ++c) {
            const QStringList v = out[c].split(' ');
            for (int j = 0; j < 4; ++j)
                QVERIFY(std::abs(v[j].toDouble() - r.centres(c, j)) < 1e-9);
        }
        QCOMPARE(ints(out[6]), r.labels);
        // the converging version stops at a fixed point of Lloyd's map
        pl::Rng again(3);
        const KMeansResult k = kmeans(X, 5, again, 100);
        QVERIFY(k.iterations < 100);
        QCOMPARE(lloyd(X, k.centres, 1).centres, k.centres);
    }

    void selectorsMatchNumpy() {
        if (!havePython("numpy"))
            QSKIP("/usr/bin/python3 with numpy not available");
        pl::Rng rng(4);
        Eigen::MatrixXd phi(25, 3);
        for (Eigen::Index i = 0; i < phi.rows(); ++i)
            for (Eigen::Index j = 0; j < 3; ++j)
                phi(i, j) = std::round(4 * rng.normal()) / 2; // coarse values: ties happen
        phi.row(17) = phi.row(3);                             // an exact duplicate: the lower index must win
        const Eigen::RowVectorXd mu = phi.colwise().mean();
        QTemporaryDir dir;
        QFile f(dir.filePath("s.txt"));
        QVERIFY(f.open(QIODevice::WriteOnly));
        writeMatrix(f, "phi", phi);
        writeMatrix(f, "mu", mu);
        f.close();
        const QStringList out = pythonLines(kSelectorScript.c_str(), {f.fileName(), "9"});
        QCOMPARE(out.size(), 2);
        QCOMPARE(herding(phi, mu, 9), ints(out[0]));
        QCOMPARE(kcenter(phi, mu, 9), ints(out[1]));
        // hand case: all equal -> 0, 1, 2 in order
        const Eigen::MatrixXd same = Eigen::MatrixXd::Ones(4, 2);
        QCOMPARE(herding(same, same.row(0), 3), (std::vector<int>{0, 1, 2}));
        QCOMPARE(kcenter(same, same.row(0), 3), (std::vector<int>{0, 1, 2}));
        QCOMPARE(herding(same, same.row(0), 9).size(), size_t(4));
    }

    void quantiserMatchesNumpy() {
        if (!havePython("numpy"))
            QSKIP("/usr/bin/python3 with numpy not available");
        for (int side : {16, 32}) {
            MultiScaleQuantiser q(side, scalesForGrid(side / 4), 24);
            pl::Rng rng(side);
            std::vector<int> y;
            Eigen::MatrixXd imgs(4, side * side);
            for (Eigen::Index i = 0; i < 4; ++i)
                for (Eigen::Index j = 0; j < imgs.cols(); ++j)
                    imgs(i, j) = rng.uniform();
            q.fit(imgs, rng, 400);
            QTemporaryDir dir;
            QFile f(dir.filePath("q.txt"));
            QVERIFY(f.open(QIODevice::WriteOnly));
            writeMatrix(f, "E", q.codebook());
            writeMatrix(f, "I", imgs);
            writeMatrix(f, "S", Eigen::RowVector2d(q.pixelMean(), q.pixelSd()));
            f.close();
            QString scales;
            for (int s : q.scales())
                scales += (scales.isEmpty() ? "" : ",") + QString::number(s);
            const QStringList out =
                pythonLines(kQuantiserScript.c_str(), {f.fileName(), QString::number(side), scales});
            QCOMPARE(out.size(), 8);
            for (int i = 0; i < 4; ++i) {
                const ScaleTokens t = q.encode(q.latent(imgs.row(i).transpose()));
                std::vector<int> flatTokens;
                for (const auto& s : t)
                    flatTokens.insert(flatTokens.end(), s.begin(), s.end());
                QCOMPARE(flatTokens, ints(out[2 * i]));
                const Eigen::VectorXd rec = q.image(q.decode(t));
                const QStringList v = out[2 * i + 1].split(' ');
                QCOMPARE(v.size(), int(rec.size()));
                for (int j = 0; j < v.size(); ++j)
                    QVERIFY(std::abs(v[j].toDouble() - rec(j)) < 1e-9);
            }
        }
        // latent and image are inverse; pooling rows sum to 1; the last scale is the identity
        MultiScaleQuantiser q(16, {1, 2, 3, 4}, 8);
        pl::Rng rng(1);
        Eigen::VectorXd img(256);
        for (Eigen::Index j = 0; j < 256; ++j)
            img(j) = rng.uniform();
        QCOMPARE(q.image(q.latent(img)), img);
        QVERIFY((areaPool1d(4, 3).rowwise().sum().array() - 1).abs().maxCoeff() < 1e-15);
        QVERIFY(q.down(3).isIdentity() && q.up(3).isIdentity());
    }

    void prototypeBiasPullsTokens() {
        // With a huge beta every scale-1 token is the codeword nearest to down_1(prototype).
        MultiScaleQuantiser q(16, {1, 2, 3, 4}, 16);
        pl::Rng rng(2);
        std::vector<int> y;
        const Eigen::MatrixXd X = renderGlyphSet(8, rng, y);
        q.fit(X, rng, 2000);
        ScaleGenerator g(q, kGlyphClasses, 16, rng);
        SampleRequest req;
        req.cls = 3;
        req.count = 20;
        const Eigen::MatrixXd proto = q.latent(X.row(30).transpose());
        req.prototypes.assign(4, {proto});
        req.betaK = {1e6, 0, 0, 0};
        pl::Rng srng(9);
        const SampledPool p = g.sample(req, srng);
        const int want = nearestCentres(q.down(0) * proto, q.codebook())[0];
        for (const ScaleTokens& t : p.tokens)
            QCOMPARE(t[0][0], want);
        QVERIFY(p.entropyBits[0] < 1e-3);
        QCOMPARE(betaSchedule(3, 4), (std::vector<double>{3, 1.5, 0.75, 0.375}));
    }

    void glyphsAndShifts() {
        pl::Rng rng(5);
        std::vector<int> y;
        const Eigen::MatrixXd X = renderGlyphSet(3, rng, y);
        QCOMPARE(X.rows(), Eigen::Index(30));
        QVERIFY(X.minCoeff() >= 0 && X.maxCoeff() <= 1);
        QCOMPARE(y[29], 9);
        QCOMPARE(glyphClassNames()[9], std::string("L"));
        std::vector<int> ya;
        Eigen::MatrixXd one = Eigen::MatrixXd::Zero(1, 256);
        one(0, 5 * 16 + 5) = 1;
        const Eigen::MatrixXd A = shiftAugment(one, 16, {4}, ya);
        QCOMPARE(A.rows(), Eigen::Index(5));
        QCOMPARE(ya, (std::vector<int>{4, 4, 4, 4, 4}));
        QCOMPARE(A(2, 5 * 16 + 6), 1.0); // shifted right by one
        QCOMPARE(A(4, 6 * 16 + 5), 1.0); // shifted down by one
    }

    void idxReader() {
        const IdxInput img = parseProtovarIdx(idxBytes({0, 0, 8, 3}, {3, 16, 16}, 768), "i.idx");
        const IdxInput lab = parseProtovarIdx(idxBytes({0, 0, 8, 1}, {3}, 3), "l.idx");
        QCOMPARE(img.dims, (std::vector<int64_t>{3, 16, 16}));
        QVERIFY(inputError([] {
                    parseProtovarIdx(idxBytes({0, 0, 9, 3}, {1, 2, 2}, 4), "m.idx");
                }).find("magic") != std::string::npos);
        QVERIFY(inputError([] {
                    parseProtovarIdx(idxBytes({0, 0, 8, 3}, {2, 16, 16}, 500), "t.idx");
                }).find("payload has 500 bytes") != std::string::npos);
        QVERIFY(inputError([] {
                    parseProtovarIdx(idxBytes({0, 0, 8, 3}, {1, 40, 40}, 1600), "b.idx");
                }).find("32 x 32") != std::string::npos);
        QVERIFY(inputError([] { parseProtovarIdx("\0\0", "s.idx"); }).find("header") != std::string::npos);
        // a pair: class order by label value; a count mismatch names both files
        auto i = std::make_shared<IdxInput>(img);
        auto l = std::make_shared<IdxInput>(lab);
        l->values = {7, 2, 7};
        ImageSet tr, te;
        gatherProtovarInputs({l, i}, tr, te); // either order
        QCOMPARE(tr.classes, (std::vector<std::string>{"2", "7"}));
        QCOMPARE(tr.y.size() + te.y.size(), size_t(3));
        auto l2 = std::make_shared<IdxInput>(parseProtovarIdx(idxBytes({0, 0, 8, 1}, {4}, 4), "l2.idx"));
        l2->path = "l2.idx";
        const std::string mismatch = inputError([&] { gatherProtovarInputs({i, l2}, tr, te); });
        QVERIFY2(mismatch.find("count mismatch: 3 images but 4 labels in l2.idx") != std::string::npos,
                 mismatch.c_str());
        QVERIFY(inputError([&] { gatherProtovarInputs({i}, tr, te); }).find("pairs") != std::string::npos);
    }

    void pngFolders() {
        const PngFolderInput good = readPngFolders((kFixtures + "good").toStdString());
        QCOMPARE(good.set.classes, (std::vector<std::string>{"Ring", "bar", "circle"})); // byte-wise
        QCOMPARE(good.set.X.rows(), Eigen::Index(36));
        QCOMPARE(good.set.side, 16);
        QCOMPARE(good.set.notices.size(), size_t(1));
        QVERIFY(good.set.notices[0].find("12 colour and 24 grey") != std::string::npos);
        QVERIFY(good.set.X.maxCoeff() <= 1 && good.set.X.minCoeff() >= 0);
        const std::string sizes =
            inputError([] { readPngFolders((kFixtures + "mixed_sizes").toStdString()); });
        QVERIFY2(sizes.find("mixed image sizes") != std::string::npos &&
                     sizes.find("b/9_big.png (20 x 20)") != std::string::npos,
                 sizes.c_str());
        const std::string corrupt = inputError([] { readPngFolders((kFixtures + "corrupt").toStdString()); });
        QVERIFY2(corrupt.find("2 corrupt PNG") != std::string::npos &&
                     corrupt.find("a/7_text.png") != std::string::npos &&
                     corrupt.find("b/1.png") != std::string::npos,
                 corrupt.c_str());
        // a class with fewer training images than ipc (12 per class, 1 in 5 held out)
        ProtovarEngine e;
        pl::ParamSet p = quick(e);
        p.setText(keys::param::kIpc, "11");
        pl::RunContext ctx(1);
        const auto in = e.load((kFixtures + "good").toStdString());
        const std::string few = inputError([&] { e.run({in}, p, ctx); });
        QVERIFY2(few.find("fewer training images than ipc = 11: Ring (10), bar (10), circle (10)") !=
                     std::string::npos,
                 few.c_str());
        p.setText(keys::param::kIpc, "3");
        const pl::ResultDocument d = e.run({in}, p, ctx);
        QCOMPARE(d.labels.at(keys::label::kSelectedReal).size(), size_t(9));
        QVERIFY(!d.notes.empty());
    }

    void runHasKeysAndIsDeterministic() {
        ProtovarEngine e;
        auto run = [&](uint64_t seed) {
            pl::RunContext ctx(seed);
            return e.run({}, quick(e), ctx);
        };
        const pl::ResultDocument a = run(7), b = run(7), c = run(8);
        for (const char* m : keys::kMethods)
            QVERIFY2(a.metrics.count(keys::metric::kAccPrefix + std::string(m)), m);
        const auto& sel = a.labels.at(keys::label::kSelectedReal);
        QCOMPARE(sel.size(), size_t(20));
        for (size_t i = 0; i < sel.size(); ++i) // class by class: training rows are class-major (30 each)
            QCOMPARE(sel[i] / 30, int64_t(i / 2));
        const pl::Series& v = a.series.at(keys::series::kPoolVarianceVsBeta);
        QCOMPARE(v.x, (std::vector<double>{0, 0.5, 1, 2, 5, 10}));
        QCOMPARE(a.series.at(keys::series::kTokenEntropyVsScale).y.size(), size_t(4));
        QVERIFY(a.metrics.at(keys::metric::kMsPerGeneratedImage) > 0);
        QCOMPARE(a.labels, b.labels);
        for (const auto& [k, val] : a.metrics)
            if (k != keys::metric::kMsPerGeneratedImage)
                QCOMPARE(val, b.metrics.at(k));
        QCOMPARE(a.series.at(keys::series::kPoolVarianceVsBeta).y,
                 b.series.at(keys::series::kPoolVarianceVsBeta).y);
        QCOMPARE(noNan(a.matrices.at(keys::matrix::kPoolGrid).data),
                 noNan(b.matrices.at(keys::matrix::kPoolGrid).data));
        QVERIFY(noNan(a.matrices.at(keys::matrix::kPoolGrid).data) !=
                noNan(c.matrices.at(keys::matrix::kPoolGrid).data));
    }

    void cancels() {
        ProtovarEngine e;
        pl::RunContext ctx(1);
        ctx.requestStop();
        QVERIFY_THROWS_EXCEPTION(pl::Cancelled, e.run({}, pl::ParamSet(e.params()), ctx));
    }

    void claimsOverSeeds_data() {
        QTest::addColumn<uint64_t>("seed");
        for (uint64_t s : {1u, 2u, 3u})
            QTest::newRow(qPrintable(QString::number(s))) << s;
    }
    void claimsOverSeeds() {
        QFETCH(uint64_t, seed);
        ProtovarEngine e;
        pl::RunContext ctx(seed);
        const pl::ResultDocument d = e.run({}, pl::ParamSet(e.params()), ctx);
        for (const auto& c : d.claims)
            qInfo("seed %llu %s holds=%d observed=%.4f threshold=%.3f: %s", (unsigned long long)seed,
                  c.id.c_str(), int(c.holds), c.observed, c.threshold, c.detail.c_str());
        for (const auto& [k, v] : d.metrics)
            qInfo("seed %llu %s = %.4f", (unsigned long long)seed, k.c_str(), v);
        // Paper defaults. Observed at seeds 1-3: the variance falls by 47-50 % at beta = 10 with no
        // step up; ProtoVAR is 15-21 points above unguided VAR at IPC 10 but only 5-13 at IPC 1 (the
        // claim holds at seeds 2 and 3); at IPC 1 it is -4 to +0.2 points from a random real subset
        // (holds at seed 2 only).
        QCOMPARE(d.claims.size(), size_t(3));
        for (const auto& c : d.claims) {
            if (c.id == keys::claim::kVarianceFalls)
                QVERIFY2(c.holds && c.observed > 0.3, c.detail.c_str());
            else
                QCOMPARE(c.holds, c.observed >= c.threshold);
        }
        const pl::Series& pv = d.series.at(std::string(keys::series::kAccVsIpcPrefix) + "protovar");
        const pl::Series& vu = d.series.at(std::string(keys::series::kAccVsIpcPrefix) + "var_unguided");
        QCOMPARE(pv.x, (std::vector<double>{1, 10}));
        QVERIFY(pv.y[1] > vu.y[1] + 0.1); // guidance + filter + herding beat unguided sampling at IPC 10
        QVERIFY(d.metrics.at(keys::metric::kClassifierAcc) > 0.6);
        // the prototype pull sharpens the coarsest scale's token distribution
        QVERIFY(d.series.at(keys::series::kTokenEntropyVsScale).y[0] <
                d.series.at(keys::series::kTokenEntropyUnguided).y[0]);
    }
};

QTEST_GUILESS_MAIN(TestProtovar)
#include "tst_protovar.moc"
