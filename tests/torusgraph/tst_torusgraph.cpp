// Tests of the torus-graph engine: S(x), D(x) and H(x) against finite differences, the fast
// quadratic form against S(x), node-blocked Γ/H against the dense per-sample sum, the closed form
// against a numpy reference on stored data, Gibbs moments against numerical integration, SSM
// gradient and convergence, Wald tests, HMM, AR-TG, band-pass phases, determinism, the claims at a
// fixed seed, bad inputs.
#include "core/Errors.h"
#include "core/NpyReader.h"
#include "core/Rng.h"
#include "torusgraph/ArTorus.h"
#include "torusgraph/PhaseSignal.h"
#include "torusgraph/ScoreMatching.h"
#include "torusgraph/TorusGraphEngine.h"
#include "torusgraph/TorusHmm.h"
#include "torusgraph/TorusSampler.h"

#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <fstream>
#include <numbers>

using namespace pl::torusgraph;

namespace {

constexpr double kTau = 2 * std::numbers::pi;

RowMat randomPhases(pl::Rng& rng, int64_t n, int d) {
    RowMat x(n, d);
    for (Eigen::Index i = 0; i < x.size(); ++i)
        x.data()[i] = rng.uniform(0, kTau);
    return x;
}

Vec randomEta(pl::Rng& rng, int d, double scale) {
    Vec e(TorusLayout(d).dim());
    for (Eigen::Index i = 0; i < e.size(); ++i)
        e(i) = scale * rng.normal();
    return e;
}

RowMat loadNpy(const QString& path) {
    const pl::NpyArray a = pl::NpyReader::readFile(path.toStdString());
    RowMat m(a.shape[0], a.cols());
    for (Eigen::Index i = 0; i < m.size(); ++i)
        m.data()[i] = a.data[size_t(i)];
    return m;
}

pl::ResultDocument runEngine(pl::ParamSet ps, uint64_t seed, const pl::InputList& in = {}) {
    TorusGraphEngine e;
    pl::RunContext ctx(seed);
    return pl::runEngine(e, in, ps, ctx);
}

pl::ParamSet quickParams() {
    TorusGraphEngine e;
    pl::ParamSet ps(e.params());
    ps.set("scaling", std::string("off"));
    return ps;
}

const pl::Claim* claim(const pl::ResultDocument& d, const std::string& id) {
    for (const auto& c : d.claims)
        if (c.id == id)
            return &c;
    return nullptr;
}

} // namespace

class TestTorusGraph : public QObject {
    Q_OBJECT
private slots:
    void layoutIndices() {
        const TorusLayout L(6);
        QCOMPARE(L.dim(), int64_t(72));
        int p = 0;
        for (int j = 0; j < 6; ++j)
            for (int k = j + 1; k < 6; ++k) {
                QCOMPARE(L.pairIndex(j, k), p);
                int a = 0, b = 0;
                L.pairNodes(p, &a, &b);
                QCOMPARE(a, j);
                QCOMPARE(b, k);
                ++p;
            }
        QCOMPARE(p, L.pairs());
    }

    void jacobianAndLaplacianMatchFiniteDifferences() {
        pl::Rng rng(3);
        for (int d : {2, 3, 5}) {
            const Vec x = randomPhases(rng, 1, d).row(0).transpose();
            const Mat D = statsJacobian(x);
            const Vec H = statsLaplacianNeg(x);
            const double h = 1e-5;
            Vec lap = Vec::Zero(TorusLayout(d).dim());
            for (int j = 0; j < d; ++j) {
                Vec xp = x, xm = x;
                xp(j) += h;
                xm(j) -= h;
                const Vec sp = sufficientStats(xp), sm = sufficientStats(xm), s0 = sufficientStats(x);
                const Vec fd = (sp - sm) / (2 * h);
                QVERIFY2((fd - D.col(j)).cwiseAbs().maxCoeff() < 1e-8, "D vs central differences");
                lap += (sp - 2 * s0 + sm) / (h * h);
            }
            QVERIFY2((H + lap).cwiseAbs().maxCoeff() < 1e-4, "H = −Σ ∂²S vs second differences");
        }
    }

