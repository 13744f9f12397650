// The lif-mmwave engine: LIF filter closed forms (pilot values, round trip and half power to
// 1e-12), the low-pass recurrence, Welch spectra and the Fisher band estimate against
// scipy.signal.welch + numpy on the committed example, the manifest reader's refusals, determinism,
// cancellation and the claims at three seeds.
#include "lifsnn/LifFilter.h"
#include "lifsnn/LifMmwaveEngine.h"
#include "lifsnn/LifMmwaveKeys.h"
#include "lifsnn/SeqManifestReader.h"
#include "lifsnn/Welch.h"

#include "core/Errors.h"
#include "core/NpyReader.h"

#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <chrono>
#include <cmath>
#include <fstream>
#include <thread>

using namespace pl;
using namespace pl::lifsnn;

namespace {

const std::string kExample =
    PAPERLAB_SOURCE_DIR "/resources/examples/lif-mmwave/walking-radar/walking.seq.json";

void writeFile(const QString& path, const std::string& bytes) {
    std::ofstream f(path.toStdString(), std::ios::binary);
    f << bytes;
}

ParamSet smallParams(const LifMmwaveEngine& e) {
    ParamSet p(e.params());
    p.set(keys::param::kSamples, int64_t(160));
    p.set(keys::param::kLength, int64_t(64));
    p.set(keys::param::kEpochs, int64_t(2));
    p.set(keys::param::kHidden, int64_t(8));
    p.set(keys::param::kSweepBeta, false);
    return p;
}

ResultDocument runWith(const LifMmwaveEngine& e, const ParamSet& p, uint64_t seed, const InputList& in = {}) {
    RunContext ctx(seed);
    return e.run(in, p, ctx);
}

/// The message of the InputError thrown by \a f ("" when none is thrown).
template <class F> std::string inputErrorOf(F f) {
    try {
        f();
    } catch (const InputError& e) {
        return e.what();
    }
    return {};
}

bool python3WithScipy() {
    QProcess probe;
    probe.start(QStringLiteral("/usr/bin/python3"),
                {QStringLiteral("-c"), QStringLiteral("import scipy.signal")});
    return probe.waitForFinished(30000) && probe.exitCode() == 0;
}

} // namespace

