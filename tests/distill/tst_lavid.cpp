// The distill engine (lavid-distillation): the student's objective (CE, signature MSE and KL, KD)
// against numpy at the initial weights, training that fits the signatures, the stand-in teacher
// (exact at sigma_T = 0, shared noise draws across sigma_T, hallucination rate), derangements,
// worst-group accuracy and cosine similarities against hand values, the readers (byte-wise class
// order, lines, unequal lengths, non-finite values, missing classes), determinism, cancellation
// and the claims over three seeds.
#include "common/PythonOracle.h"
#include "core/Errors.h"
#include "core/Rng.h"
#include "distill/LavidEngine.h"
#include "distill/LavidExperiment.h"
#include "distill/LavidInputs.h"
#include "distill/LavidKeys.h"
#include "distill/LavidWorld.h"
#include "distill/Student.h"

#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <set>

using namespace pl::distill;
namespace keys = pl::distill::lavid::keys;

using pl::test::havePython;
using pl::test::pythonLines;

namespace {

const char* kObjectiveScript = R"(
import sys, numpy as np
M = {}
with open(sys.argv[1]) as f:
    tok = f.read().split()
i = 0
while i < len(tok):
    name, r, c = tok[i], int(tok[i + 1]), int(tok[i + 2]); i += 3
    M[name] = np.array([float(v) for v in tok[i:i + r * c]]).reshape(r, c); i += r * c
gamma, beta, kdw, T, O, kl = [float(v) for v in sys.argv[2:8]]
O = int(O)
X, y = M['X'], M['y'][:, 0].astype(int)
relu = lambda a: np.maximum(a, 0)
g = relu(relu(X @ M['W1'] + M['b1']) @ M['W2'] + M['b2'])
z = g @ M['Wc'] + M['bc']
def logsoftmax(a):
    m = a.max(axis=1, keepdims=True)
    return a - m - np.log(np.exp(a - m).sum(axis=1, keepdims=True))
def softmax(a):
    return np.exp(logsoftmax(a))
loss = gamma * -logsoftmax(z)[np.arange(len(y)), y].mean()
if beta > 0:
    q = g @ M['Wq'] + M['bq']
    t = M['S'][y]
    if kl == 0:
        loss += beta * ((q - t) ** 2).mean()
    else:
        Q = t.shape[1] // O
        loss += beta * np.mean([-(softmax(t[:, k*O:(k+1)*O]) * logsoftmax(q[:, k*O:(k+1)*O])).sum(axis=1).mean() for k in range(Q)])
if kdw > 0:
    P = softmax(M['Z'] / T)
    loss += kdw * T * T * -(P * logsoftmax(z / T)).sum(axis=1).mean()
print('%.12f' % loss)
)";

void writeMatrix(QFile& f, const char* name, const Eigen::MatrixXd& M) {
    QByteArray s = QByteArray(name) + ' ' + QByteArray::number(qlonglong(M.rows())) + ' ' +
                   QByteArray::number(qlonglong(M.cols())) + '\n';
    for (Eigen::Index r = 0; r < M.rows(); ++r)
        for (Eigen::Index c = 0; c < M.cols(); ++c)
            s += QByteArray::number(M(r, c), 'g', 17) + ' ';
    f.write(s + '\n');
}

pl::ParamSet quick(const LavidEngine& e) {
    pl::ParamSet p(e.params());
    p.setText(keys::param::kClasses, "6");
    p.setText(keys::param::kImagesPerClass, "10");
    p.setText(keys::param::kTestPerClass, "10");
    p.setText(keys::param::kQuestions, "10");
    p.setText(keys::param::kStudentInits, "1");
    p.setText(keys::param::kEpochs, "3");
    p.setText(keys::param::kSweeps, "false");
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

} // namespace

