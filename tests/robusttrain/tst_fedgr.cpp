// The FedGR half of the robusttrain engine (fedgr-noisy-labels): label-noise injection rates and
// kinds, the Dirichlet split, the sieve's precision / recall and noise-estimate definitions, the
// histogram and exact-loss sieves, Pearson against numpy, the user CSV columns (client_id,
// clean_label, split), the result keys, determinism, cancellation and the claims over three seeds.
#include "common/PythonOracle.h"
#include "core/Errors.h"
#include "core/Rng.h"
#include "robusttrain/FedGrEngine.h"
#include "robusttrain/FedGrKeys.h"
#include "robusttrain/FedMethods.h"
#include "robusttrain/FedSieve.h"
#include "robusttrain/FederatedData.h"

#include <QtTest>

#include <cmath>
#include <map>
#include <numeric>

using namespace pl::robusttrain;
namespace keys = pl::robusttrain::fedgr::keys;

namespace {

pl::ParamSet smallParams(const FedGrEngine& e) {
    pl::ParamSet p(e.params());
    p.setText(keys::param::kClients, "4");
    p.setText(keys::param::kSamplesPerClient, "60");
    p.setText(keys::param::kTestSamples, "200");
    p.setText(keys::param::kWidth, "16");
    p.setText(keys::param::kRounds, "4");
    p.setText(keys::param::kWarmupRounds, "2");
    p.setText(keys::param::kLocalEpochs, "1");
    return p;
}

GatheredInputs csvInputs(const std::string& text) {
    auto in = std::make_shared<LabeledCsvInput>();
    in->table = parseLabeledCsv(text, "t.csv");
    in->path = "t.csv";
    return gatherInputs({in});
}

double tvToUniform(const Eigen::RowVectorXd& counts) {
    const double n = counts.sum();
    return n > 0 ? 0.5 * (counts.array() / n - 1.0 / double(counts.size())).abs().sum() : 0.0;
}

} // namespace

class TestFedGr : public QObject {
    Q_OBJECT
private slots:
    void symmetricNoiseRateAndTargets() {
        const int n = 20000, K = 5;
        std::vector<int> clean(static_cast<size_t>(n)), client(static_cast<size_t>(n));
        for (int i = 0; i < n; ++i) {
            clean[size_t(i)] = i % K;
            client[size_t(i)] = i % 2;
        }
        const InjectedNoise z =
            injectLabelNoise(clean, client, 2, K, LabelNoise::Symmetric, 0.3, 0.3, pl::Rng(4));
        QCOMPARE(z.rate[0], 0.3);
        std::vector<double> flips(2, 0.0);
        Eigen::MatrixXd to = Eigen::MatrixXd::Zero(K, K);
        for (int i = 0; i < n; ++i)
            if (z.observed[size_t(i)] != clean[size_t(i)]) {
                flips[size_t(client[size_t(i)])] += 1;
                to(clean[size_t(i)], z.observed[size_t(i)]) += 1;
            }
        const double sd = std::sqrt(0.3 * 0.7 / (n / 2));
        for (double f : flips) {
            qInfo("symmetric flip rate %.4f (0.3 +- %.4f)", f / (n / 2), sd);
            QVERIFY(std::abs(f / (n / 2) - 0.3) < 4 * sd);
        }
        // Flipped labels are spread uniformly over the other K - 1 classes (never the clean one).
        for (int c = 0; c < K; ++c) {
            QCOMPARE(to(c, c), 0.0);
            const double m = to.row(c).sum() / (K - 1);
            for (int o = 0; o < K; ++o)
                if (o != c)
                    QVERIFY2(std::abs(to(c, o) - m) < 5 * std::sqrt(m),
                             qPrintable(QString::number(to(c, o))));
        }
    }

