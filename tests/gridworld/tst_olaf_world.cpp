// The olaf-world engine: PCA against numpy's SVD and sklearn, the generalised eigensolver of the slow
// features against scipy.linalg.eigh, the PNG reader against PNGs written by Python's zlib (filters,
// colour), the latent action model's loss falls, bad clips and label files, determinism, and the
// claims over three seeds (logged; the cosine claim asserted on at least two of them).
#include "common/PythonOracle.h"
#include "core/Errors.h"
#include "core/NpyReader.h"
#include "gridworld/ClipReader.h"
#include "gridworld/FrozenEncoder.h"
#include "gridworld/LatentActionModel.h"
#include "gridworld/OlafWorldEngine.h"
#include "gridworld/OlafWorldKeys.h"
#include "gridworld/PngReader.h"
#include "gridworld/SpriteWorld.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <fstream>

using namespace pl::gridworld;
namespace keys = pl::olaf::keys;

namespace {

void writeBytes(const QString& path, const std::string& bytes) {
    std::ofstream f(path.toStdString(), std::ios::binary);
    f << bytes;
}

std::string npyOf(const Eigen::MatrixXd& m) {
    std::vector<double> v;
    for (Eigen::Index r = 0; r < m.rows(); ++r)
        for (Eigen::Index c = 0; c < m.cols(); ++c)
            v.push_back(m(r, c));
    return pl::writeNpy({m.rows(), m.cols()}, v);
}

Eigen::MatrixXd randomMatrix(int rows, int cols, uint64_t seed) {
    pl::Rng r(seed);
    Eigen::MatrixXd m(rows, cols);
    for (Eigen::Index i = 0; i < m.size(); ++i)
        m.data()[i] = r.normal();
    return m;
}

pl::ResultDocument runOlaf(uint64_t seed, const std::map<std::string, std::string>& set) {
    pl::olaf::OlafWorldEngine e;
    pl::ParamSet p(e.params());
    for (const auto& [k, v] : set)
        p.setText(k, v);
    pl::RunContext ctx(seed);
    return e.run({}, p, ctx);
}

const std::map<std::string, std::string> kSmall{
    {"clips_per_context", "20"}, {"iterations", "150"}, {"hidden", "32"}};

const char* kPcaScript = R"(
import sys, numpy as np
from sklearn.decomposition import PCA
x = np.load(sys.argv[1]); k = int(sys.argv[2])
xc = x - x.mean(0)
u, s, vt = np.linalg.svd(xc, full_matrices=False)
p = PCA(n_components=k, svd_solver='full').fit(x)
for j in range(k):
    print(' '.join('%.12g' % v for v in vt[j]))
print(' '.join('%.12g' % v for v in (s[:k] ** 2 / (len(x) - 1))))
for j in range(k):
    print(' '.join('%.12g' % v for v in p.components_[j]))
print(' '.join('%.12g' % v for v in p.explained_variance_))
)";

const char* kEighScript = R"(
import sys, numpy as np, scipy.linalg
a = np.load(sys.argv[1]); b = np.load(sys.argv[2])
w, v = scipy.linalg.eigh(a, b)
print(' '.join('%.12g' % x for x in w))
for j in range(v.shape[1]):
    print(' '.join('%.12g' % x for x in v[:, j]))
)";

// A 5 x 4 RGB PNG with a different row filter per row (0..4), and a 16-bit gray one.
const char* kPngScript = R"(
import sys, zlib, struct
def chunk(t, d):
    return struct.pack('>I', len(d)) + t + d + struct.pack('>I', zlib.crc32(t + d) & 0xffffffff)