class TestLavid : public QObject {
    Q_OBJECT
private slots:
    void objectiveMatchesNumpy_data() {
        QTest::addColumn<double>("gamma");
        QTest::addColumn<double>("beta");
        QTest::addColumn<double>("kd");
        QTest::addColumn<bool>("kl");
        QTest::newRow("ce") << 1.0 << 0.0 << 0.0 << false;
        QTest::newRow("lavid-mse") << 1.0 << 0.7 << 0.0 << false;
        QTest::newRow("lavid-kl") << 0.5 << 2.0 << 0.0 << true;
        QTest::newRow("kd-lavid") << 1.0 << 1.0 << 0.8 << false;
    }
    void objectiveMatchesNumpy() {
        if (!havePython("numpy"))
            QSKIP("/usr/bin/python3 with numpy not available");
        QFETCH(double, gamma);
        QFETCH(double, beta);
        QFETCH(double, kd);
        QFETCH(bool, kl);
        pl::Rng rng(5);
        const int n = 12, d = 5, C = 3, Q = 2, O = 3;
        Eigen::MatrixXd X(n, d), S(C, Q * O), Z(n, C), yM(n, 1);
        std::vector<int> y;
        for (int r = 0; r < n; ++r) {
            for (int c = 0; c < d; ++c)
                X(r, c) = rng.normal();
            for (int c = 0; c < C; ++c)
                Z(r, c) = 2 * rng.normal();
            y.push_back(r % C);
            yM(r, 0) = r % C;
        }
        for (int c = 0; c < C; ++c)
            for (int k = 0; k < Q * O; ++k)
                S(c, k) = 3 * rng.uniform();
        Student s(d, 4, 3, C, Q * O, rng);
        const std::vector<Eigen::MatrixXd> w = s.weights();
        StudentTraining t;
        t.epochs = 1;
        t.batch = n;
        t.lr = 0;
        t.gamma = gamma;
        t.beta = beta;
        t.loss = kl ? SignatureLoss::Kl : SignatureLoss::Mse;
        t.options = O;
        t.signatures = S;
        if (kd > 0)
            t.teacherLogits = Z;
        t.kdWeight = kd;
        t.kdTemperature = 2.5;
        const double ours = s.train(X, y, t, rng, [](double) {}).front();
        QTemporaryDir dir;
        QFile f(dir.filePath("m.txt"));
        QVERIFY(f.open(QIODevice::WriteOnly));
        const char* names[] = {"W1", "b1", "W2", "b2", "Wc", "bc", "Wq", "bq"};
        for (int k = 0; k < 8; ++k)
            writeMatrix(f, names[k], w[size_t(k)]);
        writeMatrix(f, "X", X);
        writeMatrix(f, "y", yM);
        writeMatrix(f, "S", S);
        writeMatrix(f, "Z", Z);
        f.close();
        const QStringList out =
            pythonLines(kObjectiveScript, {f.fileName(), QString::number(gamma), QString::number(beta),
                                           QString::number(kd), "2.5", QString::number(O), kl ? "1" : "0"});
        QCOMPARE(out.size(), 1);
        QVERIFY2(std::abs(out[0].toDouble() - ours) < 1e-9,
                 qPrintable(QString("numpy %1, ours %2").arg(out[0]).arg(ours, 0, 'g', 12)));
    }

    void signatureHeadLearnsTargets() {
        // Two well separated classes, no CE: the question head must reproduce t_y.
        pl::Rng rng(3);
        const int n = 40;
        Eigen::MatrixXd X(n, 4), S(2, 6);
        std::vector<int> y;
        for (int r = 0; r < n; ++r) {
            y.push_back(r % 2);
            for (int c = 0; c < 4; ++c)
                X(r, c) = (r % 2 ? 2.0 : -2.0) + 0.2 * rng.normal();
        }
        S << 3, 0, 0, 0, 3, 0, 0, 0, 3, 3, 0, 0;
        Student s(4, 16, 8, 2, 6, rng);
        StudentTraining t;
        t.epochs = 200;
        t.gamma = 0;
        t.options = 3;
        t.signatures = S;
        t.lr = 1e-2;
        const std::vector<double> losses = s.train(X, y, t, rng, [](double) {});
        QVERIFY(losses.back() < 0.02 * losses.front());
        const Eigen::MatrixXd q = s.questionScores(X);
        QVERIFY((q.row(0) - S.row(0)).cwiseAbs().maxCoeff() < 0.3);
        QVERIFY((q.row(1) - S.row(1)).cwiseAbs().maxCoeff() < 0.3);
    }

    void teacherIsExactWithoutNoise() {
        pl::Rng wr(1);
        const LavidWorld w = makeLavidWorld(12, 24, 5, wr);
        const Eigen::MatrixXd S = teacherSignatures(w, 0, 0, 3, pl::Rng(2));
        for (int c = 0; c < 12; ++c)
            for (int q = 0; q < 24; ++q)
                for (int o = 0; o < 5; ++o)
                    QCOMPARE(S(c, q * 5 + o), o == w.answer(c, q) ? 3.0 : 0.0);
        // Rendered attributes are unique per class; the group is the habitat.
        std::set<std::vector<int>> seen;
        for (int c = 0; c < 12; ++c) {
            const auto& a = w.classAttrs[size_t(c)];
            QVERIFY(seen.insert(std::vector<int>(a.begin(), a.begin() + kRenderedAttributes)).second);
            QCOMPARE(w.group[size_t(c)], a[Habitat]);
        }
        // The same draws at every sigma: S(2 sigma) - onehot = 2 (S(sigma) - onehot).
        const Eigen::MatrixXd A = teacherSignatures(w, 0.5, 0.2, 3, pl::Rng(9));
        const Eigen::MatrixXd B = teacherSignatures(w, 1.0, 0.2, 3, pl::Rng(9));
        const Eigen::MatrixXd H = teacherSignatures(w, 0.0, 0.2, 3, pl::Rng(9));
        QVERIFY(((B - H) - 2 * (A - H)).cwiseAbs().maxCoeff() < 1e-12);
    }