    void pairFlipAndMixed() {
        const int n = 8000, K = 4, C = 40;
        std::vector<int> clean(static_cast<size_t>(n)), client(static_cast<size_t>(n));
        for (int i = 0; i < n; ++i) {
            clean[size_t(i)] = (i / 7) % K;
            client[size_t(i)] = i % C;
        }
        const InjectedNoise p =
            injectLabelNoise(clean, client, C, K, LabelNoise::PairFlip, 0.1, 0.5, pl::Rng(2));
        int flipped = 0;
        for (int i = 0; i < n; ++i)
            if (p.observed[size_t(i)] != clean[size_t(i)]) {
                ++flipped;
                QCOMPARE(p.observed[size_t(i)], (clean[size_t(i)] + 1) % K);
            }
        QVERIFY(flipped > 0);
        for (double r : p.rate)
            QVERIFY(r >= 0.1 && r < 0.5);
        // Mixed: each client is one kind, both kinds occur; a symmetric client also hits y + 2, y + 3.
        const InjectedNoise m =
            injectLabelNoise(clean, client, C, K, LabelNoise::Mixed, 0.4, 0.4, pl::Rng(3));
        const int pairs = std::accumulate(m.pairFlip.begin(), m.pairFlip.end(), 0);
        qInfo("mixed: %d of %d clients pair-flip", pairs, C);
        QVERIFY(pairs > 5 && pairs < C - 5);
        std::vector<int> far(size_t(C), 0);
        for (int i = 0; i < n; ++i) {
            const int d = (m.observed[size_t(i)] - clean[size_t(i)] + K) % K;
            if (d >= 2)
                ++far[size_t(client[size_t(i)])];
        }
        for (int k = 0; k < C; ++k)
            QVERIFY2(m.pairFlip[size_t(k)] ? far[size_t(k)] == 0 : far[size_t(k)] > 0,
                     qPrintable(QString::number(k)));
        // Zero rate injects nothing.
        QCOMPARE(injectLabelNoise(clean, client, C, K, LabelNoise::Symmetric, 0, 0, pl::Rng(1)).observed,
                 clean);
    }

    void dirichletSplitConservesAndConcentrates() {
        const int n = 6000, K = 10, C = 10;
        std::vector<int> y(static_cast<size_t>(n));
        for (int i = 0; i < n; ++i)
            y[size_t(i)] = i % K;
        bool assigned = true, conserved = true, minimum = true;
        auto heterogeneity = [&](double alpha) {
            const std::vector<int> c = dirichletSplit(y, K, C, alpha, pl::Rng(8));
            Eigen::MatrixXd counts = Eigen::MatrixXd::Zero(C, K);
            for (int i = 0; i < n; ++i) {
                assigned = assigned && c[size_t(i)] >= 0 && c[size_t(i)] < C;
                counts(c[size_t(i)], y[size_t(i)]) += 1;
            }
            // Every row assigned once: the class totals are kept.
            for (int k = 0; k < K; ++k)
                conserved = conserved && counts.col(k).sum() == double(n / K);
            for (int k = 0; k < C; ++k)
                minimum = minimum && counts.row(k).sum() >= 2;
            double tv = 0;
            for (int k = 0; k < C; ++k)
                tv += tvToUniform(counts.row(k)) / C;
            return tv;
        };
        const double iid = heterogeneity(100), mid = heterogeneity(0.5), skew = heterogeneity(0.05);
        qInfo("mean TV distance of client class mix to uniform: alpha 100 %.3f, 0.5 %.3f, 0.05 %.3f", iid,
              mid, skew);
        QVERIFY(assigned && conserved && minimum);
        QVERIFY(iid < 0.1);
        QVERIFY(mid > 0.3 && mid < skew);
        QVERIFY(skew > 0.6);
    }

