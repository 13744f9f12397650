// Gradient checks of every op of the autodiff tape against central finite differences, on
// random inputs from pl::Rng, plus Adam on a quadratic and a tiny classifier.
#include "TapeGradCheck.h"
#include "nn/Parameter.h"
#include "nn/Tape.h"

#include "core/Errors.h"

#include <QtTest>

#include <cmath>
#include <functional>

using namespace pl::nn;
using namespace pl::nn::test;

namespace {

Mat rnd(int r, int c, uint64_t seed, double shift = 0) {
    pl::Rng rng(seed);
    return (normalMatrix(r, c, 1.0, rng).array() + shift).matrix();
}

Mat positive(int r, int c, uint64_t seed) {
    pl::Rng rng(seed);
    Mat m(r, c);
    for (Eigen::Index i = 0; i < m.size(); ++i)
        m(i) = rng.uniform(0.5, 2.0);
    return m;
}

/// Values away from relu's kink so the finite difference is well defined.
Mat awayFromZero(int r, int c, uint64_t seed) {
    Mat m = rnd(r, c, seed);
    for (Eigen::Index i = 0; i < m.size(); ++i)
        if (std::abs(m(i)) < 0.05)
            m(i) = 0.3;
    return m;
}

constexpr double kTol = 1e-6;

} // namespace

