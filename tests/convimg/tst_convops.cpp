// convimg tape ops: forward values against scipy.signal.correlate2d and a numpy im2col, and every
// gradient (conv 3x3 / 5x5, SiLU, GroupNorm, FiLM, pooling, resize, the Darcy residual) against
// central finite differences.
#include "common/PythonOracle.h"
#include "convimg/ConvOps.h"
#include "convimg/DarcyTape.h"

#include "core/Errors.h"
#include "core/NpyReader.h"
#include "core/Rng.h"

#include <QTemporaryDir>
#include <QtTest>

#include <fstream>
#include <functional>

using namespace pl::convimg;
using pl::nn::Tape;
using pl::test::havePython;
using pl::test::pythonLines;

namespace {

Mat randomMat(int r, int c, uint64_t seed, double lo = -1, double hi = 1) {
    pl::Rng rng(seed);
    Mat m(r, c);
    for (int j = 0; j < c; ++j)
        for (int i = 0; i < r; ++i)
            m(i, j) = rng.uniform(lo, hi);
    return m;
}

void saveNpy(const QString& path, const std::vector<int64_t>& shape, const Mat& rowMajorSource) {
    std::vector<double> v;
    for (Eigen::Index i = 0; i < rowMajorSource.rows(); ++i)
        for (Eigen::Index j = 0; j < rowMajorSource.cols(); ++j)
            v.push_back(rowMajorSource(i, j));
    std::ofstream(path.toStdString(), std::ios::binary) << pl::writeNpy(shape, v);
}

using OpFn = std::function<Var(Tape&, const std::vector<Var>&)>;

/// Max relative error between backward() and central differences of L = sum(op(x) .* W).
double gradCheck(const std::vector<Mat>& inputs, const OpFn& op, uint64_t seed) {
    Mat weights;
    std::vector<Mat> analytic;
    {
        Tape t;
        std::vector<Var> vs;
        for (const Mat& m : inputs)
            vs.push_back(t.variable(m));
        const Var y = op(t, vs);
        weights = randomMat(int(y.rows()), int(y.cols()), seed);
        t.backward(pl::nn::sum(pl::nn::mul(y, t.constant(weights))));
        for (const Var& v : vs)
            analytic.push_back(v.grad());
    }
    auto loss = [&](const std::vector<Mat>& in) {
        Tape t;
        std::vector<Var> vs;
        for (const Mat& m : in)
            vs.push_back(t.constant(m));
        return (op(t, vs).value().array() * weights.array()).sum();
    };
    double worst = 0;
    const double eps = 1e-6;
    for (size_t k = 0; k < inputs.size(); ++k)
        for (Eigen::Index i = 0; i < inputs[k].size(); ++i) {
            std::vector<Mat> plus = inputs, minus = inputs;
            plus[k].data()[i] += eps;
            minus[k].data()[i] -= eps;
            const double num = (loss(plus) - loss(minus)) / (2 * eps);
            const double an = analytic[k].data()[i];
            worst = std::max(worst, std::abs(num - an) / std::max(1.0, std::abs(num)));
        }
    return worst;
}

} // namespace

class TestConvOps : public QObject {
    Q_OBJECT
private slots:
    void convMatchesScipyCorrelate2d();
    void im2colMatchesNumpy();
    void gradientsMatchFiniteDifferences_data();
    void gradientsMatchFiniteDifferences();
    void poolAndResizeValues();
    void shapeErrors();
};

