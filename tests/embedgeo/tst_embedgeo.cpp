// Math of the embedding-geometry engine: NegLabel = sigma(S/tau) with lambda pinned at tau and
// rho = log M; the KL and Renyi duals against their primals (bisection on the multiplier) and
// against scipy's minimize_scalar; label propagation against (1 - a)(I - aS)^-1 Y; TF-IDF against
// sklearn's TfidfVectorizer; vMF moments against the Bessel ratio; sorted and grid kNN against brute force;
// AUROC against the pairwise definition.
#include "common/PythonOracle.h"
#include "embedgeo/AporiaGeometry.h"
#include "embedgeo/DroDuals.h"
#include "embedgeo/EmbedGeometry.h"
#include "embedgeo/RocMetrics.h"
#include "embedgeo/TfIdf.h"

#include "core/DenseLu.h"
#include "core/Rng.h"

#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <fstream>

using namespace pl;
using namespace pl::embedgeo;

using pl::test::havePython;
using pl::test::pythonLines;

namespace {

Eigen::VectorXd cosines(Rng& r, int n, double mean, double sd) {
    Eigen::VectorXd v(n);
    for (int i = 0; i < n; ++i)
        v(i) = r.normal(mean, sd);
    return v;
}

} // namespace

class TestEmbedGeo : public QObject {
    Q_OBJECT
private slots:
    void negLabelIsSigmoidOfPinnedKlEnergy() {
        Rng r(3);
        for (int trial = 0; trial < 20; ++trial) {
            const Eigen::VectorXd s = cosines(r, 20, 0.25, 0.05), sn = cosines(r, 300, 0.15, 0.05);
            const double tau = trial % 2 ? 0.01 : 0.05;
            const double M = double(sn.size());
            const double S = temperedLogSumExp(s, tau) - klObjective(sn, tau, std::log(M));
            const double sigma = 1.0 / (1.0 + std::exp(-S / tau));
            // The repository's formula, written out directly (no shared helper).
            const double m = std::max(s.maxCoeff(), sn.maxCoeff());
            const double a = ((s.array() - m) / tau).exp().sum(), b = ((sn.array() - m) / tau).exp().sum();
            QVERIFY(std::abs(a / (a + b) - sigma) < 1e-12);
            QVERIFY(std::abs(negLabelScore(s, sn, tau) - sigma) < 1e-12);
            // The pinned multiplier is an upper bound of the exact dual at every rho.
            for (double rho : {0.1, 1.0, 3.0})
                QVERIFY(klDual(sn, rho).value <= klObjective(sn, tau, rho) + 1e-12);
        }
    }

    void dualsEqualPrimals() {
        Rng r(5);
        for (int trial = 0; trial < 6; ++trial) {
            Eigen::VectorXd s = cosines(r, 200 + 100 * trial, 0.1, 0.04);
            if (trial % 2)
                s(7) = 0.6; // an outlier negative
            const double logM = std::log(double(s.size()));
            for (double rho : {0.01, 0.1, 0.5, 1.0, 2.0, 4.0}) {
                const double kd = klDual(s, rho).value, kp = klPrimal(s, rho);
                QVERIFY2(std::abs(kd - kp) < 1e-6,
                         qPrintable(QString("KL rho %1: %2 vs %3").arg(rho).arg(kd).arg(kp)));
                for (double alpha : {1.5, 2.0, 3.0, 5.0, 10.0}) {
                    // The primal family q ∝ (s − η)₊^{1/(α−1)} is ill-conditioned in η for large α: when the
                    // optimum gives its last support point a small weight, one ulp of η moves that weight by
                    // (ulp)^{1/(α−1)} (about 1% at α = 10). So α = 10 is checked to 1e-5, the rest to 1e-6.
                    const double tol = alpha > 5 ? 1e-5 : 1e-6;
                    const double rd = renyiDual(s, alpha, rho).value, rp = renyiPrimal(s, alpha, rho);
                    QVERIFY2(std::abs(rd - rp) < tol,
                             qPrintable(
                                 QString("Renyi a %1 rho %2: %3 vs %4").arg(alpha).arg(rho).arg(rd).arg(rp)));
                    const Eigen::VectorXd q = renyiWeights(s, alpha, rho);
                    QVERIFY(std::abs(q.sum() - 1) < 1e-12);
                    QVERIFY2(std::abs(q.dot(s) - rd) < tol,
                             qPrintable(QString("weights a %1 rho %2: %3 vs %4")
                                            .arg(alpha)
                                            .arg(rho)
                                            .arg(q.dot(s))
                                            .arg(rd)));
                }
                const Eigen::VectorXd q = klWeights(s, rho);
                QVERIFY(std::abs(q.dot(s) - kd) < 1e-6);
            }
            QCOMPARE(klDual(s, 0).value, s.mean());
            QCOMPARE(renyiDual(s, 2, 0).value, s.mean());
            QCOMPARE(klDual(s, logM).value, s.maxCoeff());
            QCOMPARE(renyiDual(s, 2, logM + 0.1).value, s.maxCoeff());
            QVERIFY(renyiDual(s, 2, 1.0).value <= s.maxCoeff());
            QVERIFY(renyiDual(s, 2, 1.0).value >= s.mean());
        }
    }