    void quadraticFormMatchesStatistics() {
        pl::Rng rng(5);
        const int d = 5;
        const Vec eta = randomEta(rng, d, 0.7);
        Vec ell;
        Mat W;
        toQuadratic(eta, d, &ell, &W);
        QVERIFY((W - W.transpose()).cwiseAbs().maxCoeff() == 0);
        const RowMat x = randomPhases(rng, 20, d);
        const TrigTables t = TrigTables::of(x);
        const Mat g = energyGradient(t.C, t.S, ell, W);
        for (int i = 0; i < 20; ++i) {
            const Vec xi = x.row(i).transpose();
            Vec z(2 * d);
            z << xi.array().cos().matrix(), xi.array().sin().matrix();
            QVERIFY(std::abs(eta.dot(sufficientStats(xi)) - (ell.dot(z) + 0.5 * z.dot(W * z))) < 1e-12);
            const Vec gd = statsJacobian(xi).transpose() * eta;
            QVERIFY((gd - g.row(i).transpose()).cwiseAbs().maxCoeff() < 1e-12);
        }
        // fromQuadraticGradient is the adjoint of toQuadratic: <dW, W(η)> + <dℓ, ℓ(η)> = <grad, η>.
        const Vec dEll = Vec::Random(2 * d);
        const Mat dW = Mat::Random(2 * d, 2 * d);
        const Vec gr = fromQuadraticGradient(dEll, dW, d);
        QVERIFY(std::abs(gr.dot(eta) - (dEll.dot(ell) + (dW.array() * W.array()).sum())) < 1e-10);
    }

    void blockedGammaEqualsDense() {
        pl::Rng rng(7);
        const int d = 5;
        const RowMat x = randomPhases(rng, 300, d);
        const TrigTables t = TrigTables::of(x);
        const GammaH a = accumulateGammaH(t), b = accumulateGammaHDense(x);
        QVERIFY((a.gamma - b.gamma).cwiseAbs().maxCoeff() < 1e-9);
        QVERIFY((a.h - b.h).cwiseAbs().maxCoeff() < 1e-9);
        // Weighted sums: weights w_i against duplicating rows.
        Vec w(300);
        for (int i = 0; i < 300; ++i)
            w(i) = double(i % 3);
        RowMat dup(0, d);
        for (int i = 0; i < 300; ++i)
            for (int r = 0; r < i % 3; ++r) {
                dup.conservativeResize(dup.rows() + 1, d);
                dup.row(dup.rows() - 1) = x.row(i);
            }
        const GammaH c = accumulateGammaH(t, w), e = accumulateGammaHDense(dup);
        QVERIFY((c.gamma - e.gamma).cwiseAbs().maxCoeff() < 1e-9);
        QVERIFY((c.h - e.h).cwiseAbs().maxCoeff() < 1e-9);
        QCOMPARE(c.weight, e.weight);
    }

    void ssmGradientIsClosedFormGradient() {
        pl::Rng rng(9);
        const int d = 4;
        const RowMat x = randomPhases(rng, 50, d);
        const TrigTables t = TrigTables::of(x);
        const GammaH gh = accumulateGammaH(t);
        const Vec eta = randomEta(rng, d, 0.5);
        std::vector<int64_t> rows(50);
        for (int i = 0; i < 50; ++i)
            rows[size_t(i)] = i;
        double loss = 0;
        const Vec g = ssmGradient(t, rows, eta, 0.3, &loss);
        const Vec ref = gh.gamma * eta / 50.0 - gh.h / 50.0 + 0.3 * eta;
        QVERIFY((g - ref).cwiseAbs().maxCoeff() < 1e-10);
        QVERIFY(std::abs(loss - scoreMatchingLoss(gh, eta, 0.3)) < 1e-10);
    }