    void rendersFollowTheSplit() {
        pl::Rng wr(6), rr(7);
        const LavidWorld w = makeLavidWorld(6, 8, 4, wr);
        const DistillData d = renderLavidImages(w, 20, 0.95, rr);
        QCOMPARE(d.rows(), 120);
        QCOMPARE(int(d.X.cols()), kImageFeatures);
        QVERIFY(d.X.minCoeff() >= 0.0 && d.X.maxCoeff() <= 1.0);
        for (int c = 0; c < 6; ++c) {
            int matched = 0;
            for (int i = 0; i < 20; ++i) {
                QCOMPARE(d.y[size_t(c * 20 + i)], c);
                matched += d.background[size_t(c * 20 + i)] == w.group[size_t(c)];
            }
            QCOMPARE(matched, 19); // round(0.95 * 20)
        }
        // Two renders of one class differ (jitter, noise); the object changes the image.
        QVERIFY((d.X.row(0) - d.X.row(1)).norm() > 0);
    }

    void hallucinationRate() {
        pl::Rng wr(4);
        const LavidWorld w = makeLavidWorld(40, 100, 4, wr);
        const Eigen::MatrixXd S = teacherSignatures(w, 0, 0.3, 3, pl::Rng(5));
        int wrong = 0;
        for (int c = 0; c < 40; ++c)
            for (int q = 0; q < 100; ++q) {
                Eigen::Index best = 0;
                S.row(c).segment(q * 4, 4).maxCoeff(&best);
                wrong += int(best) != w.answer(c, q);
            }
        const double rate = wrong / 4000.0; // binomial sd ~ 0.007
        QVERIFY2(std::abs(rate - 0.3) < 0.03, qPrintable(QString::number(rate)));
    }

    void derangementHasNoFixedPoint() {
        pl::Rng rng(11);
        for (int n : {2, 3, 7, 20}) {
            const std::vector<int> p = derangement(n, rng);
            std::set<int> vals(p.begin(), p.end());
            QCOMPARE(int(vals.size()), n);
            QCOMPARE(*vals.begin(), 0);
            QCOMPARE(*vals.rbegin(), n - 1);
            for (int i = 0; i < n; ++i)
                QVERIFY(p[size_t(i)] != i);
        }
    }

    void worstGroupAndCosine() {
        DistillData d;
        d.X = Eigen::MatrixXd::Zero(6, 1);
        d.y = {0, 0, 1, 1, 1, 0};
        d.group = {0, 0, 1, 1, 1, 0};
        d.background = {0, 1, 1, 0, 0, 0};
        // cells: (0,0) rows 0,5; (0,1) row 1; (1,1) row 2; (1,0) rows 3,4
        const std::vector<int> pred = {0, 1, 1, 1, 0, 0};
        QCOMPARE(worstGroupAccuracy(pred, d), 0.0); // (0,1) wrong
        const std::vector<int> pred2 = {0, 0, 1, 1, 0, 0};
        QCOMPARE(worstGroupAccuracy(pred2, d), 0.5); // (1,0): 1 of 2
        d.group.assign(6, -1);
        d.background.assign(6, -1);
        QCOMPARE(worstGroupAccuracy(pred2, d), 2.0 / 3.0); // by class: class 1 has 2 of 3
        Eigen::MatrixXd M(3, 2);
        M << 1, 0, 1, 1, 0, 0;
        const Eigen::MatrixXd S = cosineRows(M);
        QCOMPARE(S(0, 0), 1.0);
        QVERIFY(std::abs(S(0, 1) - 1 / std::sqrt(2.0)) < 1e-12);
        QCOMPARE(S(2, 1), 0.0);
    }

