// The robusttrain engine (dwp-cim-robustness): the 1-D GMM against scikit-learn's GaussianMixture
// (same start), the PCM statistics against closed forms and numpy, sigma = 0 against the clean
// accuracy, determinism, cancellation, the claims over three seeds, and the readers on bad input
// (file and line, IDX count mismatch naming both counts).
#include "common/PythonOracle.h"
#include "core/Errors.h"
#include "core/Rng.h"
#include "robusttrain/DwpEngine.h"
#include "robusttrain/DwpKeys.h"
#include "robusttrain/DwpTraining.h"
#include "robusttrain/Gmm1d.h"
#include "robusttrain/LabeledData.h"
#include "robusttrain/WeightNoise.h"

#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>

using namespace pl::robusttrain;
namespace keys = pl::robusttrain::dwp::keys;

using pl::test::havePython;
using pl::test::pythonLines;

namespace {

pl::ParamSet smallParams(const DwpEngine& e) {
    pl::ParamSet p(e.params());
    p.setText(keys::param::kTrainSamples, "400");
    p.setText(keys::param::kTestSamples, "200");
    p.setText(keys::param::kEpochs, "3");
    p.setText(keys::param::kEvalDraws, "3");
    return p;
}

const char* kGmmScript = R"(
import sys, numpy as np
from sklearn.mixture import GaussianMixture
x = np.loadtxt(sys.argv[1]).reshape(-1, 1)
v = x.var()
g = GaussianMixture(2, means_init=[[x.min()], [x.max()]], weights_init=[0.5, 0.5],
                    precisions_init=[[[1 / v]], [[1 / v]]], tol=1e-13, max_iter=5000, reg_covar=1e-12).fit(x)
o = np.argsort(g.means_.ravel())
for k in o:
    print("%.17g %.17g %.17g" % (g.weights_[k], g.means_.ravel()[k], g.covariances_.ravel()[k]))
)";

const char* kPcmScript = R"(
import numpy as np
g = np.array([1e-9, 1e-3, 0.01, 0.1, 0.3, 0.5, 0.8, 1.0])
sp = np.maximum(0.26348 + 1.9650 * g - 1.1731 * g ** 2, 0)
l = np.log(np.maximum(g, 1e-7))
mu = np.clip(-0.0155 * l + 0.0244, 0.049, 0.1)
sd = np.clip(-0.0125 * l - 0.0059, 0.008, 0.045)
qs = np.minimum(0.0088 / np.maximum(g ** 0.65, 1e-3), 0.2)
for row in zip(g, sp, mu, sd, qs):
    print(" ".join("%.17g" % v for v in row))
)";

} // namespace