    void closedFormMatchesNumpyReference() {
        const QString dir = QStringLiteral(PAPERLAB_SOURCE_DIR "/tests/torusgraph/data/");
        const RowMat x = loadNpy(dir + QStringLiteral("phases_d4.npy"));
        const RowMat ref = loadNpy(dir + QStringLiteral("eta_numpy_d4.npy"));
        const RowMat refRidge = loadNpy(dir + QStringLiteral("eta_numpy_d4_lambda0.1.npy"));
        const TrigTables t = TrigTables::of(x);
        const GammaH gh = accumulateGammaH(t);
        const Vec eta = solveClosedForm(gh, 0.0), etaR = solveClosedForm(gh, 0.1);
        QCOMPARE(eta.size(), ref.size());
        for (Eigen::Index i = 0; i < eta.size(); ++i) {
            QVERIFY2(std::abs(eta(i) - ref.data()[i]) < 1e-9 * (1 + std::abs(ref.data()[i])),
                     qPrintable(QString::number(i)));
            QVERIFY(std::abs(etaR(i) - refRidge.data()[i]) < 1e-9 * (1 + std::abs(refRidge.data()[i])));
        }
    }

    void gibbsMomentsMatchIntegration() {
        // d = 2: p(x1, x2) ∝ exp(η·S) integrated on a fine grid vs Gibbs averages.
        const int d = 2;
        Vec eta = Vec::Zero(8);
        eta << 0.4, -0.2, 0.1, 0.3, 0.9, -0.5, 0.3, 0.2;
        const int G = 400;
        double Z = 0;
        Eigen::Vector4d m = Eigen::Vector4d::Zero(); // E cos x1, E sin x2, E cos(x1−x2), E sin(x1+x2)
        for (int a = 0; a < G; ++a)
            for (int b = 0; b < G; ++b) {
                Vec xv(2);
                xv << kTau * (a + 0.5) / G, kTau * (b + 0.5) / G;
                const double w = std::exp(eta.dot(sufficientStats(xv)));
                Z += w;
                m += w * Eigen::Vector4d(std::cos(xv(0)), std::sin(xv(1)), std::cos(xv(0) - xv(1)),
                                         std::sin(xv(0) + xv(1)));
            }
        m /= Z;
        pl::Rng rng(11);
        GibbsOptions go;
        go.samples = 40000;
        go.burnIn = 200;
        go.thin = 2;
        const RowMat x = gibbsSample(eta, d, go, rng);
        Eigen::Vector4d s = Eigen::Vector4d::Zero();
        for (int64_t i = 0; i < x.rows(); ++i)
            s += Eigen::Vector4d(std::cos(x(i, 0)), std::sin(x(i, 1)), std::cos(x(i, 0) - x(i, 1)),
                                 std::sin(x(i, 0) + x(i, 1)));
        s /= double(x.rows());
        for (int k = 0; k < 4; ++k)
            QVERIFY2(std::abs(s(k) - m(k)) < 0.02,
                     qPrintable(QStringLiteral("moment %1: gibbs %2 vs grid %3").arg(k).arg(s(k)).arg(m(k))));
        QVERIFY((x.array() >= 0).all() && (x.array() < kTau).all());
    }

    void closedFormRecoversPlantedModel() {
        pl::Rng rng(13);
        SparseTgSpec sp;
        sp.d = 5;
        sp.edgeProb = 0.5;
        const PlantedTg pt = randomSparseTg(sp, rng);
        GibbsOptions go;
        go.samples = 20000;
        const RowMat x = gibbsSample(pt.eta, 5, go, rng);
        const Vec eta = solveClosedForm(accumulateGammaH(TrigTables::of(x)), 0);
        const double rel = (eta - pt.eta).norm() / pt.eta.norm();
        QVERIFY2(rel < 0.1, qPrintable(QString::number(rel)));
    }