    void signaturesParse() {
        const SignatureInput s = parseSignatures("{\n \"b\": [[1, 2], [3, 4]],\n \"B\": [[5, 6], [7, 8]],\n"
                                                 " \"a\": [[0, 1], [1, 0]]\n}\n",
                                                 "s.json");
        QCOMPARE(s.classes, (std::vector<std::string>{"B", "a", "b"})); // byte-wise: 'B' < 'a'
        QCOMPARE(s.questions, 2);
        QCOMPARE(s.options, 2);
        QCOMPARE(s.values(0, 3), 8.0);
        QCOMPARE(s.values(2, 2), 3.0);
        QCOMPARE(s.lines, (std::vector<int64_t>{3, 4, 2}));
        const std::string unequal = inputError([] {
            parseSignatures("{\n\"a\": [[1, 0], [0, 1]],\n\"b\": [[1, 0, 0], [0, 1, 0]]\n}", "u.json");
        });
        QVERIFY2(unequal.find("u.json:3") != std::string::npos && unequal.find("'b'") != std::string::npos &&
                     unequal.find("unequal") != std::string::npos,
                 unequal.c_str());
        const std::string nonFinite = inputError([] { parseSignatures("{\"a\": [[1, null]]}", "n.json"); });
        QVERIFY2(nonFinite.find("non-finite") != std::string::npos, nonFinite.c_str());
        QVERIFY(inputError([] { parseSignatures("[1, 2]", "x.json"); }).find("x.json:1") !=
                std::string::npos);
        const QuestionsInput q =
            parseQuestions("What hue?\n(a) red\n\n\nWhat shape?\n(a) round\n\nLast\n", "q.txt");
        QCOMPARE(q.labels, (std::vector<std::string>{"What hue?", "What shape?", "Last"}));
    }

    void featuresParseAndGather() {
        const std::string csv = "# comment\nx1,x2,label,split,group,background\n"
                                "1,2,zeta,train,g1,land\n3,4,alpha,train,g2,water\n5,6,alpha,test,g2,land\n"
                                "7,8,zeta,test,g1,water\n";
        auto feat = std::make_shared<FeatureInput>(parseFeatureCsv(csv, "f.csv"));
        QCOMPARE(feat->lines, (std::vector<int64_t>{3, 4, 5, 6}));
        QCOMPARE(feat->X(2, 1), 6.0);
        auto sig = std::make_shared<SignatureInput>(
            parseSignatures("{\"zeta\": [[1, 0]], \"alpha\": [[0, 1]], \"extra\": [[2, 2]]}", "s.json"));
        const LavidFileData d = gatherLavidInputs({feat, sig});
        QCOMPARE(d.classes, (std::vector<std::string>{"alpha", "zeta"}));
        QCOMPARE(d.signatures(0, 1), 1.0);
        QCOMPARE(d.signatures(1, 0), 1.0);
        QCOMPARE(d.train.y, (std::vector<int>{1, 0}));
        QCOMPARE(d.test.y, (std::vector<int>{0, 1}));
        QCOMPARE(d.test.background, (std::vector<int>{0, 1}));
        QCOMPARE(d.testFileRow, (std::vector<int>{2, 3}));
        auto partial = std::make_shared<SignatureInput>(parseSignatures("{\"zeta\": [[1, 0]]}", "p.json"));
        const std::string missing = inputError([&] { gatherLavidInputs({feat, partial}); });
        QVERIFY2(missing.find("missing from the signatures") != std::string::npos &&
                     missing.find("alpha") != std::string::npos,
                 missing.c_str());
        auto qs = std::make_shared<QuestionsInput>(parseQuestions("one\n\ntwo\n", "q.txt"));
        QVERIFY(inputError([&] { gatherLavidInputs({feat, sig, qs}); }).find("q.txt") != std::string::npos);
        QVERIFY(inputError([&] { gatherLavidInputs({feat}); }).find("signature file") != std::string::npos);
        const std::string bad =
            inputError([] { parseFeatureCsv("x,label,split\n1,a,train\nnan,b,test\n", "b.csv"); });
        QVERIFY2(bad.find("b.csv:3:1") != std::string::npos, bad.c_str());
        const std::string ragged = inputError([] { parseFeatureCsv("x,label,split\n1,a\n", "r.csv"); });
        QVERIFY2(ragged.find("r.csv:2") != std::string::npos, ragged.c_str());
    }