    void sievePrecisionRecallDefinitions() {
        // Two clients; rows 0-3 client 0, rows 4-6 client 1. Clean = observed except rows 1, 5.
        Federation f;
        f.train.X = Eigen::MatrixXd::Zero(7, 1);
        f.train.y = {0, 1, 0, 1, 0, 1, 0};
        f.train.classes = 2;
        f.clean = {0, 0, 0, 1, 0, 0, 0};
        f.client = {0, 0, 0, 0, 1, 1, 1};
        f.members = membersOf(f.client, 2);
        SieveOutcome s;
        s.kept = {1, 1, 0, 1, 0, 0, 1};
        std::vector<double> p, r;
        sieveQuality(s, f, p, r);
        // client 0: kept {0, 1, 3}, clean {0, 2, 3}: precision 2/3, recall 2/3.
        QCOMPARE(p[0], 2.0 / 3.0);
        QCOMPARE(r[0], 2.0 / 3.0);
        // client 1: kept {6}, clean {4, 6}: precision 1, recall 1/2.
        QCOMPARE(p[1], 1.0);
        QCOMPARE(r[1], 0.5);
        s.kept = {0, 0, 0, 0, 0, 0, 0};
        sieveQuality(s, f, p, r);
        QVERIFY(std::isnan(p[0]));
        QCOMPARE(r[1], 0.0);
        QCOMPARE(pearson({1, 2, 3, 4}, {2, 4, 6, 8}), 1.0);
        QVERIFY(std::abs(pearson({1, 2, 3}, {3, 2, 1}) + 1) < 1e-15);
        QVERIFY(std::isnan(pearson({1, 1, 1}, {1, 2, 3})));
    }

    void pearsonMatchesNumpy() {
        if (!pl::test::havePython("numpy"))
            QSKIP("/usr/bin/python3 with numpy not available");
        const std::vector<double> a = {0.1, 0.5, 0.2, 0.9, 0.33}, b = {0.2, 0.4, 0.25, 0.7, 0.1};
        const QStringList out =
            pl::test::pythonLines("import numpy as np\nprint('%.17g' % "
                                  "np.corrcoef([0.1,0.5,0.2,0.9,0.33],[0.2,0.4,0.25,0.7,0.1])[0,1])\n",
                                  {});
        QCOMPARE(out.size(), 1);
        QVERIFY(std::abs(pearson(a, b) - out[0].toDouble()) < 1e-14);
    }

    void globalSieveEstimatesAreMeansOfPosteriors() {
        // A federation with noise, a briefly trained global model; both statistics modes.
        FederationConfig c;
        c.clients = 5;
        c.samplesPerClient = 120;
        c.dim = 8;
        c.classes = 4;
        const pl::Rng root(6);
        const Federation f = buildFederation(GatheredInputs{}, c, root);
        pl::Rng ir(1);
        Mlp g = makeMlp({8, 16, 4}, Activation::Relu, ir);
        LocalConfig lc;
        lc.epochs = 3;
        for (int r = 0; r < 3; ++r)
            g = federatedRound(g, f, {f.train.y, std::vector<double>(f.train.y.size(), 1.0)}, lc, nullptr,
                               root.fork("r" + std::to_string(r)), {});
        for (bool hist : {true, false}) {
            SieveConfig sc;
            sc.histogram = hist;
            sc.bins = 40;
            const SieveOutcome s = globalSieve(g, f, sc);
            QVERIFY(s.fitted);
            QVERIFY(s.gmm.mean[0] < s.gmm.mean[1]);
            QCOMPARE(s.loss.size(), f.train.y.size());
            for (int k = 0; k < f.clients(); ++k) {
                double m = 0;
                for (int i : f.members[size_t(k)])
                    m += 1 - s.pClean[size_t(i)];
                QVERIFY(std::abs(m / double(f.members[size_t(k)].size()) - s.noiseEstimate[size_t(k)]) <
                        1e-12);
            }
            int relabelled = 0, dropped = 0;
            for (size_t i = 0; i < s.kept.size(); ++i) {
                QCOMPARE(bool(s.kept[i]), s.pClean[i] > 0.5);
                if (s.kept[i])
                    QCOMPARE(s.targets.y[i], f.train.y[i]);
                else if (s.targets.weight[i] == 0)
                    ++dropped;
                else
                    ++relabelled;
                if (hist) { // the GMM input is a bin centre
                    const double v = s.loss[i] / (s.maxLoss / 40) - 0.5;
                    QVERIFY(std::abs(v - std::round(v)) < 1e-9);
                }
            }
            QCOMPARE(relabelled, s.relabelled);
            QCOMPARE(dropped, s.dropped);
        }
    }