void TestConvOps::convMatchesScipyCorrelate2d() {
    if (!havePython("numpy, scipy"))
        QSKIP("python3 absent");
    QTemporaryDir dir;
    for (int k : {3, 5}) {
        const MapShape s{2, 6, 7};
        const int cin = 3, cout = 2;
        const Mat x = randomMat(cin, s.columns(), 11 + k);
        const Mat w = randomMat(cout, cin * k * k, 21 + k);
        Tape t;
        const Mat y = conv2d(t.constant(x), t.constant(w), s, k).value();
        // x as (B, C, H, W) and w as (Cout, Cin, k, k), C order.
        Mat xb(1, x.size());
        for (int b = 0; b < s.batch; ++b)
            for (int c = 0; c < cin; ++c)
                for (int i = 0; i < s.pixels(); ++i)
                    xb(0, (b * cin + c) * s.pixels() + i) = x(c, b * s.pixels() + i);
        saveNpy(dir.filePath("x.npy"), {s.batch, cin, s.height, s.width}, xb);
        saveNpy(dir.filePath("w.npy"), {cout, cin, k, k}, w);
        const char* script = R"(
import sys, numpy as np
from scipy.signal import correlate2d
x = np.load(sys.argv[1]); w = np.load(sys.argv[2])
B, C, H, W = x.shape
for b in range(B):
    for o in range(w.shape[0]):
        y = sum(correlate2d(x[b, c], w[o, c], mode='same') for c in range(C))
        print(' '.join(repr(v) for v in y.ravel()))
)";
        const QStringList lines = pythonLines(script, {dir.filePath("x.npy"), dir.filePath("w.npy")});
        QCOMPARE(lines.size(), s.batch * cout);
        double worst = 0;
        for (int b = 0; b < s.batch; ++b)
            for (int o = 0; o < cout; ++o) {
                const QStringList v = lines[b * cout + o].split(' ');
                QCOMPARE(v.size(), s.pixels());
                for (int i = 0; i < s.pixels(); ++i)
                    worst = std::max(worst, std::abs(v[i].toDouble() - y(o, b * s.pixels() + i)));
            }
        qInfo("k = %d: max |conv2d - correlate2d| = %.3g", k, worst);
        QVERIFY(worst < 1e-12);
    }
}

void TestConvOps::im2colMatchesNumpy() {
    if (!havePython("numpy"))
        QSKIP("python3 absent");
    QTemporaryDir dir;
    const MapShape s{1, 4, 5};
    const Mat x = randomMat(2, s.columns(), 5);
    const Mat cols = im2col(x, s, 3);
    saveNpy(dir.filePath("x.npy"), {2, s.height, s.width}, x);
    const char* script = R"(
import sys, numpy as np
x = np.load(sys.argv[1]); C, H, W = x.shape; k = 3; r = 1
p = np.pad(x, ((0, 0), (r, r), (r, r)))
cols = np.stack([p[c, dy:dy + H, dx:dx + W].ravel() for c in range(C) for dy in range(k) for dx in range(k)])
for row in cols: print(' '.join(repr(v) for v in row))
)";
    const QStringList lines = pythonLines(script, {dir.filePath("x.npy")});
    QCOMPARE(lines.size(), int(cols.rows()));
    for (int r = 0; r < cols.rows(); ++r) {
        const QStringList v = lines[r].split(' ');
        QCOMPARE(v.size(), int(cols.cols()));
        for (int c = 0; c < cols.cols(); ++c)
            QCOMPARE(v[c].toDouble(), cols(r, c));
    }
    // col2im is the adjoint of im2col: <im2col(x), Y> = <x, col2im(Y)>.
    const Mat Y = randomMat(int(cols.rows()), int(cols.cols()), 9);
    const double lhs = (cols.array() * Y.array()).sum();
    const double rhs = (x.array() * col2im(Y, 2, s, 3).array()).sum();
    QVERIFY(std::abs(lhs - rhs) < 1e-12 * std::max(1.0, std::abs(lhs)));
}

void TestConvOps::gradientsMatchFiniteDifferences_data() {
    QTest::addColumn<int>("which");
    const char* names[] = {"conv3x3",         "conv5x5",
                           "conv1x1",         "silu",
                           "groupNorm",       "film",
                           "avgPool",         "upsampleNearest",
                           "globalMeanPool",  "fvResidual conditional",
                           "fvResidual joint"};
    for (int i = 0; i < 11; ++i)
        QTest::newRow(names[i]) << i;
}