def png(path, w, h, ctype, depth, rows, bpp):
    raw = b''
    prev = bytes(len(rows[0]))
    for y, row in enumerate(rows):
        f = y % 5
        out = bytearray()
        for i, x in enumerate(row):
            a = row[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if f == 0: p = 0
            elif f == 1: p = a
            elif f == 2: p = b
            elif f == 3: p = (a + b) // 2
            else:
                pp = a + b - c; pa, pb, pc = abs(pp - a), abs(pp - b), abs(pp - c)
                p = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
            out.append((x - p) & 255)
        raw += bytes([f]) + bytes(out)
        prev = row
    ihdr = struct.pack('>IIBBBBB', w, h, depth, ctype, 0, 0, 0)
    open(path, 'wb').write(b'\x89PNG\r\n\x1a\n' + chunk(b'IHDR', ihdr) + chunk(b'IDAT', zlib.compress(raw)) + chunk(b'IEND', b''))
w, h = 5, 4
rows = [bytes([(37 * (x + 3 * y) + 11 * c) % 256 for x in range(w) for c in range(3)]) for y in range(h)]
png(sys.argv[1], w, h, 2, 8, rows, 3)
for y in range(h):
    print(' '.join('%.12g' % ((0.299 * rows[y][3 * x] + 0.587 * rows[y][3 * x + 1] + 0.114 * rows[y][3 * x + 2]) / 255) for x in range(w)))
rows16 = [b''.join(struct.pack('>H', (4099 * (x + 2 * y)) % 65536) for x in range(w)) for y in range(h)]
png(sys.argv[2], w, h, 0, 16, rows16, 2)
for y in range(h):
    print(' '.join('%.12g' % (((4099 * (x + 2 * y)) % 65536) / 65535) for x in range(w)))
)";

std::vector<double> numbers(const QString& line) {
    std::vector<double> v;
    for (const QString& t : line.split(' ', Qt::SkipEmptyParts))
        v.push_back(t.toDouble());
    return v;
}

} // namespace