class TestLifSnn : public QObject {
    Q_OBJECT
private slots:
    void pilotValues() {
        // Spec §11.2: beta = 0.5, 0.8, 0.9, 0.95, 0.99 <-> omega_c = 0.723, 0.224, 0.105, 0.0513, 0.0101.
        const double beta[] = {0.5, 0.8, 0.9, 0.95, 0.99}, wc[] = {0.723, 0.224, 0.105, 0.0513, 0.0101};
        for (int i = 0; i < 5; ++i)
            QVERIFY2(std::abs(lifCutoffOmega(beta[i]) / wc[i] - 1) < 5e-3,
                     qPrintable(QString::number(beta[i])));
        QVERIFY(std::isnan(lifCutoffOmega(0.17)));
        QVERIFY(std::isfinite(lifCutoffOmega(0.172)));
    }
    void roundTripAndHalfPower() {
        double worst = 0, textbook = 0;
        for (int k = 0; k <= 2000; ++k) {
            const double b = 0.1716 + (0.9995 - 0.1716) * k / 2000.0;
            const double w = lifCutoffOmega(b);
            if (!std::isfinite(w))
                continue;
            worst = std::max({worst, std::abs(lifBetaStar(w) - b), std::abs(lifRelativeGain(b, w) - 0.5)});
            // The textbook expressions agree (less precisely near beta = 1, where they cancel).
            const double c = (-1 + 4 * b - b * b) / (2 * b), a = 2 - std::cos(w);
            textbook = std::max({textbook, std::abs(std::cos(w) - c), std::abs(a - std::sqrt(a * a - 1) - b),
                                 std::abs(lifPowerGain(b, w) * (1 - 2 * b * std::cos(w) + b * b) - 1)});
        }
        QVERIFY2(worst <= 1e-12, qPrintable(QString::number(worst)));
        QVERIFY2(textbook <= 1e-9, qPrintable(QString::number(textbook)));
        QCOMPARE(lifRelativeGain(0.7, 0.0), 1.0);
    }
    void lowPassImpulseResponse() {
        std::vector<double> x(40, 0.0);
        x[0] = 1;
        lifLowPass(x.data(), 20, 2, 0.8); // every other value: stride 2
        for (int t = 0; t < 20; ++t)
            QVERIFY(std::abs(x[size_t(2 * t)] - 0.2 * std::pow(0.8, t)) < 1e-15);
        QCOMPARE(x[1], 0.0);
    }
    void welchAndFisherMatchScipy() {
        if (!python3WithScipy())
            QSKIP("python3 with scipy not available");
        const SeqData d = readSeqManifest(kExample);
        QCOMPARE(d.n, 120);
        QVERIFY(d.droppedFrames > 0);
        const std::string dir = PAPERLAB_SOURCE_DIR "/resources/examples/lif-mmwave/walking-radar/";
        for (int nperseg : {32, 25, 64}) {
            QTemporaryDir tmp;
            QProcess py;
            py.start(QStringLiteral("/usr/bin/python3"),
                     {QStringLiteral(PAPERLAB_SOURCE_DIR "/tests/lifsnn/welch_oracle.py"),
                      QString::fromStdString(dir + "x.npy"), QString::fromStdString(dir + "y.npy"),
                      QStringLiteral("90"), QString::number(nperseg), QStringLiteral("0.9"),
                      tmp.filePath("o.npy")});
            QVERIFY(py.waitForFinished(120000));
            QVERIFY2(py.exitCode() == 0, py.readAllStandardError().constData());
            const NpyArray o = NpyReader::readFile(tmp.filePath("o.npy").toStdString());
            const int f = int(o.cols()), c = d.channels;
            const BandEstimate b = estimateBand(d, 90, nperseg, 0.9);
            QCOMPARE(int(b.freq.size()), f);
            auto ref = [&](int row, int j) { return o.data[size_t(row * f + j)]; };
            auto close = [](double a, double r) {
                return std::abs(a - r) <= 1e-10 * std::max(1.0, std::abs(r));
            };
            for (int j = 0; j < f; ++j) {
                QVERIFY(close(b.freq(j), ref(0, j)));
                QVERIFY2(close(b.fisher(j), ref(1, j)),
                         qPrintable(QString("fisher %1: %2 vs %3").arg(j).arg(b.fisher(j)).arg(ref(1, j))));
                QVERIFY2(std::abs(b.energy(j) - ref(2, j)) <= 1e-10 * (1 + b.energy.cwiseAbs().maxCoeff()),
                         qPrintable(QString::number(j)));
                for (int ch = 0; ch < c; ++ch) {
                    QVERIFY(close(b.ratio(ch, j), ref(3 + ch, j)));
                    const Eigen::VectorXd p = welchPsd(d.sequence(0) + ch, d.steps, c, nperseg);
                    QVERIFY2(close(p(j), ref(3 + c + ch, j)),
                             qPrintable(QString("psd ch %1 bin %2").arg(ch).arg(j)));
                }
            }
            QVERIFY(std::abs(b.omegaD - ref(3 + 2 * c, 0)) < 1e-12);
        }
    }
    void manifestRefusals() {
        QTemporaryDir tmp;
        auto path = [&](const char* f) { return tmp.filePath(QString::fromLatin1(f)); };
        std::vector<double> x3(size_t(4 * 32 * 2), 0.5), labels{0, 1, 0, 1};
        writeFile(path("x.npy"), writeNpy({4, 32, 2}, x3));
        writeFile(path("y.npy"), writeNpy({4}, labels));
        writeFile(path("one.npy"), writeNpy({4}, {1, 1, 1, 1}));
        writeFile(path("frac.npy"), writeNpy({4}, {0, 1, 0.5, 1}));
        writeFile(path("y3.npy"), writeNpy({3}, {0, 1, 0}));
        writeFile(path("short.npy"), writeNpy({4, 8, 2}, std::vector<double>(64, 0.0)));
        std::vector<double> inf = x3;
        inf[77] = INFINITY;
        writeFile(path("inf.npy"), writeNpy({4, 32, 2}, inf));
        writeFile(path("s0.npy"), writeNpy({32, 2}, std::vector<double>(64, 0.0)));
        writeFile(path("s1.npy"), writeNpy({30, 2}, std::vector<double>(60, 0.0)));
        struct Case {
            const char* manifest;
            const char* text;
            const char* named; // the file the message must name
            const char* reason;
        };
        const Case cases[] = {
            {"junk.seq.json", "{\"x\": \"x.npy\",", "junk.seq.json", "not valid JSON"},
            {"array.seq.json", "[1, 2]", "array.seq.json", "JSON object"},
            {"nofs.seq.json", "{\"x\": \"x.npy\", \"y\": \"y.npy\"}", "nofs.seq.json", "missing \"fs\""},
            {"fs.seq.json", "{\"x\": \"x.npy\", \"y\": \"y.npy\", \"fs\": -2}", "fs.seq.json", "positive"},
            {"missing.seq.json", "{\"x\": \"none.npy\", \"y\": \"y.npy\", \"fs\": 1}", "none.npy",
             "missing.seq.json"},
            {"oneclass.seq.json", "{\"x\": \"x.npy\", \"y\": \"one.npy\", \"fs\": 1}", "one.npy",
             "single class"},
            {"frac.seq.json", "{\"x\": \"x.npy\", \"y\": \"frac.npy\", \"fs\": 1}", "frac.npy",
             "not an integer"},
            {"count.seq.json", "{\"x\": \"x.npy\", \"y\": \"y3.npy\", \"fs\": 1}", "y3.npy",
             "one label per sequence"},
            {"short.seq.json", "{\"x\": \"short.npy\", \"y\": \"y.npy\", \"fs\": 1}", "short.npy",
             "at least 16 frames"},
            {"inf.seq.json", "{\"x\": \"inf.npy\", \"y\": \"y.npy\", \"fs\": 1}", "inf.npy",
             "sequence 1, frame 6, channel 1"},
            {"ragged.seq.json", "{\"x\": [\"s0.npy\", \"s1.npy\"], \"y\": \"y.npy\", \"fs\": 1}", "s1.npy",
             "ragged"},
        };
        for (const Case& c : cases) {
            writeFile(path(c.manifest), c.text);
            const std::string msg = inputErrorOf([&] { readSeqManifest(path(c.manifest).toStdString()); });
            QVERIFY2(msg.find(c.named) != std::string::npos && msg.find(c.reason) != std::string::npos,
                     qPrintable(QString::fromLatin1(c.manifest) + ": " + QString::fromStdString(msg)));
        }
        // NaN frames are held and counted.
        std::vector<double> nan = x3;
        nan[2 * 32 * 2 + 5 * 2 + 1] = NAN;
        nan[0] = NAN;
        writeFile(path("nan.npy"), writeNpy({4, 32, 2}, nan));
        writeFile(path("nan.seq.json"), "{\"x\": \"nan.npy\", \"y\": \"y.npy\", \"fs\": 10}");
        const SeqData d = readSeqManifest(path("nan.seq.json").toStdString());
        QCOMPARE(d.droppedFrames, int64_t(2));
        QCOMPARE(d.at(0, 0, 0), 0.0);
        QCOMPARE(d.at(2, 5, 1), 0.5);
        QCOMPARE(d.fs, 10.0);
        // A training split with one class is refused at run time (InputError, exit 3).
        writeFile(path("y2.npy"), writeNpy({4}, {0, 0, 1, 1}));
        writeFile(path("split.seq.json"), "{\"x\": \"x.npy\", \"y\": \"y2.npy\", \"fs\": 1}");
        LifMmwaveEngine e;
        const InputList in{e.load(path("split.seq.json").toStdString())};
        ParamSet p = smallParams(e);
        p.set(keys::param::kTestFraction, 0.5);
        QVERIFY(inputErrorOf([&] { runWith(e, p, 1, in); }).find("single class") != std::string::npos);
    }
    void deterministic() {
        LifMmwaveEngine e;
        const ParamSet p = smallParams(e);
        const ResultDocument a = runWith(e, p, 5), b = runWith(e, p, 5), c = runWith(e, p, 6);
        QCOMPARE(a.toJson(), b.toJson());
        QVERIFY(a.toJson() != c.toJson());
        for (const char* k : {"omega_d", "beta_star", "cutoff_omega", "beta_used", "acc_snn", "acc_ann_mlp",
                              "acc_ann_cnn", "acc_ann_lowpass", "energy_ratio"})
            QVERIFY2(a.metrics.count(k) && std::isfinite(a.metrics.at(k)), k);
        QCOMPARE(a.series.at("lif_response").x.size(), size_t(256));
        QCOMPARE(a.series.at("lif_response").y.front(), 1.0);
        QCOMPARE(a.vectors.at("welch_freq").size(), a.vectors.at("fisher_ratio").size());
        QVERIFY(std::abs(a.metrics.at("cutoff_omega") - lifCutoffOmega(a.metrics.at("beta_star"))) == 0);
    }
    void learnableBetaMoves() {
        LifMmwaveEngine e;
        ParamSet p = smallParams(e);
        p.set(keys::param::kBetaMode, std::string("learnable"));
        p.set(keys::param::kEpochs, int64_t(4));
        const ResultDocument d = runWith(e, p, 3);
        QVERIFY(d.metrics.at("beta_used") != std::clamp(d.metrics.at("beta_star"), 0.5, 0.99));
        QVERIFY(d.metrics.at("beta_used") > 0 && d.metrics.at("beta_used") < 1);
    }
    void cancels() {
        LifMmwaveEngine e;
        ParamSet p(e.params());
        RunContext ctx(1);
        std::thread stopper([&] {
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
            ctx.requestStop();
        });
        const auto t0 = std::chrono::steady_clock::now();
        bool cancelled = false;
        try {
            e.run({}, p, ctx);
        } catch (const Cancelled&) {
            cancelled = true;
        }
        const double ms =
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
        stopper.join();
        QVERIFY(cancelled);
        QVERIFY2(ms < 100 + 500, qPrintable(QString::number(ms)));
    }
    void claimsAtThreeSeeds() {
        // Paper defaults (= engine defaults). c1, c2 and c3 held at seeds 1-3 when this test was
        // written; c4 (report) does not (our single small hidden layer: ratio about 1, see help.md).
        LifMmwaveEngine e;
        const ParamSet p(e.params());
        for (uint64_t seed : {1, 2, 3}) {
            const ResultDocument d = runWith(e, p, seed);
            for (const Claim& c : d.claims) {
                qInfo("seed %d %s holds=%d observed=%g (%s)", int(seed), c.id.c_str(), int(c.holds),
                      c.observed, c.detail.c_str());
                if (c.id != keys::claim::kC4EnergyRatio)
                    QVERIFY2(c.holds,
                             qPrintable(QString::fromStdString(c.id) + " at seed " + QString::number(seed)));
                else
                    QVERIFY(std::isfinite(c.observed) && c.observed > 0);
            }
            QCOMPARE(d.claims.size(), size_t(4));
        }
    }
};

QTEST_GUILESS_MAIN(TestLifSnn)
#include "tst_lifsnn.moc"
