// Gradient checks of the tape ops added for equivariant-covariance and lif-mmwave
// (nn/MatrixFunctionOps.h, nn/SpikingOps.h) against central finite differences on random inputs:
// symExpm (Daleckii-Krein), rowQuadForm, logBesselK, timeMean; the spike's backward against the
// derivative of the smooth function it stands for; the fused LIF recurrence against the same
// recurrence built from primitive ops (values and gradients).
#include "TapeGradCheck.h"
#include "nn/MatrixFunctionOps.h"
#include "nn/Parameter.h"
#include "nn/SpikingOps.h"
#include "nn/Tape.h"

#include <QtTest>

#include <cmath>
#include <functional>

using namespace pl::nn;
using namespace pl::nn::test;

namespace {

Mat rnd(int r, int c, uint64_t seed, double sd = 1.0) {
    pl::Rng rng(seed);
    return normalMatrix(r, c, sd, rng);
}

/// A batch of \a count n x n matrices (rows), not symmetric (symExpm symmetrises).
Mat batchOf(int count, int n, uint64_t seed, double sd) {
    return rnd(count, n * n, seed, sd);
}

constexpr double kTol = 1e-6;

} // namespace

class TestNnSpecial : public QObject {
    Q_OBJECT
private slots:
    void symExpmGradient() {
        const double e = maxRelError({batchOf(3, 6, 1, 0.7)},
                                     [](Tape&, const std::vector<Var>& v) { return symExpm(v[0], 6); });
        QVERIFY2(e < kTol, qPrintable(QString::number(e)));
    }
    void symExpmNearlyRepeatedEigenvalues() {
        // I + tiny perturbation: the divided differences meet their e^lambda limit.
        Mat b = batchOf(2, 3, 2, 1e-10);
        for (int i = 0; i < 3; ++i)
            b(0, i * 3 + i) += 0.4;
        const double e = maxRelError({b}, [](Tape&, const std::vector<Var>& v) { return symExpm(v[0], 3); });
        QVERIFY2(e < kTol, qPrintable(QString::number(e)));
    }
    void symExpmValue() {
        // exp of diag(1, 2) rotated: U diag(e, e^2) U^T; and exp(S) exp(-S) = I.
        Tape t;
        const double c = std::cos(0.3), s = std::sin(0.3);
        Eigen::Matrix2d u;
        u << c, -s, s, c;
        const Eigen::Matrix2d m = u * Eigen::Vector2d(1, 2).asDiagonal() * u.transpose();
        const Var x = t.constant(Eigen::Map<const Eigen::RowVector4d>(Eigen::Matrix2d(m.transpose()).data()));
        const Mat y = symExpm(x, 2).value();
        const Eigen::Matrix2d ref =
            u * Eigen::Vector2d(std::exp(1.0), std::exp(2.0)).asDiagonal() * u.transpose();
        for (int i = 0; i < 2; ++i)
            for (int j = 0; j < 2; ++j)
                QVERIFY(std::abs(y(0, i * 2 + j) - ref(i, j)) < 1e-13);
        const Mat a = batchOf(1, 6, 3, 1.0);
        const Mat e1 = symExpm(t.constant(a), 6).value(), e2 = symExpm(t.constant(-a), 6).value();
        const Mat prod = Eigen::Map<const Mat>(e1.data(), 6, 6) * Eigen::Map<const Mat>(e2.data(), 6, 6);
        QVERIFY((prod - Mat::Identity(6, 6)).cwiseAbs().maxCoeff() < 1e-12);
    }
    void rowQuadFormGradient() {
        const double e =
            maxRelError({rnd(4, 6, 4), batchOf(4, 6, 5, 1.0)},
                        [](Tape&, const std::vector<Var>& v) { return rowQuadForm(v[0], v[1]); });
        QVERIFY2(e < kTol, qPrintable(QString::number(e)));
    }
    void logBesselKGradientAndValue() {
        pl::Rng rng(6);
        Mat z(3, 4);
        for (Eigen::Index i = 0; i < z.size(); ++i)
            z(i) = rng.uniform(0.05, 40.0);
        for (double nu : {2.0, -2.0, 0.5, 1.0}) {
            const double e =
                maxRelError({z}, [nu](Tape&, const std::vector<Var>& v) { return logBesselK(v[0], nu); });
            QVERIFY2(e < kTol, qPrintable(QString("nu %1: %2").arg(nu).arg(e)));
        }
        // Closed form K_{1/2}(z) = sqrt(pi / 2z) e^-z, also past the asymptotic switch at 600.
        for (double x : {0.1, 1.0, 10.0, 599.0, 601.0, 5000.0})
            QVERIFY(std::abs(logBesselKValue(0.5, x) - (0.5 * std::log(M_PI / (2 * x)) - x)) <
                    1e-12 * (1 + x));
        // log K_2 is continuous across the switch: the step over it is its slope times the step.
        const double below = logBesselKValue(2, 600.0), above = logBesselKValue(2, 600.0 + 1e-6);
        QVERIFY(std::abs((above - below) / 1e-6 - logBesselKDerivative(2, 600.0)) < 1e-4);
        const double h = 1e-4, num = (logBesselKValue(2, 700 + h) - logBesselKValue(2, 700 - h)) / (2 * h);
        QVERIFY(std::abs(num - logBesselKDerivative(2, 700)) < 1e-8);
    }
    void timeMeanGradient() {
        const double e =
            maxRelError({rnd(12, 3, 7)}, [](Tape&, const std::vector<Var>& v) { return timeMean(v[0], 4); });
        QVERIFY2(e < kTol, qPrintable(QString::number(e)));
    }
    void spikeSurrogateMatchesItsSmoothFunction() {
        // spike's backward is the derivative of g(u) = (u - th) / (1 + k |u - th|) (the fast
        // sigmoid); its forward is the Heaviside step.
        const double th = 0.7, k = 4.0, h = 1e-6;
        const Mat u = rnd(5, 4, 8, 1.5);
        Tape t;
        const Var x = t.variable(u);
        const Var s = spike(x, th, k);
        t.backward(sum(s));
        const Mat g = x.grad();
        for (Eigen::Index i = 0; i < u.size(); ++i) {
            auto f = [&](double v) { return (v - th) / (1 + k * std::abs(v - th)); };
            const double num = (f(u(i) + h) - f(u(i) - h)) / (2 * h);
            QVERIFY2(std::abs(num - g(i)) < 1e-7, qPrintable(QString::number(i)));
            QCOMPARE(s.value()(i), u(i) > th ? 1.0 : 0.0);
        }
    }
    void lifRecurrenceMatchesPrimitiveOps() {
        const int T = 7, B = 3, H = 4;
        const double th = 1.0, k = 5.0;
        const Mat current = rnd(T * B, H, 9, 0.9).array() + 0.3;
        const Mat w = rnd(T * B, H, 10);
        for (double beta : {0.5, 0.9}) {
            Tape a;
            const Var ia = a.variable(current), ba = a.variable(Mat::Constant(1, 1, beta));
            const Var sa = lifRecurrence(ia, ba, T, th, k);
            a.backward(sum(mul(sa, a.constant(w))));
            Tape b;
            const Var ib = b.variable(current), bb = b.variable(Mat::Constant(1, 1, beta));
            std::vector<Var> spikes;
            Var u, s;
            for (int t = 0; t < T; ++t) {
                std::vector<int> rows;
                for (int r = 0; r < B; ++r)
                    rows.push_back(t * B + r);
                const Var it = gatherRows(ib, rows);
                u = t == 0 ? it : sub(add(mul(u, bb), it), b.constant(th * s.value())); // reset detached
                s = spike(u, th, k);
                spikes.push_back(s);
            }
            Var loss;
            for (int t = 0; t < T; ++t) {
                const Var part = sum(mul(spikes[size_t(t)], b.constant(w.middleRows(t * B, B))));
                loss = t == 0 ? part : add(loss, part);
                QVERIFY((spikes[size_t(t)].value() - sa.value().middleRows(t * B, B)).cwiseAbs().maxCoeff() ==
                        0);
            }
            b.backward(loss);
            QVERIFY((ia.grad() - ib.grad()).cwiseAbs().maxCoeff() < 1e-12);
            QVERIFY(std::abs(ba.grad()(0, 0) - bb.grad()(0, 0)) < 1e-12);
            QVERIFY(sa.value().sum() > 0); // the check exercises the reset
        }
    }
};

QTEST_GUILESS_MAIN(TestNnSpecial)
#include "tst_nn_special.moc"