class TestRobustTrain : public QObject {
    Q_OBJECT
private slots:
    void gmmMatchesSklearn() {
        if (!havePython("numpy, sklearn"))
            QSKIP("/usr/bin/python3 with numpy and scikit-learn not available");
        pl::Rng rng(5);
        std::vector<double> x;
        for (int i = 0; i < 700; ++i)
            x.push_back(rng.normal(0.3, 0.2));
        for (int i = 0; i < 300; ++i)
            x.push_back(rng.normal(2.0, 0.6));
        QTemporaryDir dir;
        QFile f(dir.filePath("x.txt"));
        QVERIFY(f.open(QIODevice::WriteOnly));
        for (double v : x)
            f.write(QByteArray::number(v, 'g', 17) + "\n");
        f.close();
        const Gmm1d g = fitGmm1d(x);
        const QStringList out = pythonLines(kGmmScript, {f.fileName()});
        QCOMPARE(out.size(), 2);
        for (int k = 0; k < 2; ++k) {
            const QStringList v = out[k].split(' ');
            qInfo("component %d: ours %.8f %.8f %.8f sklearn %s", k, g.weight[k], g.mean[k], g.var[k],
                  qPrintable(out[k]));
            // Same start; ours stops at a relative log-likelihood change of 1e-10 (the issue's
            // rule), sklearn runs on to tol 1e-13: the slow EM tail leaves ~1e-6 between them.
            QVERIFY(std::abs(g.weight[k] - v[0].toDouble()) < 1e-5);
            QVERIFY(std::abs(g.mean[k] - v[1].toDouble()) < 1e-5);
            QVERIFY(std::abs(g.var[k] - v[2].toDouble()) < 1e-5);
        }
        QVERIFY(g.posteriorLow(0.3) > 0.99);
        QVERIFY(g.posteriorLow(3.0) < 0.01);
        // Histogram input: bin centres weighted by counts give the same kind of fit.
        const Gmm1d h = fitGmm1d({0.0, 1.0, 5.0, 6.0}, {10, 10, 5, 5});
        QVERIFY(std::abs(h.mean[0] - 0.5) < 1e-6 && std::abs(h.mean[1] - 5.5) < 1e-6);
        QVERIFY(std::abs(h.weight[0] - 2.0 / 3.0) < 1e-6);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, fitGmm1d({1.0, 1.0, 1.0}));
    }

    void pcmFormulasMatchNumpy() {
        if (!havePython("numpy"))
            QSKIP("/usr/bin/python3 with numpy not available");
        const QStringList out = pythonLines(kPcmScript, {});
        QCOMPARE(out.size(), 8);
        for (const QString& line : out) {
            const QStringList v = line.split(' ');
            const double g = v[0].toDouble();
            double mu = 0, sd = 0;
            pcmDriftMoments(g, mu, sd);
            QVERIFY(std::abs(pcmSigmaProg(g) - v[1].toDouble()) < 1e-12);
            QVERIFY(std::abs(mu - v[2].toDouble()) < 1e-12);
            QVERIFY(std::abs(sd - v[3].toDouble()) < 1e-12);
            QVERIFY(std::abs(pcmQs(g) - v[4].toDouble()) < 1e-12);
        }
    }

    void pcmMomentsMatchClosedForms() {
        // A device programmed to g_T = 12.5 µS (g^ = 0.5): the programming noise has the
        // polynomial's sd; the drift factor's mean is E[(t/t0)^-nu] = exp(-mu L + sd^2 L^2 / 2);
        // the read noise at nu ~ 0 has sd g Q_s sqrt(ln((t + t_read) / (2 t_read))).
        pl::Rng rng(11);
        const int n = 40000;
        double s = 0, s2 = 0, drift = 0;
        const double t = 31536000, L = std::log((t + 20) / 20);
        for (int i = 0; i < n; ++i) {
            const PcmDevice d = pcmProgram(12.5, rng);
            s += d.gProg;
            s2 += d.gProg * d.gProg;
            drift += std::pow((t + 20) / 20, -d.nu);
        }
        const double mean = s / n, sdv = std::sqrt(s2 / n - mean * mean);
        const double sp = pcmSigmaProg(0.5);
        qInfo("programming: mean %.4f sd %.4f (closed form 12.5, %.4f)", mean, sdv, sp);
        QVERIFY(std::abs(mean - 12.5) < 4 * sp / std::sqrt(double(n)));
        QVERIFY(std::abs(sdv / sp - 1) < 0.02);
        double mu = 0, sd = 0;
        pcmDriftMoments(0.5, mu, sd);
        const double expected = std::exp(-mu * L + sd * sd * L * L / 2);
        qInfo("drift factor at 1 year: %.5f (closed form %.5f)", drift / n, expected);
        QVERIFY(std::abs(drift / n / expected - 1) < 2e-3);
        PcmDevice fixed{12.5, 0.0};
        double r = 0, r2 = 0;
        for (int i = 0; i < n; ++i) {
            const double g = pcmRead(fixed, t, rng);
            r += g;
            r2 += g * g;
        }
        const double rm = r / n, rsd = std::sqrt(r2 / n - rm * rm);
        const double sigRead = 12.5 * pcmQs(0.5) * std::sqrt(std::log((t + 20 + 250e-9) / (2 * 250e-9)));
        qInfo("read noise: sd %.5f (closed form %.5f)", rsd, sigRead);
        QVERIFY(std::abs(rm - 12.5) < 4 * sigRead / std::sqrt(double(n)));
        QVERIFY(std::abs(rsd / sigRead - 1) < 0.02);
    }

    void driftCompensationRestoresScale() {
        // Without compensation a year of drift shrinks the weights; the global compensation brings
        // the all-ones readout back to its value after programming.
        pl::Rng wr(3);
        Eigen::MatrixXd W(30, 20);
        for (Eigen::Index i = 0; i < W.size(); ++i)
            W.data()[i] = wr.normal() + 0.3;
        pl::Rng a(9), b(9);
        const Eigen::MatrixXd raw = pcmNoise(W, 31536000, false, a);
        const Eigen::MatrixXd comp = pcmNoise(W, 31536000, true, b);
        const double ref = W.colwise().sum().cwiseAbs().sum();
        qInfo("all-ones readout: exact %.2f raw %.2f compensated %.2f", ref,
              raw.colwise().sum().cwiseAbs().sum(), comp.colwise().sum().cwiseAbs().sum());
        QVERIFY(raw.colwise().sum().cwiseAbs().sum() < 0.8 * ref);
        QVERIFY(std::abs(comp.colwise().sum().cwiseAbs().sum() / ref - 1) < 0.1);
    }

    void noiseModelsAtZeroAreExact() {
        pl::Rng r(1);
        const Eigen::MatrixXd W = Eigen::MatrixXd::Random(4, 3);
        QCOMPARE(multiplicativeNoise(W, 0, r), W);
        QCOMPARE(additiveNoise(W, 0, r), W);
        // a_i = B softmax(D / T): equal D give 1; more disagreement gets more weight.
        const std::vector<double> eq = affinityWeights({0.5, 0.5, 0.5}, 0.5, 0.2, 5, true);
        for (double v : eq)
            QCOMPARE(v, 1.0);
        const std::vector<double> a = affinityWeights({0.0, 0.75}, 0.5, 0.2, 5, true);
        QVERIFY(a[1] > a[0]);
        const std::vector<double> b = affinityWeights({0.0, 0.75}, 0.5, 0.2, 5, false);
        QVERIFY(b[1] < b[0]);
    }

    void sigmaZeroEqualsCleanAccuracy() {
        DwpEngine e;
        pl::RunContext ctx(4);
        const pl::ResultDocument d = e.run({}, smallParams(e), ctx);
        for (const char* m : {"standard", "noise_injection", "r_average", "dwp"}) {
            const auto& s = d.series.at(keys::series::kAccVsSigmaPrefix + std::string(m));
            QCOMPARE(s.x.size(), size_t(15));
            QCOMPARE(s.x[0], 0.0);
            QCOMPARE(s.y[0], d.metrics.at(keys::metric::kAccCleanPrefix + std::string(m)));
            QCOMPARE(d.series.at(keys::series::kAccSdVsSigmaPrefix + std::string(m)).y[0], 0.0);
            QCOMPARE(d.series.at(keys::series::kAccVsTimePrefix + std::string(m)).x.back(), 31536000.0);
        }
        QCOMPARE(d.claims.size(), size_t(4));
    }

    void deterministic() {
        DwpEngine e;
        auto run = [&](uint64_t seed) {
            pl::RunContext ctx(seed);
            return e.run({}, smallParams(e), ctx);
        };
        const pl::ResultDocument a = run(7), b = run(7), c = run(8);
        QCOMPARE(a.metrics, b.metrics);
        for (const auto& [k, s] : a.series)
            QCOMPARE(s.y, b.series.at(k).y);
        QVERIFY(a.metrics != c.metrics);
    }

    void cancels() {
        DwpEngine e;
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
        // Paper defaults. Observed at seeds 1-3: DWP gains 4.1-4.5 points over standard training at
        // sigma = 0.6 (the claim's 8 points are not reached: holds = false), the compensated drift
        // range is 0.2-0.3 points, DWP is 0.8-1.3 points above noise injection, and DWP vs
        // R-averaging is within +-0.2 points (holds at seeds 2 and 3 only).
        QFETCH(uint64_t, seed);
        DwpEngine e;
        pl::RunContext ctx(seed);
        const pl::ResultDocument d = e.run({}, pl::ParamSet(e.params()), ctx);
        for (const auto& c : d.claims)
            qInfo("seed %llu %s holds=%d observed=%.4f threshold=%.3f: %s", (unsigned long long)seed,
                  c.id.c_str(), int(c.holds), c.observed, c.threshold, c.detail.c_str());
        auto claim = [&](const char* id) -> const pl::Claim& {
            for (const auto& c : d.claims)
                if (c.id == id)
                    return c;
            qFatal("claim %s missing", id);
        };
        QVERIFY(claim(keys::claim::kDriftRange).holds);
        QVERIFY(claim(keys::claim::kDwpVsInjection).holds);
        QVERIFY(claim(keys::claim::kDwpVsStandard).observed > 0.02);
        QCOMPARE(claim(keys::claim::kDwpVsStandard).holds,
                 claim(keys::claim::kDwpVsStandard).observed >= 0.08);
    }

    void labelledCsvRefusesBadRows() {
        auto line = [](const char* text) -> int64_t {
            try {
                parseLabeledCsv(text, "t.csv");
            } catch (const pl::InputError& e) {
                return e.line();
            }
            return -1;
        };
        QCOMPARE(line("x,label\n1,0\n2,1.5\n"), int64_t(3));
        QCOMPARE(line("x,label\n1,0\nnan,1\n"), int64_t(3));
        QCOMPARE(line("# c\nx,y,label\n1,2,0\n1,2\n"), int64_t(4));
        QCOMPARE(line("x,y\n1,2\n"), int64_t(1));
        QCOMPARE(line("x,label,split\n1,0,train\n1,1,dev\n"), int64_t(3));
        const LabeledTable t = parseLabeledCsv(
            "a,label,b,client_id,clean_label,split\n1,2,3,0,1,train\n4,0,6,1,0,test\n", "t.csv");
        QCOMPARE(t.data.dim(), 2);
        QCOMPARE(t.data.classes, 3);
        QCOMPARE(t.data.X(1, 1), 6.0);
        QCOMPARE(t.clientId[1], int64_t(1));
        QCOMPARE(t.cleanLabel[0], 1);
        QCOMPARE(t.isTest[1], char(1));
        QCOMPARE(t.lines[1], int64_t(3));
    }

    void idxCountMismatchNamesBothCounts() {
        auto header = [](std::initializer_list<uint32_t> words) {
            std::string s;
            for (uint32_t w : words)
                for (int k = 3; k >= 0; --k)
                    s.push_back(char((w >> (8 * k)) & 0xFF));
            return s;
        };
        const IdxArray images = parseIdx(header({0x803, 5, 2, 2}) + std::string(20, '\x10'), "img.idx");
        const IdxArray labels = parseIdx(header({0x801, 4}) + std::string(4, '\x01'), "lab.idx");
        try {
            idxPair(images, "img.idx", labels, "lab.idx");
            QFAIL("no error");
        } catch (const pl::InputError& e) {
            const QString m = QString::fromStdString(e.what());
            QVERIFY2(m.contains("5 images") && m.contains("4 labels") && m.contains("lab.idx"),
                     qPrintable(m));
        }
        QVERIFY_THROWS_EXCEPTION(pl::InputError,
                                 parseIdx(header({0x803, 5, 2, 2}) + std::string(19, 'a'), "x"));
        QVERIFY_THROWS_EXCEPTION(pl::InputError, parseIdx(header({0x0D01, 3}) + "abc", "x"));
        const IdxArray ok = parseIdx(header({0x801, 5}) + std::string(5, '\x02'), "lab5.idx");
        const Dataset d = idxPair(images, "img.idx", ok, "lab5.idx");
        QCOMPARE(d.dim(), 4);
        QCOMPARE(d.classes, 3);
        QVERIFY(std::abs(d.X(0, 0) - 16.0 / 255.0) < 1e-15);
    }
};

QTEST_GUILESS_MAIN(TestRobustTrain)
#include "tst_robusttrain.moc"
