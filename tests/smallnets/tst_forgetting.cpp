// continual-forgetting engine: tape gradient of the quadratic network against central finite
// differences and the closed form, block invariance at sigma = 0, gradient descent replayed in
// numpy from the stored w_init on CSV inputs, determinism, the claims at fixed seeds and bad CSVs.
#include "smallnets/ContinualForgettingEngine.h"
#include "smallnets/ContinualForgettingKeys.h"
#include "smallnets/SignedQuadraticNet.h"
#include "smallnets/TaskData.h"

#include "core/Errors.h"
#include "nn/Parameter.h"

#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <fstream>

using namespace pl::smallnets;
namespace keys = pl::smallnets::forget::keys;

namespace {

pl::ParamSet small(const ContinualForgettingEngine& e) {
    pl::ParamSet p(e.params());
    p.set(keys::param::kD, int64_t(8));
    p.set(keys::param::kTasks, int64_t(3));
    p.set(keys::param::kN, int64_t(60));
    p.set(keys::param::kWidth, int64_t(6));
    p.set(keys::param::kIters, int64_t(40));
    p.set(keys::param::kClaims, false);
    return p;
}

pl::ResultDocument run(const ContinualForgettingEngine& e, const pl::ParamSet& p, uint64_t seed,
                       const pl::InputList& in = {}) {
    pl::RunContext ctx(seed);
    return pl::runEngine(e, in, p, ctx);
}

std::string strip(pl::ResultDocument d) {
    d.elapsedMs = 0;
    return d.toJson();
}

void writeCsv(const QString& path, const TaskSet& s) {
    std::ofstream out(path.toStdString());
    out.precision(17);
    out << "task,y";
    for (int j = 0; j < s.dim(); ++j)
        out << ",x" << j + 1;
    out << "\n";
    for (size_t k = 0; k < s.tasks.size(); ++k)
        for (Eigen::Index i = 0; i < s.tasks[k].X.rows(); ++i) {
            out << s.ids[k] << "," << s.tasks[k].y(i);
            for (Eigen::Index j = 0; j < s.tasks[k].X.cols(); ++j)
                out << "," << s.tasks[k].X(i, j);
            out << "\n";
        }
}

const pl::Claim* claim(const pl::ResultDocument& d, const char* id) {
    for (const auto& c : d.claims)
        if (c.id == id)
            return &c;
    return nullptr;
}

} // namespace

class TestForgetting : public QObject {
    Q_OBJECT
private slots:
    void gradientMatchesFiniteDifferences() {
        pl::Rng rng(3);
        TaskBatch b{pl::nn::normalMatrix(17, 5, 1.0, rng), Eigen::VectorXd(17)};
        for (int i = 0; i < 17; ++i)
            b.y(i) = i % 3 ? 1.0 : -1.0;
        const Eigen::MatrixXd W = pl::nn::normalMatrix(4, 5, 0.7, rng);
        const Eigen::VectorXd a = quadSigns(4);
        QCOMPARE(a(0), 0.25);
        QCOMPARE(a(1), -0.25);
        for (MarginLoss loss : {MarginLoss::Logistic, MarginLoss::Exponential}) {
            Eigen::MatrixXd g;
            const double l = quadLossGrad(W, a, b, loss, g);
            QVERIFY(std::abs(l - quadLoss(W, a, b, loss)) < 1e-14);
            double worst = 0;
            for (Eigen::Index i = 0; i < W.size(); ++i) {
                Eigen::MatrixXd p = W, m = W;
                const double h = 1e-6;
                p(i) += h;
                m(i) -= h;
                const double num = (quadLoss(p, a, b, loss) - quadLoss(m, a, b, loss)) / (2 * h);
                worst = std::max(worst, std::abs(num - g(i)) / std::max(1.0, std::abs(num)));
            }
            QVERIFY2(worst < 1e-7, QByteArray::number(worst));
            // Closed form: dL/dW = (2/n) diag(a) (Z .* r)^T X with r_i = l'(z_i) y_i.
            const Eigen::MatrixXd Z = b.X * W.transpose();
            const Eigen::ArrayXd z = b.y.array() * (Z.array().square().matrix() * a).array();
            const Eigen::ArrayXd lp = loss == MarginLoss::Logistic ? Eigen::ArrayXd(-1.0 / (1.0 + z.exp()))
                                                                   : Eigen::ArrayXd(-(-z).exp());
            const Eigen::VectorXd r = (lp * b.y.array()).matrix();
            const Eigen::MatrixXd closed =
                2.0 / 17.0 * a.asDiagonal() * (Z.array().colwise() * r.array()).matrix().transpose() * b.X;
            const double closedErr =
                (closed - g).cwiseAbs().maxCoeff() / std::max(1.0, g.cwiseAbs().maxCoeff());
            QVERIFY2(closedErr < 1e-12, QByteArray::number(closedErr));
        }
        // Q = W^T diag(a) W gives the same f as the network.
        const Eigen::MatrixXd Q = quadQ(W, a);
        const Eigen::VectorXd x = b.X.row(0).transpose();
        QVERIFY(std::abs(x.dot(Q * x) - ((W * x).array().square().matrix().dot(a))) < 1e-13);
    }