    void ssmConvergesToClosedForm() {
        pl::Rng rng(17);
        SparseTgSpec sp;
        sp.d = 6;
        const PlantedTg pt = randomSparseTg(sp, rng);
        GibbsOptions go;
        go.samples = 3000;
        const RowMat x = gibbsSample(pt.eta, 6, go, rng);
        const TrigTables t = TrigTables::of(x);
        const Vec cf = solveClosedForm(accumulateGammaH(t), 0);
        SsmOptions so;
        so.iterations = 3000;
        so.reference = &cf;
        pl::Rng r2(19);
        const SsmResult s = stochasticScoreMatching(t, so, r2);
        const double rel = (s.eta - cf).norm() / cf.norm();
        QVERIFY2(rel < 0.05, qPrintable(QString::number(rel)));
        QVERIFY(!s.recordError.empty() && s.recordError.back() < s.recordError.front());
    }

    void waldTestSeparatesEdges() {
        pl::Rng rng(23);
        SparseTgSpec sp;
        sp.d = 6;
        sp.edgeProb = 0.3;
        sp.couplingMin = 0.6;
        const PlantedTg pt = randomSparseTg(sp, rng);
        GibbsOptions go;
        go.samples = 4000;
        const RowMat x = gibbsSample(pt.eta, 6, go, rng);
        const TrigTables t = TrigTables::of(x);
        const GammaH gh = accumulateGammaH(t);
        const Vec eta = solveClosedForm(gh, 0);
        const EdgeTests e = waldEdgeTests(t, gh, eta, 0);
        int nullSig = 0, nulls = 0;
        for (int j = 0; j < 6; ++j)
            for (int k = j + 1; k < 6; ++k) {
                if (pt.adjacency(j, k) > 0)
                    QVERIFY2(e.pValue(j, k) < 1e-4, qPrintable(QString::number(e.pValue(j, k))));
                else {
                    ++nulls;
                    nullSig += e.pValue(j, k) < 0.01 ? 1 : 0;
                }
            }
        QVERIFY(nullSig <= std::max(1, nulls / 5));
        QCOMPARE(chi2Dof4Tail(0), 1.0);
        QVERIFY(std::abs(chi2Dof4Tail(9.487729) - 0.05) < 1e-5); // χ²₄ 95 % quantile
    }

    void besselHelpers() {
        // log I0 and I1/I0 against numerical integration of the von Mises normaliser.
        for (double k : {0.0, 0.3, 1.0, 3.7, 3.8, 10.0, 50.0}) {
            double i0 = 0, i1 = 0;
            const int G = 20000;
            for (int a = 0; a < G; ++a) {
                const double th = kTau * (a + 0.5) / G;
                i0 += std::exp(k * std::cos(th) - k);
                i1 += std::cos(th) * std::exp(k * std::cos(th) - k);
            }
            i0 /= G;
            i1 /= G;
            QVERIFY2(std::abs(logBesselI0(k) - (std::log(i0) + k)) < 1e-6, qPrintable(QString::number(k)));
            QVERIFY2(std::abs(besselRatio(k) - i1 / i0) < 1e-6, qPrintable(QString::number(k)));
        }
    }

    void hmmRecoversPlantedStates() {
        pl::Rng rng(29);
        std::vector<Vec> etas;
        for (int k = 0; k < 2; ++k) {
            SparseTgSpec sp;
            sp.d = 5;
            sp.edgeProb = 0.4;
            sp.couplingMin = 0.8;
            pl::Rng kr = rng.fork(k == 0 ? "state0" : "state1");
            etas.push_back(randomSparseTg(sp, kr).eta);
        }
        const SwitchingData sd = sampleSwitching(etas, 5, 2000, 150, 3, rng);
        HmmOptions ho;
        ho.emIterations = 8;
        const HmmResult h = fitTorusHmm(sd.x, ho, rng);
        const double acc = matchedAccuracy(sd.states, h.states, 2);
        QVERIFY2(acc >= 0.9, qPrintable(QString::number(acc)));
        QVERIFY(std::abs(h.transition.row(0).sum() - 1) < 1e-12);
        QCOMPARE(matchedAccuracy({0, 0, 1, 1}, {1, 1, 0, 0}, 2), 1.0);
    }

