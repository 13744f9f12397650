// Darcy finite-volume solver and residual: against scipy.sparse.linalg.spsolve on a matrix that
// python assembles on its own from K, the exact linear profile for constant K, the residual of the
// solver's fields, the pure-Neumann compatibility check, and the field reader on bad files.
#include "common/PythonOracle.h"
#include "convimg/Darcy.h"
#include "convimg/FieldReader.h"

#include "core/Errors.h"
#include "core/NpyReader.h"

#include <QTemporaryDir>
#include <QtTest>

#include <fstream>

using namespace pl::convimg;
using pl::test::havePython;
using pl::test::pythonLines;

namespace {

void saveField(const QString& path, const Eigen::MatrixXd& m) {
    std::vector<double> v;
    for (Eigen::Index i = 0; i < m.rows(); ++i)
        for (Eigen::Index j = 0; j < m.cols(); ++j)
            v.push_back(m(i, j));
    std::ofstream(path.toStdString(), std::ios::binary) << pl::writeNpy({m.rows(), m.cols()}, v);
}

void saveText(const QString& path, const std::string& text) {
    std::ofstream(path.toStdString()) << text;
}

} // namespace

class TestDarcy : public QObject {
    Q_OBJECT
private slots:
    void matchesScipySpsolve_data();
    void matchesScipySpsolve();
    void linearProfileForConstantK();
    void solverFieldsHaveZeroResidual();
    void jointNeedsCompatibleSource();
    void readerAcceptsCsvAndNpy();
    void readerRefusesBadFiles();
};

void TestDarcy::matchesScipySpsolve_data() {
    QTest::addColumn<bool>("joint");
    QTest::newRow("conditional") << false;
    QTest::newRow("joint") << true;
}

void TestDarcy::matchesScipySpsolve() {
    QFETCH(bool, joint);
    if (!havePython("numpy, scipy"))
        QSKIP("python3 absent");
    QTemporaryDir dir;
    const int n = 12;
    pl::Rng rng(7);
    const Eigen::MatrixXd K = randomPermeability(n, rng);
    const Eigen::MatrixXd f = defaultSource(n);
    const double g = 0.7;
    const DarcyTask task = joint ? DarcyTask::Joint : DarcyTask::Conditional;
    const DarcySolution s = solveDarcy(K, f, task, g);
    saveField(dir.filePath("K.npy"), K);
    saveField(dir.filePath("f.npy"), f);
    // Independent assembly; joint: pin the mean with a bordered (Lagrange) system.
    const char* script = R"(
import sys, numpy as np, scipy.sparse as sp
from scipy.sparse.linalg import spsolve
K = np.load(sys.argv[1]); f = np.load(sys.argv[2]); g = float(sys.argv[3]); joint = sys.argv[4] == '1'
n = K.shape[0]; h = 1.0 / n; N = n * n
A = sp.lil_matrix((N + joint, N + joint)); b = np.zeros(N + joint)
idx = lambda y, x: y * n + x
for y in range(n):
    for x in range(n):
        a = idx(y, x); b[a] += f[y, x] * h * h
        for dy, dx in ((0, 1), (1, 0), (0, -1), (-1, 0)):
            yy, xx = y + dy, x + dx
            if 0 <= yy < n and 0 <= xx < n:
                T = 2 * K[y, x] * K[yy, xx] / (K[y, x] + K[yy, xx])
                A[a, a] += T; A[a, idx(yy, xx)] -= T
            elif not joint and xx < 0:
                A[a, a] += 2 * K[y, x]; b[a] += 2 * K[y, x] * g
            elif not joint and xx >= n:
                A[a, a] += 2 * K[y, x]
if joint:
    A[N, :N] = 1; A[:N, N] = 1
p = spsolve(A.tocsr(), b)[:N]
print(' '.join(repr(v) for v in p))
)";
    const QStringList lines = pythonLines(script, {dir.filePath("K.npy"), dir.filePath("f.npy"),
                                                   QString::number(g, 'g', 17), joint ? "1" : "0"});
    QCOMPARE(lines.size(), 1);
    const QStringList v = lines[0].split(' ');
    QCOMPARE(v.size(), n * n);
    double worst = 0, scale = 0;
    for (int i = 0; i < n * n; ++i) {
        worst = std::max(worst, std::abs(v[i].toDouble() - s.p(i / n, i % n)));
        scale = std::max(scale, std::abs(v[i].toDouble()));
    }
    qInfo("max |p - spsolve| = %.3g (max |p| %.3g), CG iterations %d", worst, scale, s.iterations);
    QVERIFY(worst < 1e-8 * std::max(1.0, scale));
}