void TestConvOps::gradientsMatchFiniteDifferences() {
    QFETCH(int, which);
    const MapShape s{2, 4, 4};
    const Mat x = randomMat(4, s.columns(), 100 + which);
    double err = 0;
    switch (which) {
    case 0:
    case 1:
    case 2: {
        const int k = which == 0 ? 3 : which == 1 ? 5 : 1;
        err = gradCheck(
            {x, randomMat(3, 4 * k * k, 7)},
            [&](Tape&, const std::vector<Var>& v) { return conv2d(v[0], v[1], s, k); }, 1);
        break;
    }
    case 3:
        err = gradCheck(
            {x * 3}, [](Tape&, const std::vector<Var>& v) { return silu(v[0]); }, 2);
        break;
    case 4:
        err = gradCheck(
            {x}, [&](Tape&, const std::vector<Var>& v) { return groupNorm(v[0], 2, s); }, 3);
        break;
    case 5:
        err = gradCheck(
            {x, randomMat(4, 2, 8), randomMat(4, 2, 9)},
            [&](Tape&, const std::vector<Var>& v) { return film(v[0], v[1], v[2], s); }, 4);
        break;
    case 6:
        err = gradCheck(
            {x}, [&](Tape&, const std::vector<Var>& v) { return avgPool(v[0], s, 2); }, 5);
        break;
    case 7:
        err = gradCheck(
            {x}, [&](Tape&, const std::vector<Var>& v) { return upsampleNearest(v[0], s, 2); }, 6);
        break;
    case 8:
        err = gradCheck(
            {x}, [&](Tape&, const std::vector<Var>& v) { return globalMeanPool(v[0], s); }, 7);
        break;
    default: {
        const DarcyTask task = which == 9 ? DarcyTask::Conditional : DarcyTask::Joint;
        const Mat p = randomMat(1, s.columns(), 12), K = randomMat(1, s.columns(), 13, 0.5, 2.0);
        const Eigen::MatrixXd f = randomMat(4, 4, 14);
        err = gradCheck(
            {p, K},
            [&](Tape&, const std::vector<Var>& v) {
                return fvResidualOp(v[0], v[1], s, f, task, {0.3, 0.8});
            },
            8);
        // Forward equals the per-sample residual.
        Tape t;
        const Mat R = fvResidualOp(t.constant(p), t.constant(K), s, f, task, {0.3, 0.8}).value();
        for (int b = 0; b < 2; ++b) {
            Eigen::MatrixXd pb(4, 4), kb(4, 4);
            for (int i = 0; i < 16; ++i) {
                pb(i / 4, i % 4) = p(0, b * 16 + i);
                kb(i / 4, i % 4) = K(0, b * 16 + i);
            }
            const Eigen::MatrixXd Rb = fvResidual(kb, pb, f, task, b == 0 ? 0.3 : 0.8);
            for (int i = 0; i < 16; ++i)
                QVERIFY(std::abs(Rb(i / 4, i % 4) - R(0, b * 16 + i)) <
                        1e-9 * std::max(1.0, std::abs(Rb(i / 4, i % 4))));
        }
    }
    }
    qInfo("max relative gradient error %.3g", err);
    QVERIFY(err < 1e-6);
}

void TestConvOps::poolAndResizeValues() {
    const MapShape s{1, 2, 2};
    Mat x(1, 4);
    x << 1, 2, 3, 4;
    Tape t;
    const Var v = t.constant(x);
    QCOMPARE(avgPool(v, s, 2).value()(0, 0), 2.5);
    const Mat up = upsampleNearest(v, s, 2).value(); // 4 x 4: row 0 = 1 1 2 2, row 2 = 3 3 4 4
    QCOMPARE(up(0, 1), 1.0);
    QCOMPARE(up(0, 2), 2.0);
    QCOMPARE(up(0, 8), 3.0);
    QCOMPARE(up(0, 15), 4.0);
    const Mat g = groupNorm(t.constant(randomMat(4, 16, 3)), 2, MapShape{1, 4, 4}).value();
    QVERIFY(std::abs(g.topRows(2).mean()) < 1e-12);
    QVERIFY(std::abs((g.topRows(2).array().square()).mean() - 1) < 1e-3);
}

void TestConvOps::shapeErrors() {
    Tape t;
    const MapShape s{1, 3, 3};
    QVERIFY_THROWS_EXCEPTION(pl::EngineError,
                             conv2d(t.constant(Mat::Zero(2, 9)), t.constant(Mat::Zero(1, 9)), s, 3));
    QVERIFY_THROWS_EXCEPTION(pl::EngineError,
                             conv2d(t.constant(Mat::Zero(1, 9)), t.constant(Mat::Zero(1, 4)), s, 2));
    QVERIFY_THROWS_EXCEPTION(pl::EngineError, groupNorm(t.constant(Mat::Zero(3, 9)), 2, s));
    QVERIFY_THROWS_EXCEPTION(pl::EngineError, avgPool(t.constant(Mat::Zero(1, 9)), s, 2));
}

QTEST_GUILESS_MAIN(TestConvOps)
#include "tst_convops.moc"