    void arTgFindsDirection() {
        // Five seeds of a 3-channel network with 1 → 2: the planted direction is always above the
        // shift null and far above the reverse; false positives elsewhere stay at the null's level.
        int forward = 0, falsePos = 0, tests = 0;
        for (int seed = 1; seed <= 5; ++seed) {
            pl::Rng rng(static_cast<uint64_t>(seed));
            ArSimSpec as;
            as.d = 3;
            as.T = 3000;
            as.drives = {{0, 1, 0.8}};
            const RowMat x = simulateArTorus(as, rng);
            TransferEntropyOptions to;
            to.shifts = 19;
            const TransferEntropyResult te = transferEntropy(x, to, rng);
            forward += te.pValue(0, 1) <= 0.05 ? 1 : 0;
            QVERIFY(te.te(0, 1) > 5 * std::abs(te.te(1, 0)));
            for (int i = 0; i < 3; ++i)
                for (int j = 0; j < 3; ++j)
                    if (i != j && !(i == 0 && j == 1)) {
                        ++tests;
                        falsePos += te.pValue(i, j) <= 0.05 ? 1 : 0;
                    }
        }
        QCOMPARE(forward, 5);
        QVERIFY2(falsePos <= tests / 5, qPrintable(QString::number(falsePos)));
    }

    void vonMisesRegressionRecoversCoefficients() {
        pl::Rng rng(37);
        const int n = 20000;
        Mat F(n, 3);
        Vec cy(n), sy(n);
        for (int t = 0; t < n; ++t) {
            const double u = rng.uniform(0, kTau);
            F(t, 0) = 1;
            F(t, 1) = std::cos(u);
            F(t, 2) = std::sin(u);
            const double a = 0.5 + 1.2 * F(t, 1), b = -0.3 + 1.2 * F(t, 2);
            const double y = rng.vonMises(std::atan2(b, a), std::hypot(a, b));
            cy(t) = std::cos(y);
            sy(t) = std::sin(y);
        }
        const Mat th = fitVonMisesRegression(F, cy, sy, 0);
        Mat truth(3, 2);
        truth << 0.5, -0.3, 1.2, 0, 0, 1.2;
        QVERIFY2((th - truth).cwiseAbs().maxCoeff() < 0.08,
                 qPrintable(QString::number((th - truth).cwiseAbs().maxCoeff())));
    }

    void bandPhasesOfASinusoid() {
        const double fs = 250, f0 = 6;
        RowMat s(2000, 2);
        for (int i = 0; i < 2000; ++i) {
            s(i, 0) = std::cos(kTau * f0 * i / fs + 0.3) + 0.5 * std::cos(kTau * 40 * i / fs);
            s(i, 1) = std::sin(kTau * f0 * i / fs);
        }
        const RowMat ph = bandPhases(s, fs, 4, 8);
        for (int i = 200; i < 1800; ++i) {
            const double want0 = wrapAngle(kTau * f0 * i / fs + 0.3),
                         want1 = wrapAngle(kTau * f0 * i / fs - kTau / 4);
            auto diff = [](double a, double b) { return std::abs(std::remainder(a - b, kTau)); };
            QVERIFY(diff(ph(i, 0), want0) < 0.05);
            QVERIFY(diff(ph(i, 1), want1) < 0.05);
        }
        QVERIFY_THROWS_EXCEPTION(pl::UsageError, bandPhases(s, fs, 8, 200));
    }