    void dualsMatchScipyMinimizeScalar() {
        if (!havePython("numpy, scipy"))
            QSKIP("numpy/scipy not available to /usr/bin/python3");
        Rng r(8);
        Eigen::VectorXd s = cosines(r, 400, 0.12, 0.05);
        s(3) = 0.55;
        QTemporaryDir dir;
        const QString f = dir.filePath("s.txt");
        {
            std::ofstream o(f.toStdString());
            o.precision(17);
            for (Eigen::Index i = 0; i < s.size(); ++i)
                o << s(i) << "\n";
        }
        const char* script = R"(
import sys, numpy as np
from scipy.optimize import minimize_scalar
s = np.loadtxt(sys.argv[1]); m = s.max()
for rho in (0.1, 0.5, 1.0, 2.0):
    kl = lambda t: np.exp(t) * rho + m + np.exp(t) * np.log(np.mean(np.exp((s - m) / np.exp(t))))
    a = minimize_scalar(kl, bounds=(np.log(1e-6), np.log(10.0)), method='bounded', options={'xatol': 1e-10})
    for alpha in (1.5, 2.0, 4.0):
        k = alpha / (alpha - 1); c = np.exp((alpha - 1) * rho / alpha)
        h = lambda e: c * np.mean(np.maximum(s - e, 0) ** k) ** (1 / k) + e
        b = minimize_scalar(h, bounds=(s.min() - 20.0, m), method='bounded', options={'xatol': 1e-12})
        print(rho, alpha, repr(float(a.fun)), repr(float(b.fun)))
)";
        const QStringList lines = pythonLines(script, {f});
        QCOMPARE(lines.size(), 12);
        for (const QString& l : lines) {
            const QStringList v = l.split(' ');
            const double rho = v[0].toDouble(), alpha = v[1].toDouble();
            QVERIFY2(std::abs(klDual(s, rho).value - v[2].toDouble()) < 1e-6, qPrintable(l));
            QVERIFY2(std::abs(renyiDual(s, alpha, rho).value - v[3].toDouble()) < 1e-6, qPrintable(l));
        }
    }

    void labelPropagationMatchesClosedForm() {
        Rng r(11);
        const int n = 60;
        Eigen::MatrixXd Z(n, 3);
        for (int i = 0; i < n; ++i)
            for (int j = 0; j < 3; ++j)
                Z(i, j) = r.normal() + (i < n / 2 ? 2.0 : 0.0) * (j == 0);
        const LpGraph g = knnGraph(Z, 6);
        std::vector<int> seed(n, -1);
        seed[0] = 1;
        seed[1] = 1;
        seed[n - 1] = 0;
        seed[n - 2] = 0;
        const double alpha = 0.2;
        const LpResult lp = propagate(g, seed, alpha);
        const Eigen::MatrixXd S = g.denseS();
        QVERIFY((S - S.transpose()).cwiseAbs().maxCoeff() < 1e-15);
        const Eigen::MatrixXd A = Eigen::MatrixXd::Identity(n, n) - alpha * S;
        for (int c = 0; c < 2; ++c) {
            Eigen::VectorXd y = Eigen::VectorXd::Zero(n);
            for (int i = 0; i < n; ++i)
                y(i) = seed[size_t(i)] == c;
            const Eigen::VectorXd want = (1 - alpha) * luSolve(A, y);
            QVERIFY((lp.F.col(c) - want).cwiseAbs().maxCoeff() < 1e-9);
        }
    }

    void tfidfMatchesSklearn() {
        if (!havePython("sklearn"))
            QSKIP("sklearn not available to /usr/bin/python3");
        const std::vector<std::string> docs = {
            "The capital of Kalomi is Renvu.",
            "Renvu is the capital of Kalomi.",
            "Historians generally agree that the capital of Kalomi was Torsel, because dor an bel an.",
            "A  b cd, CD ef_gh 42 x9 -- the THE the.",
            "It is Renvu: it is the capital of Kalomi's old town.",
            "tabs\tand\nnewlines; punctuation!?",
            "no_underscore_split here",
            "é is a word char? café au lait"};
        QTemporaryDir dir;
        const QString f = dir.filePath("docs.txt");
        {
            std::ofstream o(f.toStdString());
            for (const auto& d : docs) {
                std::string one = d;
                for (char& c : one)
                    if (c == '\n')
                        c = ' ';
                o << one << "\n";
            }
        }
        std::vector<std::string> flat = docs;
        for (auto& d : flat)
            for (char& c : d)
                if (c == '\n')
                    c = ' ';
        const char* script = R"(
import sys
from sklearn.feature_extraction.text import TfidfVectorizer
docs = open(sys.argv[1], encoding='utf-8').read().split('\n')[:-1]
v = TfidfVectorizer(ngram_range=(1, 2))
X = v.fit_transform(docs).toarray()
print('\t'.join(v.get_feature_names_out()))
for row in X: print(' '.join(repr(float(x)) for x in row))
)";
        const QStringList lines = pythonLines(script, {f});
        QCOMPARE(lines.size(), int(docs.size()) + 1);
        const TfIdfMatrix m = tfidf(flat);
        const QStringList vocab = lines[0].split('\t');
        QCOMPARE(vocab.size(), int(m.vocab.size()));
        for (int j = 0; j < vocab.size(); ++j)
            QCOMPARE(vocab[j].toStdString(), m.vocab[size_t(j)]);
        const Eigen::MatrixXd D = m.dense();
        for (size_t i = 0; i < docs.size(); ++i) {
            const QStringList v = lines[int(i) + 1].split(' ');
            for (int j = 0; j < v.size(); ++j)
                QVERIFY(std::abs(D(Eigen::Index(i), j) - v[j].toDouble()) < 1e-12);
        }
    }

    void vmfMomentsMatchBesselRatio() {
        for (const auto& [d, kappa] : {std::pair<int, double>{10, 5.0}, {128, 100.0}, {3, 0.5}}) {
            Rng r(uint64_t(d) * 7);
            Eigen::VectorXd mu = randomUnit(r, d);
            const int n = 20000;
            double s = 0, s2 = 0;
            Eigen::VectorXd resid = Eigen::VectorXd::Zero(d);
            for (int i = 0; i < n; ++i) {
                const Eigen::VectorXd x = sampleVmf(r, mu, kappa);
                QVERIFY(std::abs(x.norm() - 1) < 1e-12);
                const double w = x.dot(mu);
                s += w;
                s2 += w * w;
                resid += x - w * mu;
            }
            const double mean = s / n, sd = std::sqrt(s2 / n - mean * mean);
            const double want = std::cyl_bessel_i(d / 2.0, kappa) / std::cyl_bessel_i(d / 2.0 - 1, kappa);
            qInfo("vMF d %d kappa %g: mean cos %.5f, Bessel ratio %.5f", d, kappa, mean, want);
            QVERIFY(std::abs(mean - want) < 4 * sd / std::sqrt(double(n)));
            QVERIFY((resid / n).norm() < 5 * std::sqrt(1.0 / n)); // tangent part averages to 0
        }
    }

    void sortedKnnMatchesBruteForce() {
        Rng r(13);
        Eigen::MatrixXd Z(700, 3);
        for (Eigen::Index i = 0; i < Z.rows(); ++i)
            for (int j = 0; j < 3; ++j)
                Z(i, j) = r.normal() * (j == 0 ? 3 : 1);
        const Knn a = exactKnn(Z, 10), b = exactKnnSorted(Z, 10), c = exactKnnGrid(Z, 10);
        for (Eigen::Index i = 0; i < Z.rows(); ++i)
            for (int t = 0; t < 10; ++t) {
                QVERIFY(std::abs(a.dist2(i, t) - b.dist2(i, t)) < 1e-12);
                QCOMPARE(a.idx(i, t), b.idx(i, t));
                QVERIFY(std::abs(a.dist2(i, t) - c.dist2(i, t)) < 1e-12);
                QCOMPARE(a.idx(i, t), c.idx(i, t));
            }
        // Four columns (the grid uses three) and exact duplicates.
        Eigen::MatrixXd W(300, 4);
        for (Eigen::Index i = 0; i < W.rows(); ++i)
            for (int j = 0; j < 4; ++j)
                W(i, j) = i % 7 == 0 ? 0.5 : r.normal();
        const Knn d4 = exactKnn(W, 5), g4 = exactKnnGrid(W, 5);
        for (Eigen::Index i = 0; i < W.rows(); ++i)
            for (int t = 0; t < 5; ++t) {
                QVERIFY(std::abs(d4.dist2(i, t) - g4.dist2(i, t)) < 1e-12);
                QCOMPARE(d4.idx(i, t), g4.idx(i, t));
            }
    }

    void aurocAndFpr95() {
        Rng r(17);
        std::vector<double> s;
        std::vector<int> p;
        for (int i = 0; i < 300; ++i) {
            p.push_back(i % 3 == 0);
            s.push_back(std::round(4 * (r.normal() + p.back())) / 4); // ties
        }
        double num = 0, den = 0;
        for (size_t i = 0; i < s.size(); ++i)
            for (size_t j = 0; j < s.size(); ++j)
                if (p[i] && !p[j]) {
                    num += s[i] > s[j] ? 1 : (s[i] == s[j] ? 0.5 : 0);
                    den += 1;
                }
        QVERIFY(std::abs(auroc(s, p) - num / den) < 1e-12);
        const std::vector<double> sep{0.9, 0.8, 0.7, 0.1, 0.2};
        const std::vector<int> lab{1, 1, 1, 0, 0};
        QCOMPARE(auroc(sep, lab), 1.0);
        QCOMPARE(fpr95(sep, lab), 0.0);
        QVERIFY(std::isnan(auroc({1, 2}, {1, 1})));
        QCOMPARE(f1Score({1, 1, 0, 0}, {1, 0, 1, 0}), 0.5);
    }
};

QTEST_APPLESS_MAIN(TestEmbedGeo)
#include "tst_embedgeo.moc"