    void csvColumnsAreHonoured() {
        // client_id 7 and 3, clean_label given (no injection), split marks the test rows.
        std::string text = "a,b,label,client_id,clean_label,split\n";
        for (int i = 0; i < 40; ++i) {
            const int y = i % 2;
            text += std::to_string(y * 3 + 0.01 * i) + "," + std::to_string(0.5 * i) + "," +
                    std::to_string(i % 5 == 0 ? 1 - y : y) + "," + (i % 3 ? "7" : "3") + "," +
                    std::to_string(y) + "," + (i >= 30 ? "test" : "train") + "\n";
        }
        const GatheredInputs g = csvInputs(text);
        const Federation f = buildFederation(g, FederationConfig{}, pl::Rng(1));
        QCOMPARE(f.clientIds, (std::vector<int64_t>{3, 7}));
        QCOMPARE(f.train.rows(), 30);
        QCOMPARE(f.test.rows(), 10);
        QVERIFY(f.injectedRate.empty());
        for (int i = 0; i < 30; ++i) {
            QCOMPARE(f.train.y[size_t(i)], i % 5 == 0 ? 1 - i % 2 : i % 2);
            QCOMPARE(f.clean[size_t(i)], i % 2);
            QCOMPARE(f.client[size_t(i)], i % 3 ? 1 : 0);
        }
        for (int i = 0; i < 10; ++i)
            QCOMPARE(f.test.y[size_t(i)], (30 + i) % 2); // scored against clean_label
        // Without the optional columns: 20 % held out, a Dirichlet split, noise injected.
        std::string plain = "x,label\n";
        for (int i = 0; i < 50; ++i)
            plain += std::to_string(i) + "," + std::to_string(i % 2) + "\n";
        FederationConfig c;
        c.clients = 3;
        c.noiseMin = c.noiseMax = 0.5;
        const Federation h = buildFederation(csvInputs(plain), c, pl::Rng(2));
        QCOMPARE(h.test.rows(), 10);
        QCOMPARE(h.clients(), 3);
        QCOMPARE(h.injectedRate.size(), size_t(3));
        QVERIFY(h.train.y != h.clean);
    }

    void localTermsPullTowardsTheirTargets() {
        // With every CE weight 0 only the distillation / representation / proximal terms act.
        pl::Rng dr(3);
        const Dataset data = makeBlobs(3, 4, 2.0, 64, dr.fork("layout"), dr.fork("rows"));
        const LocalTargets none{data.y, std::vector<double>(data.y.size(), 0.0)};
        pl::Rng ir(4);
        const Mlp global = makeMlp({4, 8, 3}, Activation::Relu, ir);
        auto distance = [](const Mlp& a, const Mlp& b) {
            double s = 0;
            for (size_t l = 0; l < a.W.size(); ++l)
                s +=
                    (a.W[l].value - b.W[l].value).squaredNorm() + (a.b[l].value - b.b[l].value).squaredNorm();
            return std::sqrt(s);
        };
        // Distillation alone pulls a different student towards the teacher's predictions.
        pl::Rng jr(9);
        Mlp student = makeMlp({4, 8, 3}, Activation::Relu, jr);
        const auto kl = [&](const Mlp& s) {
            const Eigen::MatrixXd a = forward(global, data.X), b = forward(s, data.X);
            double sum = 0;
            for (Eigen::Index i = 0; i < a.rows(); ++i) {
                const Eigen::RowVectorXd p = (a.row(i).array() - a.row(i).maxCoeff()).exp().matrix();
                const Eigen::RowVectorXd q = (b.row(i).array() - b.row(i).maxCoeff()).exp().matrix();
                sum += ((p / p.sum()).array() * ((p / p.sum()).array().log() - (q / q.sum()).array().log()))
                           .sum();
            }
            return sum / double(a.rows());
        };
        LocalConfig kd;
        kd.epochs = 20;
        kd.kdWeight = 1;
        kd.kdTemperature = 1;
        kd.emaMomentum = 1; // the teacher stays the global model
        Mlp fixedTeacher = global;
        const double before = kl(student);
        pl::Rng r2(2);
        localTrain(student, data.X, none, kd, global, &fixedTeacher, r2, {});
        qInfo("KL(teacher || student): %.4f -> %.4f", before, kl(student));
        QVERIFY(kl(student) < 0.3 * before);
        QVERIFY(distance(fixedTeacher, global) == 0);
        // The proximal term alone pulls the weights towards w_g.
        pl::Rng kr(9);
        Mlp far = makeMlp({4, 8, 3}, Activation::Relu, kr);
        LocalConfig prox;
        prox.epochs = 20;
        prox.proxMu = 1;
        const double d0 = distance(far, global);
        pl::Rng r3(3);
        localTrain(far, data.X, none, prox, global, nullptr, r3, {});
        qInfo("||theta - w_g||: %.4f -> %.4f", d0, distance(far, global));
        QVERIFY(distance(far, global) < 0.6 * d0);
        // The representation term alone pulls the hidden features towards the global model's.
        pl::Rng fr(11);
        Mlp rep = makeMlp({4, 8, 3}, Activation::Relu, fr);
        auto featureGap = [&](const Mlp& m) {
            Eigen::MatrixXd a, b;
            forward(global, data.X, &a);
            forward(m, data.X, &b);
            return (a - b).squaredNorm() / double(a.rows());
        };
        LocalConfig rc;
        rc.epochs = 20;
        rc.repWeight = 1;
        const double f0 = featureGap(rep);
        pl::Rng r4(4);
        localTrain(rep, data.X, none, rc, global, nullptr, r4, {});
        qInfo("mean ||phi - phi_g||^2: %.4f -> %.4f", f0, featureGap(rep));
        QVERIFY(featureGap(rep) < 0.5 * f0);
    }