    void engineIsDeterministicAndHasKeys() {
        pl::ParamSet ps = quickParams();
        ps.set("d", int64_t(8));
        ps.set("n", int64_t(600));
        ps.set("ssm_iterations", int64_t(300));
        ps.set("hmm_T", int64_t(600));
        ps.set("hmm_em_iterations", int64_t(2));
        ps.set("ar_T", int64_t(256));
        ps.set("ar_shifts", int64_t(3));
        const auto a = runEngine(ps, 5), b = runEngine(ps, 5), c = runEngine(ps, 6);
        auto strip = [](pl::ResultDocument d) {
            d.elapsedMs = 0;
            return d.toJson();
        };
        QCOMPARE(strip(a), strip(b));
        QVERIFY(strip(a) != strip(c));
        for (const char* k : {"coupling_strength", "phi", "transfer_entropy"})
            QVERIFY2(a.matrices.count(k), k);
        QCOMPARE(a.matrices.at("coupling_strength").rows, int64_t(8));
        QCOMPARE(a.matrices.at("phi").rows, int64_t(28));
        QCOMPARE(a.matrices.at("phi").cols, int64_t(4));
        QCOMPARE(a.vectors.at("eta_single").size(), size_t(16));
        QCOMPARE(a.labels.at("state").size(), size_t(600));
        const auto& cs = a.matrices.at("coupling_strength");
        for (int j = 0; j < 8; ++j)
            for (int k = 0; k < 8; ++k)
                QCOMPARE(cs.at(j, k), cs.at(k, j));
    }

    void claimsHoldAtDefaultSeed() {
        const auto d = runEngine(quickParams(), 1);
        for (const char* id :
             {"edge-recovery-auc", "ssm-matches-closed-form", "hmm-recovers-states", "ar-tg-direction"}) {
            const pl::Claim* c = claim(d, id);
            QVERIFY2(c, id);
            QVERIFY2(c->holds,
                     qPrintable(QString::fromStdString(std::string(id) + ": observed " +
                                                       std::to_string(c->observed) + "; " + c->detail)));
        }
    }

    void methodSwitchesReportedEstimate() {
        pl::ParamSet ps = quickParams();
        ps.set("d", int64_t(6));
        ps.set("n", int64_t(1000));
        ps.set("hmm_states", int64_t(0));
        ps.set("ar_shifts", int64_t(0));
        ps.set("ar_T", int64_t(128));
        const auto cf = runEngine(ps, 2);
        ps.set("method", std::string("stochastic"));
        const auto st = runEngine(ps, 2);
        QCOMPARE(cf.vectors.at("eta_single"),
                 std::vector<double>(cf.vectors.at("eta_closed_form").begin(),
                                     cf.vectors.at("eta_closed_form").begin() + 12));
        QCOMPARE(st.vectors.at("eta_single"),
                 std::vector<double>(st.vectors.at("eta_stochastic").begin(),
                                     st.vectors.at("eta_stochastic").begin() + 12));
    }

    void badInputs() {
        QTemporaryDir dir;
        TorusGraphEngine e;
        auto write = [&](const char* name, const std::string& text) {
            std::ofstream(dir.filePath(QString::fromLatin1(name)).toStdString(), std::ios::binary) << text;
            return dir.filePath(QString::fromLatin1(name)).toStdString();
        };
        QVERIFY_THROWS_EXCEPTION(pl::InputError, e.load(write("nan.csv", "a,b\n0.1,0.2\nnan,0.3\n")));
        QVERIFY_THROWS_EXCEPTION(pl::InputError, e.load(write("one.csv", "0.1\n0.2\n0.3\n")));
        QVERIFY_THROWS_EXCEPTION(pl::InputError,
                                 e.load(write("onedim.npy", pl::writeNpy({5}, {1, 2, 3, 4, 5}))));
        QVERIFY_THROWS_EXCEPTION(pl::InputError,
                                 e.load(write("inf.npy", pl::writeNpy({2, 2}, {1, 2, INFINITY, 4}))));
        QVERIFY_THROWS_EXCEPTION(pl::InputError, e.load(write("x.txt", "1,2\n")));
        // Fewer samples than parameters: 3 channels need 18 samples.
        std::string few;
        for (int i = 0; i < 10; ++i)
            few += "0.1,0.2,0.3\n";
        const auto in = e.load(write("few.csv", few));
        try {
            runEngine(quickParams(), 1, {in});
            QFAIL("expected InputError");
        } catch (const pl::InputError& err) {
            QVERIFY(QString::fromStdString(err.what()).contains(QStringLiteral("few.csv")));
            QVERIFY(QString::fromStdString(err.what()).contains(QStringLiteral("fewer samples")));
        }
    }