    void generatorIsOrthogonalXor() {
        const Eigen::MatrixXd mu = orthonormalMeans(12, 4, pl::Rng(5));
        QVERIFY((mu.transpose() * mu - Eigen::MatrixXd::Identity(8, 8)).cwiseAbs().maxCoeff() < 1e-12);
        XorTaskSpec s;
        s.d = 12;
        s.tasks = 4;
        s.n = 400;
        s.sigma = 0;
        s.muNorm = 2;
        const TaskSet t = makeXorTasks(s, mu, pl::Rng(6));
        QCOMPARE(int(t.tasks.size()), 4);
        for (int k = 0; k < 4; ++k)
            for (int i = 0; i < 400; ++i) {
                const Eigen::VectorXd x = t.tasks[size_t(k)].X.row(i).transpose();
                const double c1 = mu.col(2 * k).dot(x), c2 = mu.col(2 * k + 1).dot(x);
                // On one of +-2 mu_{k,1} (y = +1) or +-2 mu_{k,2} (y = -1), nothing else.
                QVERIFY(std::abs(std::abs(t.tasks[size_t(k)].y(i) > 0 ? c1 : c2) - 2) < 1e-12);
                QVERIFY(std::abs(x.norm() - 2) < 1e-12);
            }
        const Eigen::MatrixXd ov = taskOverlap(t);
        QVERIFY(std::abs(ov(0, 0) - 1) < 1e-12);
        QVERIFY(std::abs(ov(0, 1)) < 1e-12);
    }

    void noNoiseNoForgetting() {
        ContinualForgettingEngine e;
        pl::ParamSet p = small(e);
        p.set(keys::param::kSigma, 0.0);
        const auto d = run(e, p, 11);
        for (double f : d.vectors.at(keys::vector::kForgettingTrain))
            QVERIFY2(std::abs(f) < 1e-10, QByteArray::number(f));
        // The off-task blocks of Q in the task basis stay at their initial values; the trained
        // task's loss went down.
        const auto& L = d.matrices.at(keys::matrix::kTrainLoss);
        QVERIFY(L.at(0, 0) < std::log(2.0));
    }