class TestNn : public QObject {
    Q_OBJECT
private slots:
    void matmul_() {
        QVERIFY(maxRelError({rnd(3, 4, 1), rnd(4, 2, 2)},
                            [](Tape&, const std::vector<Var>& v) { return matmul(v[0], v[1]); }) < kTol);
    }
    void broadcastBinary_data() {
        QTest::addColumn<int>("op");
        QTest::addColumn<int>("br");
        QTest::addColumn<int>("bc");
        const char* names[] = {"add", "sub", "mul", "div"};
        const int shapes[][2] = {{3, 4}, {1, 1}, {1, 4}, {3, 1}};
        for (int op = 0; op < 4; ++op)
            for (const auto& s : shapes)
                QTest::newRow(QStringLiteral("%1 %2x%3").arg(names[op]).arg(s[0]).arg(s[1]).toLatin1())
                    << op << s[0] << s[1];
    }
    void broadcastBinary() {
        QFETCH(int, op);
        QFETCH(int, br);
        QFETCH(int, bc);
        const Mat b = op == 3 ? positive(br, bc, 4) : rnd(br, bc, 4);
        const double e = maxRelError({rnd(3, 4, 3), b}, [op](Tape&, const std::vector<Var>& v) {
            switch (op) {
            case 0:
                return add(v[0], v[1]);
            case 1:
                return sub(v[0], v[1]);
            case 2:
                return mul(v[0], v[1]);
            default:
                return div(v[0], v[1]);
            }
        });
        QVERIFY2(e < kTol, QByteArray::number(e));
    }
    void shapeMismatchThrows() {
        Tape t;
        Var a = t.variable(Mat::Zero(3, 4)), b = t.variable(Mat::Zero(2, 4));
        int thrown = 0;
        try {
            add(a, b);
        } catch (const pl::EngineError&) {
            ++thrown;
        }
        try {
            matmul(a, b);
        } catch (const pl::EngineError&) {
            ++thrown;
        }
        QCOMPARE(thrown, 2);
    }
    void unary_data() {
        QTest::addColumn<int>("op");
        for (int i = 0; i < 11; ++i)
            QTest::newRow(QByteArray::number(i)) << i;
    }
    void unary() {
        QFETCH(int, op);
        const Mat x = op == 6 ? positive(4, 3, 7) : awayFromZero(4, 3, 7);
        const double e = maxRelError({x}, [op](Tape&, const std::vector<Var>& v) {
            switch (op) {
            case 0:
                return relu(v[0]);
            case 1:
                return tanh(v[0]);
            case 2:
                return sigmoid(v[0]);
            case 3:
                return exp(v[0]);
            case 4:
                return scale(v[0], -2.5);
            case 5:
                return addScalar(v[0], 3.0);
            case 6:
                return log(v[0]);
            case 7:
                return square(v[0]);
            case 8:
                return neg(v[0]);
            case 9:
                return softplus(v[0]);
            default:
                return softmaxRows(v[0]);
            }
        });
        QVERIFY2(e < kTol, QByteArray::number(e));
    }
    void reductions() {
        const Mat x = rnd(4, 3, 9);
        QVERIFY(maxRelError({x}, [](Tape&, const std::vector<Var>& v) { return sum(v[0]); }) < kTol);
        QVERIFY(maxRelError({x}, [](Tape&, const std::vector<Var>& v) { return mean(v[0]); }) < kTol);
        QVERIFY(maxRelError({x}, [](Tape&, const std::vector<Var>& v) { return rowSum(v[0]); }) < kTol);
        QVERIFY(maxRelError({x}, [](Tape&, const std::vector<Var>& v) { return colMean(v[0]); }) < kTol);
        QVERIFY(maxRelError({x}, [](Tape&, const std::vector<Var>& v) { return logSumExp(v[0]); }) < kTol);
    }
    void logSumExpIsStable() {
        Tape t;
        Mat x(1, 2);
        x << 1000.0, 1000.0;
        QCOMPARE(logSumExp(t.constant(x)).scalar(), 1000.0 + std::log(2.0));
    }
    void softmaxCrossEntropy_() {
        const std::vector<int> labels{0, 2, 1, 2};
        QVERIFY(maxRelError({rnd(4, 3, 11)}, [&](Tape&, const std::vector<Var>& v) {
                    return softmaxCrossEntropy(v[0], labels);
                }) < kTol);
        // value = logsumexp - logit of the label
        Tape t;
        Mat x = rnd(4, 3, 11);
        Var ce = softmaxCrossEntropy(t.constant(x), labels);
        Var lse = logSumExp(t.constant(x));
        for (int r = 0; r < 4; ++r)
            QVERIFY(std::abs(ce.value()(r, 0) - (lse.value()(r, 0) - x(r, labels[size_t(r)]))) < 1e-12);
    }
    void gatherScatter() {
        const std::vector<int> idx{2, 0, 2, 1, 2};
        QVERIFY(maxRelError({rnd(3, 4, 12)},
                            [&](Tape&, const std::vector<Var>& v) { return gatherRows(v[0], idx); }) < kTol);
        QVERIFY(maxRelError({rnd(5, 4, 13)}, [&](Tape&, const std::vector<Var>& v) {
                    return scatterSumRows(v[0], idx, 4);
                }) < kTol);
        Tape t;
        Var s = scatterSumRows(t.constant(Mat::Ones(5, 1)), idx, 4);
        QCOMPARE(s.value()(2, 0), 3.0);
        QCOMPARE(s.value()(3, 0), 0.0);
    }
    void concatSlice() {
        QVERIFY(
            maxRelError({rnd(3, 2, 14), rnd(3, 1, 15), rnd(3, 3, 16)}, [](Tape&, const std::vector<Var>& v) {
                return concatCols({v[0], v[1], v[2], v[0]});
            }) < kTol);
        QVERIFY(maxRelError({rnd(3, 5, 17)},
                            [](Tape&, const std::vector<Var>& v) { return sliceCols(v[0], 1, 3); }) < kTol);
        QVERIFY(maxRelError({rnd(3, 5, 27)},
                            [](Tape&, const std::vector<Var>& v) { return transpose(v[0]); }) < kTol);
    }
    void gaussianKlAndReparam() {
        QVERIFY(maxRelError({rnd(4, 2, 18), rnd(4, 2, 19, -0.5)}, [](Tape&, const std::vector<Var>& v) {
                    return klGaussian(v[0], v[1], -1.5, 1.3);
                }) < kTol);
        const Mat eps = rnd(4, 2, 20);
        QVERIFY(maxRelError({rnd(4, 2, 21), rnd(4, 2, 22)}, [&](Tape&, const std::vector<Var>& v) {
                    return reparam(v[0], v[1], eps);
                }) < kTol);
        // KL of the prior to itself is 0.
        Tape t;
        Var kl = klGaussian(t.constant(Mat::Constant(1, 1, -1.5)),
                            t.constant(Mat::Constant(1, 1, std::log(1.3))), -1.5, 1.3);
        QVERIFY(std::abs(kl.scalar()) < 1e-14);
    }
    void composite() {
        // A two-layer edge network with gather / scatter, as the scene-graph model uses it.
        const std::vector<int> src{0, 1, 2, 2}, dst{1, 2, 0, 1};
        const std::vector<int> labels{1, 0, 1, 0};
        const double e = maxRelError({rnd(3, 4, 23), rnd(8, 5, 24), rnd(1, 5, 25), rnd(5, 2, 26)},
                                     [&](Tape&, const std::vector<Var>& v) {
                                         Var he = concatCols({gatherRows(v[0], src), gatherRows(v[0], dst)});
                                         Var h = tanh(add(matmul(he, v[1]), v[2]));
                                         Var m = scatterSumRows(sigmoid(h), dst, 3);
                                         Var logits = matmul(gatherRows(m, src), v[3]);
                                         return add(softmaxCrossEntropy(logits, labels), logSumExp(h));
                                     });
        QVERIFY2(e < kTol, QByteArray::number(e));
    }
    void parametersAccumulate() {
        Parameter p("w", Mat::Constant(2, 2, 1.0));
        for (int rep = 0; rep < 2; ++rep) {
            Tape t;
            t.backward(sum(square(t.param(p))));
        }
        QCOMPARE(p.grad(0, 0), 4.0); // 2 * 2 * w
        p.zeroGrad();
        QCOMPARE(p.grad.sum(), 0.0);
    }
    void adamMinimisesQuadratic() {
        pl::Rng rng(3);
        Parameter p("w", normalMatrix(3, 1, 1.0, rng));
        Mat target(3, 1);
        target << 1, -2, 0.5;
        Adam opt(0.05);
        for (int i = 0; i < 2000; ++i) {
            p.zeroGrad();
            Tape t;
            t.backward(sum(square(sub(t.param(p), t.constant(target)))));
            opt.step({&p});
        }
        QVERIFY((p.value - target).norm() < 1e-3);
    }
    void adamTrainsClassifier() {
        // Linearly separable two-class data: a softmax classifier reaches zero training error.
        pl::Rng rng(4);
        const int n = 64;
        Mat x = normalMatrix(n, 2, 1.0, rng);
        std::vector<int> y(n);
        for (int i = 0; i < n; ++i)
            y[size_t(i)] = x(i, 0) + 0.5 * x(i, 1) > 0 ? 1 : 0;
        Parameter w("w", glorotUniform(2, 2, rng)), b("b", Mat::Zero(1, 2));
        Adam opt(0.1);
        double first = 0, last = 0;
        for (int i = 0; i < 300; ++i) {
            w.zeroGrad();
            b.zeroGrad();
            Tape t;
            Var loss = mean(softmaxCrossEntropy(add(matmul(t.constant(x), t.param(w)), t.param(b)), y));
            (i == 0 ? first : last) = loss.scalar();
            t.backward(loss);
            opt.step({&w, &b});
        }
        QVERIFY(last < 0.2 * first);
    }
};

QTEST_APPLESS_MAIN(TestNn)
#include "tst_nn.moc"