    void runHasKeys() {
        LavidEngine e;
        pl::RunContext ctx(2);
        const pl::ResultDocument d = e.run({}, quick(e), ctx);
        for (const char* m : keys::kMethods) {
            QVERIFY2(d.metrics.count(keys::metric::kTestAccPrefix + std::string(m)), m);
            QVERIFY(d.metrics.count(keys::metric::kWorstGroupAccPrefix + std::string(m)));
            QCOMPARE(d.labels.at(keys::label::kPredPrefix + std::string(m)).size(), size_t(60));
        }
        // student_inits = 1: the metric is the accuracy of the stored predictions.
        const auto& pred = d.labels.at(std::string(keys::label::kPredPrefix) + "lavid");
        int hit = 0;
        for (size_t r = 0; r < pred.size(); ++r)
            hit += pred[r] == int64_t(r / 10);
        QCOMPARE(d.metrics.at(std::string(keys::metric::kTestAccPrefix) + "lavid"), hit / 60.0);
        const pl::Matrix& S = d.matrices.at(keys::matrix::kSignatures);
        QCOMPARE(S.rows, int64_t(6));
        QCOMPARE(S.cols, int64_t(50));
        QCOMPARE(d.matrices.at(keys::matrix::kSignatureSimilarity).rows, int64_t(6));
        QCOMPARE(d.matrices.at(keys::matrix::kFeatureSimilarity).cols, int64_t(6));
        QCOMPARE(d.vectors.at(keys::vector::kProbeAcc).size(), size_t(10));
        QCOMPARE(d.claims.size(), size_t(3)); // no sweep: no dose-response claim
    }

    void deterministic() {
        LavidEngine e;
        auto run = [&](uint64_t seed) {
            pl::RunContext ctx(seed);
            return e.run({}, quick(e), ctx);
        };
        const pl::ResultDocument a = run(7), b = run(7), c = run(8);
        QCOMPARE(a.labels, b.labels);
        QCOMPARE(a.matrices.at(keys::matrix::kSignatures).data,
                 b.matrices.at(keys::matrix::kSignatures).data);
        for (const auto& [k, v] : a.metrics)
            if (k != keys::metric::kMsPerStudent)
                QCOMPARE(v, b.metrics.at(k));
        QVERIFY(a.labels != c.labels);
    }

    void cancels() {
        LavidEngine e;
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
        // Paper defaults. Observed at seeds 1-3: LaViD 1.9-2.4 points above CE (the claim's 3 points
        // are not reached), but the random-signature control is 1.8-2.4 points above CE too (the
        // gain is a regularisation effect on this workload, not knowledge: holds = false);
        // worst-group accuracy 0.01-0.11 for every method (the background dominates the pixels),
        // LaViD's worst group 0-4 points above CE; the dose-response holds at seeds 2 and 3 only.
        QFETCH(uint64_t, seed);
        LavidEngine e;
        pl::RunContext ctx(seed);
        const pl::ResultDocument d = e.run({}, pl::ParamSet(e.params()), ctx);
        for (const auto& c : d.claims)
            qInfo("seed %llu %s holds=%d observed=%.4f threshold=%.3f: %s", (unsigned long long)seed,
                  c.id.c_str(), int(c.holds), c.observed, c.threshold, c.detail.c_str());
        for (const auto& [k, v] : d.metrics)
            qInfo("seed %llu %s = %.4f", (unsigned long long)seed, k.c_str(), v);
        QCOMPARE(d.claims.size(), size_t(4));
        for (const auto& c : d.claims)
            QCOMPARE(c.holds, c.id == keys::claim::kRandomSignature ? c.observed <= c.threshold
                              : c.id == keys::claim::kGainShrinks   ? c.observed > c.threshold
                                                                    : c.observed >= c.threshold);
        // Every student learns well above chance (1/20) on 20 classes.
        for (const char* m : keys::kMethods)
            QVERIFY(d.metrics.at(keys::metric::kTestAccPrefix + std::string(m)) > 0.15);
        // The teacher's argmax agrees with the knowledge base where it did not hallucinate (h = 0.1)
        // and the noise did not flip it.
        QVERIFY(d.metrics.at(keys::metric::kSignatureAgreement) > 0.8);
        // More images help CE.
        const pl::Series& ce = d.series.at(std::string(keys::series::kAccVsImagesPrefix) + "ce");
        QVERIFY(ce.y.back() > ce.y.front() + 0.1);
        // Questions about rendered attributes are answered above chance (1/5) by the LaViD head.
        const std::vector<double>& probe = d.vectors.at(keys::vector::kProbeAcc);
        double rendered = 0;
        int count = 0;
        for (size_t q = 0; q < probe.size(); ++q)
            if (int(q % kAttributeTypes) < kRenderedAttributes) {
                rendered += probe[q];
                ++count;
            }
        QVERIFY2(rendered / count > 0.3, qPrintable(QString::number(rendered / count)));
    }
};

QTEST_GUILESS_MAIN(TestLavid)
#include "tst_lavid.moc"