void TestDarcy::linearProfileForConstantK() {
    const int n = 10;
    const Eigen::MatrixXd K = Eigen::MatrixXd::Constant(n, n, 2.5), f = Eigen::MatrixXd::Zero(n, n);
    const DarcySolution s = solveDarcy(K, f, DarcyTask::Conditional, 1.5);
    for (int y = 0; y < n; ++y)
        for (int x = 0; x < n; ++x)
            QVERIFY(std::abs(s.p(y, x) - 1.5 * (1 - (x + 0.5) / n)) < 1e-9);
}

void TestDarcy::solverFieldsHaveZeroResidual() {
    pl::Rng rng(3);
    for (DarcyTask task : {DarcyTask::Conditional, DarcyTask::Joint}) {
        const Eigen::MatrixXd K = randomPermeability(16, rng), f = defaultSource(16);
        const DarcySolution s = solveDarcy(K, f, task, 0.4);
        const Eigen::MatrixXd R = fvResidual(K, s.p, f, task, 0.4);
        QVERIFY(R.cwiseAbs().maxCoeff() < 1e-6);
        if (task == DarcyTask::Joint)
            QVERIFY(std::abs(s.p.mean()) < 1e-12);
        // A perturbed field does not satisfy the equations.
        Eigen::MatrixXd q = s.p;
        q(5, 5) += 0.01;
        QVERIFY(fvResidual(K, q, f, task, 0.4).cwiseAbs().maxCoeff() > 1);
    }
}

void TestDarcy::jointNeedsCompatibleSource() {
    Eigen::MatrixXd f = defaultSource(16);
    requireCompatibleSource(f, DarcyTask::Joint);
    f(8, 8) = 1.0;
    QVERIFY_THROWS_EXCEPTION(pl::EngineError, requireCompatibleSource(f, DarcyTask::Joint));
    requireCompatibleSource(f, DarcyTask::Conditional);
}

void TestDarcy::readerAcceptsCsvAndNpy() {
    QTemporaryDir dir;
    saveText(dir.filePath("k.csv"), "1,2,3\n4,5,6\n7,8,9\n");
    const FieldFile c = readFieldFile(dir.filePath("k.csv").toStdString());
    QCOMPARE(c.n(), 3);
    QCOMPARE(c.fields[0](1, 2), 6.0);
    std::ofstream(dir.filePath("k.npy").toStdString(), std::ios::binary)
        << pl::writeNpy({2, 3, 3}, std::vector<double>(18, 1.5));
    const FieldFile a = readFieldFile(dir.filePath("k.npy").toStdString());
    QCOMPARE(int(a.fields.size()), 2);
    QCOMPARE(a.shapeText(), std::string("2 x 3 x 3"));
}

void TestDarcy::readerRefusesBadFiles() {
    QTemporaryDir dir;
    auto refuses = [&](const char* name, const std::string& text, const char* needle) {
        saveText(dir.filePath(name), text);
        try {
            FieldFile f = readFieldFile(dir.filePath(name).toStdString());
            requirePositive(f, name);
            QFAIL(qPrintable(QStringLiteral("accepted ") + name));
        } catch (const pl::InputError& e) {
            QVERIFY2(std::string(e.what()).find(needle) != std::string::npos, e.what());
        }
    };
    refuses("ragged.csv", "1,2\n3\n", "");
    refuses("rect.csv", "1,2,3\n4,5,6\n", "square");
    refuses("nan.csv", "1,nan\n1,1\n", "");
    refuses("neg.csv", "1,2\n0,1\n", "permeability must be positive");
    std::string i4 = pl::writeNpy({2, 2}, {1, 1, 1, 1});
    const auto pos = i4.find("<f8");
    i4.replace(pos, 3, "<i8");
    refuses("i8.npy", i4, "float32 or float64");
    refuses("vec.npy", pl::writeNpy({4}, {1, 1, 1, 1}), "shape");
}

QTEST_GUILESS_MAIN(TestDarcy)
#include "tst_darcy.moc"