    void numpyReplayFromWInit() {
        const QString python = QStringLiteral("/usr/bin/python3");
        if (!QFile::exists(python))
            QSKIP("/usr/bin/python3 not found");
        QTemporaryDir dir;
        // Data from the generator written as CSV (train, test), run through the loader.
        XorTaskSpec s;
        s.d = 6;
        s.tasks = 3;
        s.n = 50;
        s.sigma = 0.4;
        const Eigen::MatrixXd mu = orthonormalMeans(6, 3, pl::Rng(1));
        writeCsv(dir.filePath("train.csv"), makeXorTasks(s, mu, pl::Rng(2)));
        writeCsv(dir.filePath("test.csv"), makeXorTasks(s, mu, pl::Rng(3)));
        ContinualForgettingEngine e;
        const pl::InputList in{e.load(dir.filePath("train.csv").toStdString()),
                               e.load(dir.filePath("test.csv").toStdString())};
        for (const char* loss : {"logistic", "exponential"}) {
            pl::ParamSet p(e.params());
            p.set(keys::param::kWidth, int64_t(5));
            p.set(keys::param::kIters, int64_t(60));
            p.set(keys::param::kEta, 0.3);
            p.set(keys::param::kLoss, std::string(loss));
            p.set(keys::param::kClaims, false);
            // Through JSON, as a user would replay a stored result.
            const auto d = pl::ResultDocument::fromJson(run(e, p, 4, in).toJson());
            const auto& w = d.matrices.at(keys::matrix::kWInit);
            QCOMPARE(w.rows, int64_t(5));
            QCOMPARE(w.cols, int64_t(6));
            {
                std::ofstream out(dir.filePath("w.txt").toStdString());
                out.precision(17);
                for (double v : w.data)
                    out << v << "\n";
            }
            const char* script = R"(
import sys, numpy as np
def load(f):
    a = np.loadtxt(f, delimiter=',', skiprows=1)
    ids = np.unique(a[:, 0])
    return [(a[a[:, 0] == t][:, 2:], a[a[:, 0] == t][:, 1]) for t in ids]
tr, te = load(sys.argv[1]), load(sys.argv[2])
W = np.loadtxt(sys.argv[3]).reshape(5, 6)
loss = sys.argv[4]
m = W.shape[0]; a = np.array([(1.0 if j % 2 == 0 else -1.0) / m for j in range(m)])
def L(W, X, y):
    z = y * ((X @ W.T) ** 2 @ a)
    return np.mean(np.logaddexp(0, -z)) if loss == 'logistic' else np.mean(np.exp(-z))
for X, y in tr:
    for _ in range(60):
        Z = X @ W.T; z = y * (Z ** 2 @ a)
        lp = -1 / (1 + np.exp(z)) if loss == 'logistic' else -np.exp(-z)
        G = 2 / len(y) * (a[:, None] * ((Z * (lp * y)[:, None]).T @ X))
        W = W - 0.3 * G
    print(' '.join(repr(L(W, X2, y2)) for X2, y2 in tr))
    print(' '.join(repr(L(W, X2, y2)) for X2, y2 in te))
)";
            QProcess py;
            py.start(python, {"-c", script, dir.filePath("train.csv"), dir.filePath("test.csv"),
                              dir.filePath("w.txt"), QString::fromLatin1(loss)});
            QVERIFY(py.waitForFinished(60000));
            QVERIFY2(py.exitCode() == 0, py.readAllStandardError().constData());
            const QStringList lines =
                QString::fromUtf8(py.readAllStandardOutput()).split('\n', Qt::SkipEmptyParts);
            QCOMPARE(lines.size(), 6);
            const auto& tr = d.matrices.at(keys::matrix::kTrainLoss);
            const auto& te = d.matrices.at(keys::matrix::kTestLoss);
            double worst = 0;
            for (int j = 0; j < 3; ++j) {
                const QStringList a = lines[2 * j].split(' '), b = lines[2 * j + 1].split(' ');
                for (int i = 0; i < 3; ++i) {
                    worst = std::max(worst, std::abs(a[i].toDouble() - tr.at(j, i)));
                    worst = std::max(worst, std::abs(b[i].toDouble() - te.at(j, i)));
                }
            }
            QVERIFY2(worst < 1e-10, QByteArray::number(worst));
        }
    }

    void deterministic() {
        ContinualForgettingEngine e;
        pl::ParamSet p = small(e);
        p.set(keys::param::kSweep, std::string("width"));
        const auto a = run(e, p, 9), b = run(e, p, 9), c = run(e, p, 10);
        QCOMPARE(strip(a), strip(b));
        QVERIFY(strip(a) != strip(c));
        for (const char* k :
             {keys::matrix::kWInit, keys::matrix::kQFinal, keys::matrix::kTrainLoss, keys::matrix::kTestLoss})
            QVERIFY2(a.matrices.count(k), k);
        QCOMPARE(a.matrices.at(keys::matrix::kQFinal).rows, int64_t(8));
        QCOMPARE(a.vectors.at(keys::vector::kForgettingTrain).size(), size_t(3));
        QCOMPARE(a.vectors.at(keys::vector::kForgettingTrain)[2], 0.0);
        for (const char* k :
             {"train_loss_task_1", "train_loss_task_2", "train_loss_task_3", "forgetting_vs_width"})
            QVERIFY2(a.series.count(k), k);
        const auto& F = a.vectors.at(keys::vector::kForgettingTrain);
        QVERIFY(std::abs(a.metrics.at(keys::metric::kForgettingTrain) - (F[0] + F[1]) / 2) < 1e-15);
    }

    void cancels() {
        ContinualForgettingEngine e;
        pl::RunContext ctx(1);
        ctx.requestStop();
        QVERIFY_THROWS_EXCEPTION(pl::Cancelled, e.run({}, pl::ParamSet(e.params()), ctx));
    }

    void claimsAtFixedSeeds_data() {
        QTest::addColumn<uint64_t>("seed");
        for (uint64_t s : {1u, 2u, 3u})
            QTest::newRow(qPrintable(QString::number(s))) << s;
    }
    void claimsAtFixedSeeds() {
        QFETCH(uint64_t, seed);
        ContinualForgettingEngine e;
        const auto d = run(e, pl::ParamSet(e.params()), seed);
        for (const char* id : {keys::claim::kBlockInvariance, keys::claim::kGrowsWithSigma,
                               keys::claim::kGrowsWithTasks, keys::claim::kGapShrinks}) {
            const pl::Claim* c = claim(d, id);
            QVERIFY2(c, id);
            qInfo("seed %llu %s holds=%d observed=%g: %s", (unsigned long long)seed, id, int(c->holds),
                  c->observed, c->detail.c_str());
        }
        // C1 is exact (block invariance); C2 holds at the defaults for these seeds.
        QVERIFY(claim(d, keys::claim::kBlockInvariance)->holds);
        QVERIFY(claim(d, keys::claim::kGrowsWithSigma)->holds);
        QVERIFY(claim(d, keys::claim::kGrowsWithTasks)->holds);
        // C3 (strictly decreasing over n/4, n/2, n) is not met at these seeds: between n/2 and n the
        // 5-seed mean gap is within its seed-to-seed spread, and the engine says holds = false. What
        // does hold is the overall trend: the gap at n/4 is larger than at n.
        QVERIFY(claim(d, keys::claim::kGapShrinks)->observed > 0);
    }

    void badFiles_data() {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<int>("line");
        QTest::addColumn<QString>("reason");
        QTest::newRow("non-numeric") << QByteArray("task,y,x1\n1,1,0.5\n2,-1,abc\n") << 3 << "non-numeric";
        QTest::newRow("bad label") << QByteArray("1,1,0.5\n1,0,0.1\n2,1,3\n") << 2 << "y must be";
        QTest::newRow("ragged") << QByteArray("# comment\n1,1,0.5,1\n\n2,1,0.2\n") << 4 << "ragged";
        QTest::newRow("one task") << QByteArray("task,y,x1\n7,1,0.5\n7,-1,0.2\n") << 2 << "only one task";
        QTest::newRow("fractional task") << QByteArray("1.5,1,0.5\n2,1,0.2\n") << 1 << "integer";
        QTest::newRow("no features") << QByteArray("1,1\n2,1\n") << 1 << "feature";
        QTest::newRow("nan") << QByteArray("1,1,nan\n2,1,0.2\n") << 1 << "non-numeric";
        QTest::newRow("empty") << QByteArray("# nothing\n") << 2 << "no data rows";
        QTest::newRow("header only") << QByteArray("task,y,x1,x2\n") << 2 << "no data rows";
    }
    void badFiles() {
        QFETCH(QByteArray, text);
        QFETCH(int, line);
        QFETCH(QString, reason);
        try {
            parseTaskCsv(text.toStdString(), "bad.csv");
            QFAIL("accepted");
        } catch (const pl::InputError& err) {
            QCOMPARE(err.file(), std::string("bad.csv"));
            QCOMPARE(int(err.line()), line);
            QVERIFY2(QString::fromStdString(err.reason()).contains(reason), err.what());
        }
    }

    void testFileMustMatch() {
        QTemporaryDir dir;
        QFile a(dir.filePath("a.csv")), b(dir.filePath("b.csv"));
        QVERIFY(a.open(QIODevice::WriteOnly) && b.open(QIODevice::WriteOnly));
        a.write("1,1,0.5,0\n1,-1,0,1\n2,1,1,1\n2,-1,1,-1\n");
        b.write("1,1,0.5,0\n3,-1,0,1\n");
        a.close();
        b.close();
        ContinualForgettingEngine e;
        const pl::InputList in{e.load(dir.filePath("a.csv").toStdString()),
                               e.load(dir.filePath("b.csv").toStdString())};
        pl::ParamSet p(e.params());
        p.set(keys::param::kIters, int64_t(10));
        QVERIFY_THROWS_EXCEPTION(pl::InputError, run(e, p, 1, in));
        // One file: runs, overlap between the two non-orthogonal tasks is positive.
        const auto d = run(e, p, 1, {in[0]});
        QVERIFY(d.metrics.at(keys::metric::kMaxOverlap) > 0.1);
        QCOMPARE(d.matrices.at(keys::matrix::kQFinal).rows, int64_t(2));
    }
};

QTEST_GUILESS_MAIN(TestForgetting)
#include "tst_forgetting.moc"