    void resultKeysAndShapes() {
        FedGrEngine e;
        pl::RunContext ctx(5);
        const pl::ResultDocument d = e.run({}, smallParams(e), ctx);
        for (const char* m : kFedMethods) {
            QVERIFY2(d.metrics.count(keys::metric::kTestAccPrefix + std::string(m)), m);
            const auto& s = d.series.at(keys::series::kTestAccPrefix + std::string(m));
            QCOMPARE(s.x, (std::vector<double>{1, 2, 3, 4}));
            QCOMPARE(s.y.back(), d.metrics.at(keys::metric::kTestAccPrefix + std::string(m)));
        }
        // The FedGR variants share FedAvg's warm-up rounds.
        for (const char* m : {"fedgr", "fedgr_no_ema", "local_sieve"})
            for (int r = 0; r < 2; ++r)
                QCOMPARE(d.series.at("test_acc_" + std::string(m)).y[size_t(r)],
                         d.series.at("test_acc_fedavg").y[size_t(r)]);
        QCOMPARE(d.series.at(keys::series::kMemorisationGlobal).y.size(), size_t(4));
        QCOMPARE(d.series.at(keys::series::kMemorisationCentralised).y.size(), size_t(4));
        for (const char* v : {keys::vector::kTrueNoise, keys::vector::kNoiseEstimate,
                              keys::vector::kSievePrecision, keys::vector::kSieveRecall})
            QCOMPARE(d.vectors.at(v).size(), size_t(4));
        const size_t rows = d.labels.at(keys::label::kClient).size();
        QCOMPARE(rows, size_t(240));
        QCOMPARE(d.vectors.at(keys::vector::kSieveLoss).size(), rows);
        QCOMPARE(d.vectors.at(keys::vector::kPClean).size(), rows);
        for (const char* m :
             {keys::metric::kGmmWeightClean, keys::metric::kGmmMeanClean, keys::metric::kGmmVarClean,
              keys::metric::kGmmMeanNoisy, keys::metric::kGmmVarNoisy, keys::metric::kNoiseCorr})
            QVERIFY2(d.metrics.count(m), m);
        QVERIFY(d.metrics.at(keys::metric::kGmmMeanClean) < d.metrics.at(keys::metric::kGmmMeanNoisy));
        const pl::Matrix& t = d.matrices.at(keys::matrix::kNoiseTransition);
        QCOMPARE(t.rows, int64_t(10));
        for (int64_t r = 0; r < t.rows; ++r) {
            double s = 0;
            for (int64_t c = 0; c < t.cols; ++c)
                s += t.at(r, c);
            QVERIFY(std::abs(s - 1) < 1e-12);
        }
        const pl::Matrix& cc = d.matrices.at(keys::matrix::kClientClassCounts);
        QCOMPARE(cc.rows, int64_t(4));
        QCOMPARE(std::accumulate(cc.data.begin(), cc.data.end(), 0.0), double(rows));
        QCOMPARE(d.claims.size(), size_t(4));
    }