class TestOlafWorld : public QObject {
    Q_OBJECT
private slots:
    void pcaMatchesNumpyAndSklearn() {
        if (!pl::test::havePython("numpy, sklearn"))
            QSKIP("python3 with numpy and sklearn not available");
        Eigen::MatrixXd x = randomMatrix(80, 12, 3);
        for (int c = 0; c < 12; ++c) // distinct variances
            x.col(c) *= 1.0 + 0.4 * c;
        const int k = 4;
        const FrozenEncoder f = FrozenEncoder::pca(x, k);
        QTemporaryDir dir;
        writeBytes(dir.filePath("x.npy"), npyOf(x));
        const QStringList out =
            pl::test::pythonLines(kPcaScript, {dir.filePath("x.npy"), QString::number(k)});
        QCOMPARE(out.size(), 2 * (k + 1));
        for (int block = 0; block < 2; ++block) { // numpy SVD, then sklearn
            for (int j = 0; j < k; ++j) {
                const std::vector<double> v = numbers(out[block * (k + 1) + j]);
                const Eigen::Map<const Eigen::VectorXd> ref(v.data(), Eigen::Index(v.size()));
                QVERIFY2(std::fabs(std::fabs(ref.dot(f.pixelBasis().col(j))) - 1.0) < 1e-9,
                         qPrintable(QString::number(j)));
            }
            const std::vector<double> var = numbers(out[block * (k + 1) + k]);
            for (int j = 0; j < k; ++j)
                QVERIFY(std::fabs(var[size_t(j)] - f.spectrum()(j)) < 1e-9 * var[0]);
        }
        // encode = projection of the centred rows on the basis
        const Eigen::MatrixXd e = f.encode(x);
        QVERIFY(((x.rowwise() - x.colwise().mean()) * f.pixelBasis() - e).norm() < 1e-10);
    }
    void generalizedEigenMatchesScipy() {
        if (!pl::test::havePython("numpy, scipy"))
            QSKIP("python3 with numpy and scipy not available");
        const Eigen::MatrixXd fa = randomMatrix(40, 6, 5), fb = randomMatrix(60, 6, 6);
        const Eigen::MatrixXd a = fa.transpose() * fa / 40.0, b = fb.transpose() * fb / 60.0;
        const GeneralizedEigen g = generalizedEigen(a, b);
        QTemporaryDir dir;
        writeBytes(dir.filePath("a.npy"), npyOf(a));
        writeBytes(dir.filePath("b.npy"), npyOf(b));
        const QStringList out =
            pl::test::pythonLines(kEighScript, {dir.filePath("a.npy"), dir.filePath("b.npy")});
        QCOMPARE(out.size(), 7);
        const std::vector<double> w = numbers(out[0]);
        for (int j = 0; j < 6; ++j) {
            QVERIFY(std::fabs(w[size_t(j)] - g.values(j)) < 1e-9 * (1 + std::fabs(w[size_t(j)])));
            const std::vector<double> v = numbers(out[1 + j]);
            const Eigen::Map<const Eigen::VectorXd> ref(v.data(), 6);
            // same vector up to sign; both B-normalised
            QVERIFY(std::min((ref - g.vectors.col(j)).norm(), (ref + g.vectors.col(j)).norm()) < 1e-7);
        }
    }
    void slowFeaturesAreSlow() {
        SpriteWorldOptions o;
        o.contexts = 2;
        o.clipsPerContext = 10;
        const ClipSet s = generateSpriteWorld(o, pl::Rng(2));
        const FrozenEncoder f = FrozenEncoder::sfa(s, 4, 64, pl::Rng(3));
        QCOMPARE(f.dim(), 4);
        QCOMPARE(f.pixelBasis().rows(), Eigen::Index(s.pixels()));
        for (int j = 1; j < 4; ++j)
            QVERIFY(f.spectrum()(j) >= f.spectrum()(j - 1)); // ascending slowness
        // φ is centred, unit variance (vᵀ C v = 1 up to the ridge) and slower than a random direction
        const Eigen::MatrixXd e = f.encode(s.frames);
        QVERIFY(e.colwise().mean().norm() < 1e-8);
        const double var0 = e.col(0).squaredNorm() / double(e.rows() - 1);
        QVERIFY(std::fabs(var0 - 1.0) < 0.05);
    }
    void pngMatchesPython() {
        if (!pl::test::havePython("zlib"))
            QSKIP("python3 not available");
        QTemporaryDir dir;
        const QStringList out =
            pl::test::pythonLines(kPngScript, {dir.filePath("rgb.png"), dir.filePath("g16.png")});
        QCOMPARE(out.size(), 8);
        const PngImage rgb = readPng(dir.filePath("rgb.png").toStdString());
        const PngImage g16 = readPng(dir.filePath("g16.png").toStdString());
        QVERIFY(rgb.colour);
        QVERIFY(!g16.colour);
        for (int y = 0; y < 4; ++y) {
            const std::vector<double> a = numbers(out[y]), b = numbers(out[4 + y]);
            for (int x = 0; x < 5; ++x) {
                QVERIFY(std::fabs(rgb.gray(y, x) - a[size_t(x)]) < 1e-12);
                QVERIFY(std::fabs(g16.gray(y, x) - b[size_t(x)]) < 1e-12);
            }
        }
        // our encoder round-trips (8-bit)
        Eigen::MatrixXd img(3, 7);
        for (int i = 0; i < 21; ++i)
            img.data()[i] = (i * 12) / 255.0;
        QVERIFY((parsePng(encodeGrayPng(img), "mem").gray - img).cwiseAbs().maxCoeff() < 1e-12);
    }
    void badPngs() {
        Eigen::MatrixXd img = Eigen::MatrixXd::Constant(4, 4, 0.5);
        std::string good = encodeGrayPng(img);
        QVERIFY_THROWS_EXCEPTION(pl::InputError, parsePng("not a png", "x.png"));
        std::string crc = good;
        crc[20] = char(crc[20] ^ 1); // inside IHDR: CRC mismatch
        QVERIFY_THROWS_EXCEPTION(pl::InputError, parsePng(crc, "x.png"));
        QVERIFY_THROWS_EXCEPTION(pl::InputError, parsePng(good.substr(0, good.size() - 20), "x.png"));
    }
    void pngFolderClipsAndGaps() {
        QTemporaryDir dir;
        for (int c = 0; c < 2; ++c) {
            QDir(dir.path()).mkpath(QStringLiteral("clip_%1").arg(c));
            for (int t : {0, 1, 2, 4, 5, 6}) { // frame 3 missing: a gap warning
                Eigen::MatrixXd img = Eigen::MatrixXd::Constant(6, 6, 0.1);
                img(t % 6, c) = 0.9;
                writeBytes(dir.filePath(QStringLiteral("clip_%1/frame_%2.png").arg(c).arg(t)),
                           encodeGrayPng(img));
            }
        }
        const ClipFile f = readClipFolder(dir.path().toStdString());
        QCOMPARE(f.clips.size(), size_t(2));
        QCOMPARE(f.clips[0].rows(), Eigen::Index(6));
        QCOMPARE(f.names[1], std::string("clip_1"));
        QCOMPARE(f.warnings.size(), size_t(2));
        QVERIFY(QString::fromStdString(f.warnings[0]).contains("missing 3"));
        // contexts by name and by index, actions by name and number
        const LabelFile ctx = parseLabelFile("clip,context\nclip_0,day\n1,night\n", "contexts.csv");
        const LabelFile act = parseLabelFile("clip,t,action\nclip_0,0,right\nclip_1,4,3\n", "actions.csv");
        std::vector<std::string> notes;
        const ClipSet s = assembleClips({&f}, {&ctx, &act}, 4, notes);
        QCOMPARE(s.contexts(), 2);
        QCOMPARE(s.context[1], 1);
        QCOMPARE(s.actions[size_t(s.transitionRow(1, 4))], 3);
        QCOMPARE(s.actions[size_t(s.transitionRow(0, 1))], kUnknownAction);
        // a clip of 6 frames is too short for window 5 (needs 6 + 1 frames)
        QVERIFY_THROWS_EXCEPTION(pl::InputError, assembleClips({&f}, {&ctx}, 6, notes));
        // a different frame size in a second folder
        QDir(dir.path()).mkpath("other");
        for (int t = 0; t < 7; ++t)
            writeBytes(dir.filePath(QStringLiteral("other/frame_%1.png").arg(t)),
                       encodeGrayPng(Eigen::MatrixXd::Constant(5, 6, 0.2)));
        const ClipFile g = readClipFolder(dir.filePath("other").toStdString());
        QVERIFY_THROWS_EXCEPTION(pl::InputError, assembleClips({&f, &g}, {}, 4, notes));
    }
    void badLabelsAndArrays() {
        QVERIFY_THROWS_EXCEPTION(pl::InputError, parseLabelFile("clip,context\nclip_0,a\nclip_1\n", "c.csv"));
        QVERIFY_THROWS_EXCEPTION(pl::InputError, parseLabelFile("clip,t,action\nclip_0,x,right\n", "a.csv"));
        QVERIFY_THROWS_EXCEPTION(pl::InputError, parseLabelFile("clip,t,action\nclip_0,1,jump\n", "a.csv"));
        QVERIFY_THROWS_EXCEPTION(pl::InputError, parseLabelFile("a,b,c,d\n", "a.csv"));
        try {
            parseLabelFile("clip,context\nclip_0,a\n\nclip_1,b,c\n", "c.csv");
            QFAIL("no error");
        } catch (const pl::InputError& e) {
            QVERIFY2(QString::fromUtf8(e.what()).contains(":4"), e.what());
        }
        std::vector<double> v(2 * 6 * 4 * 4, 0.5);
        v[50] = std::nan("");
        QVERIFY_THROWS_EXCEPTION(pl::InputError, parseClipNpy(pl::writeNpy({2, 6, 4, 4}, v), "n.npy"));
        QVERIFY_THROWS_EXCEPTION(pl::InputError,
                                 parseClipNpy(pl::writeNpy({6, 16}, std::vector<double>(96)), "n.npy"));
        const ClipFile ok =
            parseClipNpy(pl::writeNpy({3, 6, 4, 4}, std::vector<double>(3 * 6 * 16, 0.5)), "n.npy");
        const LabelFile unknown = parseLabelFile("clip,context\nclip_7,a\n", "c.csv");
        std::vector<std::string> notes;
        QVERIFY_THROWS_EXCEPTION(pl::InputError, assembleClips({&ok}, {&unknown}, 4, notes));
        const LabelFile some = parseLabelFile("clip,context\nclip_0,a\n", "c.csv");
        QVERIFY_THROWS_EXCEPTION(pl::InputError,
                                 assembleClips({&ok}, {&some}, 4, notes)); // clips 1, 2 lack one
    }
    void lamLossDecreases() {
        SpriteWorldOptions o;
        o.contexts = 2;
        o.clipsPerContext = 15;
        const ClipSet s = generateSpriteWorld(o, pl::Rng(4));
        const FrozenEncoder phi = FrozenEncoder::pca(s.frames, 6);
        const Eigen::MatrixXd pf = phi.encode(s.frames);
        for (double lambda : {0.0, 1.0}) {
            LamOptions lo;
            lo.hidden = 32;
            lo.iterations = 300;
            lo.lambda = lambda;
            pl::Rng init(5), train(6);
            const double mean = s.frames.mean();
            LatentActionModel m(s.pixels(), 6, mean, 0.2, lo, init);
            const double before = m.evalLoss(s);
            pl::RunContext ctx(1);
            const LamCurves c = m.train(s, pf, train, ctx, 0, 1);
            const double after = m.evalLoss(s);
            qInfo("lambda %.0f: L_LAM %.3f -> %.3f; minibatch recon %.3f -> %.3f, align %.3f -> %.3f", lambda,
                  before, after, c.recon.front(), c.recon.back(), c.align.front(), c.align.back());
            QVERIFY(after < 0.8 * before);
            if (lambda > 0)
                QVERIFY(c.align.back() < c.align.front());
        }
    }
    void deterministicAndSeeded() {
        const pl::ResultDocument a = runOlaf(3, kSmall), b = runOlaf(3, kSmall), c = runOlaf(4, kSmall);
        QCOMPARE(a.toJson(), b.toJson());
        QVERIFY(a.matrices.at(keys::matrix::kLatentAligned).data !=
                c.matrices.at(keys::matrix::kLatentAligned).data);
        const auto& z = a.matrices.at(keys::matrix::kLatentBaseline);
        QCOMPARE(z.rows, int64_t(a.metrics.at(keys::metric::kTransitions)));
        QCOMPARE(z.cols, int64_t(2));
        QCOMPARE(a.matrices.at(keys::matrix::kPhiBasis).rows, int64_t(256));
        QCOMPARE(a.matrices.at(keys::matrix::kPhiBasis).cols, int64_t(8));
        for (const char* k : {keys::metric::kCosineBaseline, keys::metric::kCosineAligned,
                              keys::metric::kProbeBaseline, keys::metric::kProbeAligned})
            QVERIFY2(a.metrics.count(k) && std::isfinite(a.metrics.at(k)), k);
    }
    void cancellation() {
        pl::olaf::OlafWorldEngine e;
        pl::ParamSet p(e.params());
        pl::RunContext ctx(1);
        ctx.requestStop();
        QVERIFY_THROWS_EXCEPTION(pl::Cancelled, e.run({}, p, ctx));
    }
    void claimsOverSeeds() {
        // The paper's claims are logged as they come out (they do not reproduce on this stand-in at the
        // interactive scale: see the help). Asserted: the alignment is learnt (cos(h(Z), Δφ) well above
        // 0 on every seed) and the latents carry the actions (probe transfer above chance 0.2 on average).
        double probe = 0;
        for (uint64_t seed = 1; seed <= 3; ++seed) {
            const pl::ResultDocument d = runOlaf(seed, {});
            for (const auto& c : d.claims)
                qInfo("seed %llu %s: %s (observed %.3f, threshold %.2f) %s", (unsigned long long)seed, c.id.c_str(),
                      c.holds ? "holds" : "does not hold", c.observed, c.threshold, c.detail.c_str());
            QCOMPARE(d.claims.size(), size_t(4));
            for (const auto& c : d.claims)
                QVERIFY2(std::isfinite(c.observed), c.id.c_str());
            QVERIFY(d.metrics.at(keys::metric::kAlignCosAligned) > 0.25);
            probe += d.metrics.at(keys::metric::kProbeBaseline) + d.metrics.at(keys::metric::kProbeAligned);
        }
        QVERIFY2(probe / 6 > 0.22, qPrintable(QString::number(probe / 6)));
    }
};

QTEST_GUILESS_MAIN(TestOlafWorld)
#include "tst_olaf_world.moc"