    void userPhasesAndCoordinates() {
        QTemporaryDir dir;
        pl::Rng rng(41);
        const RowMat x = randomPhases(rng, 400, 3);
        std::vector<double> v(x.data(), x.data() + x.size());
        const std::string path = dir.filePath(QStringLiteral("ph.npy")).toStdString();
        std::ofstream(path, std::ios::binary) << pl::writeNpy({400, 3}, v);
        const std::string cpath = dir.filePath(QStringLiteral("xy.csv")).toStdString();
        std::ofstream(cpath) << "x,y\n0,0\n1,0\n0,1\n";
        TorusGraphEngine e;
        pl::ParamSet ps = quickParams();
        ps.set("hmm_states", int64_t(0));
        ps.set("ar_shifts", int64_t(2));
        const auto d = runEngine(ps, 1, {e.load(path), e.load(cpath)});
        QCOMPARE(d.matrices.at("coupling_strength").rows, int64_t(3));
        QVERIFY(!claim(d, "edge-recovery-auc"));
        QCOMPARE(d.graphs.at("coupling").nodes[1].attrs.at("x"), 1.0);
        // Independent phases: no edge should be strongly significant.
        for (int j = 0; j < 3; ++j)
            for (int k = j + 1; k < 3; ++k)
                QVERIFY(d.matrices.at("p_value").at(j, k) > 1e-4);
        const std::string bad = dir.filePath(QStringLiteral("xy4.csv")).toStdString();
        std::ofstream(bad) << "0,0\n1,0\n";
        QVERIFY_THROWS_EXCEPTION(pl::InputError, runEngine(ps, 1, {e.load(path), e.load(bad)}));
    }

    void signalInputGivesPhases() {
        // Three channels: two share a 6 Hz rhythm with a fixed lag (strong coupling), one is noise.
        QTemporaryDir dir;
        pl::Rng rng(43);
        const int n = 1500;
        std::vector<double> v;
        double ph = 0;
        for (int i = 0; i < n; ++i) {
            ph += kTau * (6.0 + 0.5 * rng.normal()) / 250.0;
            v.push_back(std::cos(ph) + 0.3 * rng.normal());
            v.push_back(std::cos(ph - 1.0) + 0.3 * rng.normal());
            v.push_back(rng.normal());
        }
        const std::string path = dir.filePath(QStringLiteral("sig.npy")).toStdString();
        std::ofstream(path, std::ios::binary) << pl::writeNpy({n, 3}, v);
        TorusGraphEngine e;
        pl::ParamSet ps = quickParams();
        ps.set("input_kind", std::string("signal"));
        ps.set("hmm_states", int64_t(0));
        ps.set("ar_shifts", int64_t(0));
        const auto d = runEngine(ps, 1, {e.load(path)});
        const auto& cs = d.matrices.at("coupling_strength");
        QVERIFY2(
            cs.at(0, 1) > 3 * std::max(cs.at(0, 2), cs.at(1, 2)),
            qPrintable(QString::number(cs.at(0, 1)) + QStringLiteral(" vs ") + QString::number(cs.at(0, 2))));
        ps.set("band_high", 200.0); // above fs/2 = 125 Hz
        QVERIFY_THROWS_EXCEPTION(pl::UsageError, runEngine(ps, 1, {e.load(path)}));
    }

    void cancellation() {
        TorusGraphEngine e;
        pl::RunContext ctx(1);
        ctx.requestStop();
        QVERIFY_THROWS_EXCEPTION(pl::Cancelled, pl::runEngine(e, {}, quickParams(), ctx));
    }
};

QTEST_GUILESS_MAIN(TestTorusGraph)
#include "tst_torusgraph.moc"