    void deterministic() {
        FedGrEngine e;
        auto run = [&](uint64_t seed) {
            pl::RunContext ctx(seed);
            return e.run({}, smallParams(e), ctx);
        };
        const pl::ResultDocument a = run(7), b = run(7), c = run(8);
        QCOMPARE(a.metrics.size(), b.metrics.size());
        for (const auto& [k, v] : a.metrics)
            QVERIFY2(v == b.metrics.at(k) || (std::isnan(v) && std::isnan(b.metrics.at(k))), k.c_str());
        for (const auto& [k, s] : a.series)
            QCOMPARE(s.y, b.series.at(k).y);
        QCOMPARE(a.vectors.at(keys::vector::kPClean), b.vectors.at(keys::vector::kPClean));
        QVERIFY(a.vectors.at(keys::vector::kPClean) != c.vectors.at(keys::vector::kPClean));
    }

    void cancels() {
        FedGrEngine e;
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
        QFETCH(uint64_t, seed);
        FedGrEngine e;
        pl::RunContext ctx(seed);
        const pl::ResultDocument d = e.run({}, pl::ParamSet(e.params()), ctx);
        for (const char* m : kFedMethods)
            qInfo("seed %llu test_acc_%s = %.4f", (unsigned long long)seed, m,
                  d.metrics.at(keys::metric::kTestAccPrefix + std::string(m)));
        for (const auto& c : d.claims)
            qInfo("seed %llu %s holds=%d observed=%.4f threshold=%.3f: %s", (unsigned long long)seed,
                  c.id.c_str(), int(c.holds), c.observed, c.threshold, c.detail.c_str());
        auto claim = [&](const char* id) -> const pl::Claim& {
            for (const auto& c : d.claims)
                if (c.id == id)
                    return c;
            qFatal("claim %s missing", id);
        };
        // Paper defaults (width 64). Observed at seeds 1-3: centralised memorisation passes 50 % at
        // rounds 34, 20, 26 while the FedAvg global model is at 7-14 % (gap 37-45 points); FedGR
        // beats FedAvg by 6.1-9.2 points; Pearson(noise estimate, truth) 0.96, 0.94, 0.69 (holds
        // at seeds 1 and 2 only); the ablations without the EMA teacher or the representation
        // term are not lower (within -0.1..+2.9 points: holds = false at seeds 1 and 2), the one
        // without the sieve is 5.5-7.9 points lower; local-only sieving is 1-3 points above FedGR
        // on these well separated blobs.
        QVERIFY(claim(keys::claim::kMemorisationGap).holds);
        QVERIFY(claim(keys::claim::kFedGrVsFedAvg).holds);
        QCOMPARE(claim(keys::claim::kNoiseCorrelation).holds,
                 claim(keys::claim::kNoiseCorrelation).observed >= 0.8);
        QVERIFY(claim(keys::claim::kNoiseCorrelation).observed > 0.5);
        const double noSieve = d.metrics.at("test_acc_fedgr") - d.metrics.at("test_acc_fedgr_no_sieve");
        QVERIFY2(noSieve > 0.02, qPrintable(QString::number(noSieve)));
        QCOMPARE(claim(keys::claim::kAblationsLower).holds, claim(keys::claim::kAblationsLower).observed < 0);
    }
};

QTEST_GUILESS_MAIN(TestFedGr)
#include "tst_fedgr.moc"
