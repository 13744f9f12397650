// Bradley-Terry fit (IRLS, L2 on utilities only, position term) against scipy.optimize.minimize on
// the same objective, recovery of planted utilities, and the choice-log reader on good and bad logs.
#include "common/PythonOracle.h"
#include "convimg/BradleyTerry.h"

#include "core/Errors.h"
#include "core/Rng.h"

#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <fstream>

using namespace pl::convimg;
using pl::test::havePython;
using pl::test::pythonLines;

namespace {

/// A log of m duels among n items with planted utilities u and position bias bpos.
ChoiceLog simulate(int n, int m, const std::vector<double>& u, double bpos, uint64_t seed) {
    pl::Rng rng(seed);
    ChoiceLog log;
    for (int i = 0; i < n; ++i)
        log.names.push_back("img" + std::to_string(i));
    for (int k = 0; k < m; ++k) {
        const int a = int(rng.uniformInt(uint64_t(n)));
        int b = int(rng.uniformInt(uint64_t(n - 1)));
        b += b >= a ? 1 : 0;
        const int o = rng.uniform() < 0.5 ? 1 : -1;
        const double z = u[size_t(a)] - u[size_t(b)] + bpos * o;
        const int s = rng.uniform() < 1 / (1 + std::exp(-z)) ? 1 : -1;
        log.a.push_back(a);
        log.b.push_back(b);
        log.s.push_back(s);
        log.o.push_back(o);
        log.lines.push_back(k + 2);
    }
    return log;
}

} // namespace

class TestBradleyTerry : public QObject {
    Q_OBJECT
private slots:
    void matchesScipyMinimize();
    void recoversPlantedUtilities();
    void readsLog();
    void refusesBadLogs();
};

void TestBradleyTerry::matchesScipyMinimize() {
    if (!havePython("numpy, scipy"))
        QSKIP("python3 absent");
    const ChoiceLog log = simulate(6, 300, {0.5, -0.2, 1.0, 0.0, -1.0, 0.3}, 0.4, 3);
    const double l2 = 0.01;
    const BtFit fit = fitBradleyTerry(log.differenceFeatures(), log.s, log.o, l2);
    QTemporaryDir dir;
    {
        std::ofstream f(dir.filePath("log.txt").toStdString());
        for (size_t i = 0; i < log.a.size(); ++i)
            f << log.a[i] << " " << log.b[i] << " " << log.s[i] << " " << log.o[i] << "\n";
    }
    const char* script = R"(
import sys, numpy as np
from scipy.optimize import minimize
D = np.loadtxt(sys.argv[1], dtype=int); n = 6; l2 = float(sys.argv[2])
X = np.zeros((len(D), n)); X[np.arange(len(D)), D[:, 0]] += 1; X[np.arange(len(D)), D[:, 1]] -= 1
s, o = D[:, 2], D[:, 3]
def f(t):
    z = s * (X @ t[:n] + t[n] * o)
    return -(np.sum(-np.logaddexp(0, -z)) - 0.5 * l2 * t[:n] @ t[:n])
def g(t):
    z = s * (X @ t[:n] + t[n] * o); q = 1 / (1 + np.exp(z))
    gr = np.concatenate([X.T @ (s * q) - l2 * t[:n], [np.sum(s * o * q)]])
    return -gr
r = minimize(f, np.zeros(n + 1), jac=g, method='BFGS', options={'gtol': 1e-11, 'maxiter': 10000})
print(' '.join(repr(v) for v in r.x)); print(repr(-r.fun))
)";
    const QStringList lines = pythonLines(script, {dir.filePath("log.txt"), QString::number(l2)});
    QCOMPARE(lines.size(), 2);
    const QStringList x = lines[0].split(' ');
    QCOMPARE(x.size(), 7);
    double worst = 0;
    for (int i = 0; i < 6; ++i)
        worst = std::max(worst, std::abs(x[i].toDouble() - fit.coef(i)));
    worst = std::max(worst, std::abs(x[6].toDouble() - fit.positionBias));
    const double penalised = fit.logLikelihood - 0.5 * l2 * fit.coef.squaredNorm();
    qInfo("max |theta - scipy| = %.3g, objective %.12g vs %.12g, %d Newton steps", worst, penalised,
          lines[1].toDouble(), fit.iterations);
    QVERIFY(worst < 1e-6);
    QVERIFY(std::abs(penalised - lines[1].toDouble()) < 1e-8 * std::abs(penalised));
}

void TestBradleyTerry::recoversPlantedUtilities() {
    const std::vector<double> u{0.8, -0.4, 0.0, 1.2, -1.0};
    const ChoiceLog log = simulate(5, 4000, u, -0.3, 5);
    const BtFit fit = fitBradleyTerry(log.differenceFeatures(), log.s, log.o, 0.01);
    // Utilities are identified up to a constant: compare centred values.
    const double mu = 0.16; // mean of u
    for (int i = 0; i < 5; ++i)
        QVERIFY2(std::abs(fit.coef(i) - fit.coef.mean() - (u[size_t(i)] - mu)) < 0.15,
                 qPrintable(QString::number(i)));
    QVERIFY(std::abs(fit.positionBias + 0.3) < 0.1);
    QVERIFY(fit.logLikelihood < 0);
}

void TestBradleyTerry::readsLog() {
    const ChoiceLog log = parseChoiceLog(
        "# duels\nimage_a,image_b,chosen,order\nb.png,a.png,a,ab\nc.png,b.png,b,ab\n", "x.csv");
    QCOMPARE(log.names, (std::vector<std::string>{"a.png", "b.png", "c.png"}));
    QCOMPARE(log.a, (std::vector<int>{1, 2}));
    QCOMPARE(log.s, (std::vector<int>{1, -1}));
    QCOMPARE(log.o, (std::vector<int>{1, 1}));
    QCOMPARE(log.lines, (std::vector<int>{3, 4}));
    QVERIFY(!log.degenerate());
    QVERIFY(parseChoiceLog("image_a,image_b,chosen,order\nx,y,a,ab\ny,x,a,ab\n", "d.csv").degenerate());
}

void TestBradleyTerry::refusesBadLogs() {
    auto refuses = [](const std::string& text, const char* needle, int line) {
        try {
            parseChoiceLog(text, "bad.csv");
            QFAIL("accepted");
        } catch (const pl::InputError& e) {
            QVERIFY2(std::string(e.what()).find(needle) != std::string::npos, e.what());
            QCOMPARE(int(e.line()), line);
        }
    };
    refuses("", "empty file", 0);
    refuses("a,b,c,d\n", "header", 1);
    refuses("image_a,image_b,chosen,order\n", "no duels", 1);
    refuses("image_a,image_b,chosen,order\nx,y,c,ab\n", "chosen must be a or b", 2);
    refuses("image_a,image_b,chosen,order\nx,y,a,ab\nx,y,a,xx\n", "order must be ab or ba", 3);
    refuses("image_a,image_b,chosen,order\nx,x,a,ab\n", "against itself", 2);
    refuses("image_a,image_b,chosen,order\nx,y,a\n", "expected 4 fields", 2);
}

QTEST_GUILESS_MAIN(TestBradleyTerry)
#include "tst_bradleyterry.moc"
