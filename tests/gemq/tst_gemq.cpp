// gemq-moe-quant (engines/gemq, tinylm moe_lm): the quantiser equals a numpy transcription bit for
// bit (rint half-even, a short last group); the convex-hull greedy equals CLP's and HiGHS's LP optimum
// (scipy linprog(method='highs')) on random instances, its rounded solution is feasible and between
// the LP and the integer optimum (scipy milp); hulls are convex; per-token Fisher equals gradients
// taken one token at a time; the moe_lm survives a .safetensors round trip and its tape forward equals
// the plain one; the importance-table reader on good and bad text; the budget check; determinism and
// cancellation.
#include "common/PythonOracle.h"
#include "core/Errors.h"
#include "core/RunContext.h"
#include "gemq/Allocation.h"
#include "gemq/ExpertCosts.h"
#include "gemq/GemqEngine.h"
#include "gemq/GemqKeys.h"
#include "gemq/ImportanceTable.h"
#include "gemq/Mckp.h"
#include "gemq/Quantiser.h"
#include "tinylm/MoeLm.h"
#include "tinylm/SafeTensors.h"

#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <cstdio>
#include <fstream>

using namespace pl;
using namespace pl::gemq;
namespace K = pl::gemq::keys;

namespace {

const char* kQuantScript = R"(
import sys, numpy as np
W = np.loadtxt(sys.argv[1], delimiter=',', ndmin=2)
for spec in sys.argv[2:]:
    bits, G = (int(x) for x in spec.split(':'))
    L = 2.0 ** bits - 1
    out = np.empty_like(W)
    for c in range(W.shape[1]):
        for g0 in range(0, W.shape[0], G):
            x = W[g0:g0 + G, c]
            mn, mx = x.min(), x.max()
            s = (mx - mn) / L
            if not s > 0:
                out[g0:g0 + G, c] = x
                continue
            z = np.rint(-mn / s)
            q = np.clip(np.rint(x / s) + z, 0, L)
            out[g0:g0 + G, c] = s * (q - z)
    print(' '.join(repr(float(v)) for v in out.ravel()))
)";

const char* kLpScript = R"(
import sys, numpy as np
from scipy.optimize import linprog, milp, LinearConstraint, Bounds
tok = open(sys.argv[1]).read().split()
i = 0
while i < len(tok):
    n, m, cap = int(tok[i]), int(tok[i + 1]), float(tok[i + 2]); i += 3
    W = np.array([float(x) for x in tok[i:i + n * m]]).reshape(n, m); i += n * m
    C = np.array([float(x) for x in tok[i:i + n * m]]).reshape(n, m); i += n * m
    A = np.zeros((n, n * m))
    for k in range(n):
        A[k, k * m:(k + 1) * m] = 1
    lp = linprog(C.ravel(), A_ub=W.ravel()[None, :], b_ub=[cap], A_eq=A, b_eq=np.ones(n), bounds=(0, 1),
                 method='highs')
    mi = milp(C.ravel(), constraints=[LinearConstraint(W.ravel()[None, :], -np.inf, cap),
                                      LinearConstraint(A, 1, 1)],
              integrality=np.ones(n * m), bounds=Bounds(0, 1), options={'mip_rel_gap': 1e-10})
    print(repr(lp.fun), repr(mi.fun))
)";

struct Instance {
    std::vector<MckpItem> items;
    double capacity = 0;
};

Instance randomInstance(Rng& r) {
    Instance in;
    const int n = 3 + int(r.uniformInt(10)), m = 2 + int(r.uniformInt(4));
    const int bitsAll[] = {1, 2, 3, 4, 6, 8};
    double wmin = 0, wmax = 0;
    for (int i = 0; i < n; ++i) {
        MckpItem it;
        const double params = 1 + double(r.uniformInt(50));
        double c = r.uniform(1, 10);
        for (int j = 0; j < m; ++j) {
            it.weight.push_back(bitsAll[j] * params);
            // Mostly decreasing costs, sometimes not (dominated options) or not convex.
            c *= r.uniform() < 0.15 ? r.uniform(1.0, 1.5) : r.uniform(0.05, 0.9);
            it.cost.push_back(c);
        }
        wmin += it.weight.front();
        wmax += it.weight.back();
        in.items.push_back(std::move(it));
    }
    in.capacity = wmin + r.uniform() * (wmax - wmin);
    return in;
}

ResultDocument runWith(uint64_t seed, const std::map<std::string, std::string>& set = {},
                       const InputList& inputs = {}) {
    GemqEngine e;
    ParamSet p(e.params());
    for (const auto& [k, v] : set)
        p.setText(k, v);
    RunContext ctx(seed);
    return e.run(inputs, p, ctx);
}

const std::map<std::string, std::string> kSmall = {{"layers", "2"},        {"experts", "4"},
                                                   {"router_steps", "20"}, {"stages", "2"},
                                                   {"train_epochs", "1"},  {"calib_tokens", "512"}};

tinylm::MoeLmModel smallModel(uint64_t seed) {
    tinylm::MoeTrainConfig c;
    c.layers = 2;
    c.experts = 4;
    c.dModel = 8;
    c.hidden = 12;
    c.embed = 4;
    c.window = 3;
    c.epochs = 1;
    c.layerScales = {1.0, 0.5};
    Rng r(seed);
    std::vector<std::vector<int>> seqs;
    for (int s = 0; s < 8; ++s) {
        std::vector<int> q;
        for (int t = 0; t < 20; ++t)
            q.push_back(int(r.uniformInt(10)));
        seqs.push_back(q);
    }
    return tinylm::trainMoeLm(seqs, 10, c, r.fork("train"));
}

} // namespace

class TestGemq : public QObject {
    Q_OBJECT
private slots:
    void quantiserMatchesNumpy() {
        if (!test::havePython("numpy"))
            QSKIP("numpy not available");
        Rng r(3);
        Eigen::MatrixXd w(37, 5);
        for (Eigen::Index i = 0; i < w.size(); ++i)
            w.data()[i] = r.uniform(-1, 1) * (1 + 3 * r.uniform());
        // Exact halves (rint half-even): 2 bits over [0, 3] give scale 1, so 0.5, 1.5, 2.5 -> 0, 2, 2.
        const double halves[] = {0, 0.5, 1.5, 2.5, 3};
        for (int i = 0; i < 5; ++i)
            w(i, 0) = halves[i];
        w.col(4).setConstant(0.25); // constant groups are kept
        QTemporaryDir dir;
        {
            std::FILE* f = std::fopen(dir.filePath("w.csv").toLocal8Bit().constData(), "w");
            for (Eigen::Index i = 0; i < w.rows(); ++i)
                for (Eigen::Index j = 0; j < w.cols(); ++j)
                    std::fprintf(f, "%.17g%s", w(i, j), j + 1 < w.cols() ? "," : "\n");
            std::fclose(f);
        }
        const std::vector<std::pair<int, int>> specs = {{2, 5}, {3, 8}, {4, 32}, {8, 16}, {2, 37}, {1, 4}};
        QStringList args{dir.filePath("w.csv")};
        for (auto [b, g] : specs)
            args << QStringLiteral("%1:%2").arg(b).arg(g);
        const QStringList out = test::pythonLines(kQuantScript, args);
        QCOMPARE(out.size(), int(specs.size()));
        for (size_t k = 0; k < specs.size(); ++k) {
            const Eigen::MatrixXd q = quantiseGroupwise(w, specs[k].first, specs[k].second);
            const QStringList ref = out[int(k)].split(' ');
            QCOMPARE(ref.size(), int(w.size()));
            for (Eigen::Index i = 0; i < w.rows(); ++i)
                for (Eigen::Index j = 0; j < w.cols(); ++j)
                    QCOMPARE(q(i, j), ref[int(i * w.cols() + j)].toDouble());
        }
        const Eigen::MatrixXd q = quantiseGroupwise(w, 2, 5);
        QCOMPARE(q(1, 0), 0.0);
        QCOMPARE(q(2, 0), 2.0);
        QCOMPARE(q(3, 0), 2.0);
        QCOMPARE(q(0, 4), 0.25);
        // More bits never increase the error of a group.
        QVERIFY((w - quantiseGroupwise(w, 8, 8)).squaredNorm() <
                (w - quantiseGroupwise(w, 3, 8)).squaredNorm());
    }

    void hullIsLowerConvex() {
        Rng r(11);
        for (int t = 0; t < 200; ++t) {
            const Instance in = randomInstance(r);
            for (const MckpItem& it : in.items) {
                const auto h = lowerHull(it);
                QVERIFY(!h.empty());
                QCOMPARE(it.weight[size_t(h.front())], *std::min_element(it.weight.begin(), it.weight.end()));
                QCOMPARE(it.cost[size_t(h.back())], *std::min_element(it.cost.begin(), it.cost.end()));
                for (size_t k = 0; k + 2 < h.size(); ++k) {
                    const double s1 = (it.cost[size_t(h[k + 1])] - it.cost[size_t(h[k])]) /
                                      (it.weight[size_t(h[k + 1])] - it.weight[size_t(h[k])]);
                    const double s2 = (it.cost[size_t(h[k + 2])] - it.cost[size_t(h[k + 1])]) /
                                      (it.weight[size_t(h[k + 2])] - it.weight[size_t(h[k + 1])]);
                    QVERIFY(s1 < s2 && s2 < 0);
                }
            }
        }
    }

    void greedyEqualsClp() {
        Rng r(5);
        for (int t = 0; t < 300; ++t) {
            const Instance in = randomInstance(r);
            const MckpSolution s = solveMckpGreedy(in.items, in.capacity);
            const double clp = solveMckpLpClp(in.items, in.capacity);
            QVERIFY2(
                std::abs(s.lpObjective - clp) <= 1e-8 * std::max(1.0, std::abs(clp)),
                qPrintable(QStringLiteral("%1 vs %2").arg(s.lpObjective, 0, 'g', 17).arg(clp, 0, 'g', 17)));
            QVERIFY(s.weightUsed <= in.capacity * (1 + 1e-12));
            QVERIFY(s.integerObjective >= s.lpObjective - 1e-12);
        }
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, solveMckpGreedy({MckpItem{{2, 4}, {1, 0.5}}}, 1.9));
    }

    void greedyEqualsHighsAndBoundsMilp() {
        if (!test::havePython("numpy, scipy.optimize"))
            QSKIP("scipy not available");
        Rng r(7);
        std::vector<Instance> ins;
        QTemporaryDir dir;
        std::FILE* f = std::fopen(dir.filePath("lp.txt").toLocal8Bit().constData(), "w");
        for (int t = 0; t < 60; ++t) {
            ins.push_back(randomInstance(r));
            const Instance& in = ins.back();
            std::fprintf(f, "%zu %zu %.17g\n", in.items.size(), in.items[0].weight.size(), in.capacity);
            for (const auto& it : in.items)
                for (double w : it.weight)
                    std::fprintf(f, "%.17g ", w);
            for (const auto& it : in.items)
                for (double c : it.cost)
                    std::fprintf(f, "%.17g ", c);
            std::fprintf(f, "\n");
        }
        std::fclose(f);
        const QStringList out = test::pythonLines(kLpScript, {dir.filePath("lp.txt")});
        QCOMPARE(out.size(), int(ins.size()));
        int strict = 0;
        for (size_t t = 0; t < ins.size(); ++t) {
            const MckpSolution s = solveMckpGreedy(ins[t].items, ins[t].capacity);
            const QStringList p = out[int(t)].split(' ');
            const double highs = p[0].toDouble(), milp = p[1].toDouble();
            QVERIFY2(std::abs(s.lpObjective - highs) <= 1e-7 * std::max(1.0, std::abs(highs)),
                     qPrintable(QStringLiteral("LP %1 vs HiGHS %2").arg(s.lpObjective).arg(highs)));
            QVERIFY(milp >= s.lpObjective - 1e-7 * std::max(1.0, std::abs(milp)));
            QVERIFY(s.integerObjective >= milp - 1e-7 * std::max(1.0, std::abs(milp)));
            strict += s.integerObjective > s.lpObjective + 1e-9;
        }
        QVERIFY(strict > 0); // the relaxation is not always integral
    }

    void layerwiseIsNeverBetter() {
        Rng r(9);
        AllocProblem p;
        p.layers = 3;
        p.experts = 4;
        p.bits = {2, 3, 4, 8};
        p.cost.resize(12, 4);
        for (int i = 0; i < 12; ++i) {
            p.params.push_back(100 + double(r.uniformInt(50)));
            const double s = std::pow(10.0, -(i / 4)) * r.uniform(0.5, 2);
            for (int j = 0; j < 4; ++j)
                p.cost(i, j) = s * std::pow(4.0, -p.bits[size_t(j)]);
        }
        for (double b : {2.0, 2.5, 3.0, 4.5, 8.0}) {
            const Allocation g = allocate(p, b, true), l = allocate(p, b, false);
            QVERIFY(g.lpObjective <= l.lpObjective + 1e-15);
            QVERIFY(g.avgBits <= b + 1e-12 && l.avgBits <= b + 1e-12);
            QVERIFY(std::abs(g.lpObjective - allocateLpByClp(p, b, true)) <= 1e-9 * g.lpObjective + 1e-300);
            QVERIFY(std::abs(l.lpObjective - allocateLpByClp(p, b, false)) <= 1e-9 * l.lpObjective + 1e-300);
        }
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, allocate(p, 1.5, true));
    }

    void fisherIsPerToken() {
        const tinylm::MoeLmModel m = smallModel(2);
        std::vector<std::vector<int>> ctx;
        std::vector<int> y;
        Rng r(4);
        for (int t = 0; t < 6; ++t) {
            ctx.push_back({int(r.uniformInt(10)), int(r.uniformInt(10)), int(r.uniformInt(10))});
            y.push_back(int(r.uniformInt(10)));
        }
        const Sensitivity s = measureSensitivity(m, Importance::Fisher, ctx, y);
        std::vector<Eigen::MatrixXd> ref1(8), ref2(8);
        for (int i = 0; i < 8; ++i) {
            ref1[size_t(i)] = Eigen::MatrixXd::Zero(8, 12);
            ref2[size_t(i)] = Eigen::MatrixXd::Zero(12, 8);
        }
        for (size_t t = 0; t < ctx.size(); ++t) {
            nn::Tape tape;
            tinylm::MoeVars v = tinylm::moeConstants(tape, m);
            std::vector<nn::Var> w1, w2;
            for (size_t l = 0; l < 2; ++l)
                for (size_t e = 0; e < 4; ++e) {
                    v.expert[l][e].w1 = tape.variable(m.layers[l].experts[e].w1);
                    v.expert[l][e].w2 = tape.variable(m.layers[l].experts[e].w2);
                    w1.push_back(v.expert[l][e].w1);
                    w2.push_back(v.expert[l][e].w2);
                }
            const auto o = tinylm::moeTapeForward(tape, v, m, {ctx[t]});
            tape.backward(nn::sum(nn::softmaxCrossEntropy(o.logits, {y[t]})));
            for (size_t i = 0; i < 8; ++i) {
                ref1[i] += w1[i].grad().cwiseAbs2() / 6.0;
                ref2[i] += w2[i].grad().cwiseAbs2() / 6.0;
            }
        }
        double total = 0;
        for (size_t i = 0; i < 8; ++i) {
            QVERIFY((s.a1[i] - ref1[i]).cwiseAbs().maxCoeff() <= 1e-12 * (1 + ref1[i].cwiseAbs().maxCoeff()));
            QVERIFY((s.a2[i] - ref2[i]).cwiseAbs().maxCoeff() <= 1e-12 * (1 + ref2[i].cwiseAbs().maxCoeff()));
            total += ref1[i].sum();
        }
        QVERIFY(total > 0);
        // Costs: more bits, lower cost; weight_error is half the squared error.
        const auto c = expertCosts(m, s, {2, 4, 8}, 4);
        for (Eigen::Index i = 0; i < c.rows(); ++i)
            QVERIFY(c(i, 0) >= c(i, 2));
        const auto we = expertCosts(m, Sensitivity{}, {2}, 4);
        const auto& x = m.layers[1].experts[2];
        QCOMPARE(we(6, 0), 0.5 * ((x.w1 - quantiseGroupwise(x.w1, 2, 4)).squaredNorm() +
                                  (x.w2 - quantiseGroupwise(x.w2, 2, 4)).squaredNorm()));
    }

    void moeFileRoundTripAndTape() {
        const tinylm::MoeLmModel m = smallModel(3);
        const std::string bytes = tinylm::writeSafeTensors(tinylm::toSafeTensors(m));
        const auto back = tinylm::modelFromSafeTensors(tinylm::parseSafeTensors(bytes, "m.safetensors"), "m");
        QCOMPARE(back.arch, std::string("moe_lm"));
        QCOMPARE(back.moe.layers[1].scale, 0.5);
        const std::vector<std::vector<int>> ctx = {{0, 0, 1}, {3, 4, 5}, {9, 8, 7}};
        const auto a = tinylm::moeForward(m, ctx), b = tinylm::moeForward(back.moe, ctx);
        QCOMPARE(a.logits, b.logits);
        nn::Tape tape;
        const auto o = tinylm::moeTapeForward(tape, tinylm::moeConstants(tape, m), m, ctx);
        QVERIFY((o.logits.value() - a.logits).cwiseAbs().maxCoeff() < 1e-12);
        auto f = tinylm::toSafeTensors(m);
        f.tensors["layers.1.experts.2.w2"].shape = {12, 7};
        f.tensors["layers.1.experts.2.w2"].data.resize(84);
        try {
            tinylm::modelFromSafeTensors(f, "bad.safetensors");
            QFAIL("no error");
        } catch (const InputError& e) {
            QVERIFY2(QString::fromStdString(e.what()).contains("layers.1.experts.2.w2"), e.what());
        }
    }

    void importanceTable() {
        const std::string good = "# made up\nlayer,expert,bits,cost,params\n1,0,4,0.1,10\n0,0,2,0.9,20\n"
                                 "0,0,4,0.2,20\n1,0,2,0.5,10\n\n";
        const auto t = parseImportanceCsv(good, "t.csv");
        QCOMPARE(t->layers, 2);
        QCOMPARE(t->experts, 1);
        QCOMPARE(t->bits, (std::vector<int>{2, 4}));
        QCOMPARE(t->cost(1, 0), 0.5);
        QCOMPARE(t->params[0], 20.0);
        const std::vector<std::pair<std::string, int64_t>> bad = {
            {"layer,expert,bits,cost,params\n0,0,2,-1,5\n", 2},
            {"layer,expert,bits,cost,params\n0,0,2,1,5\n0,0,4,1,6\n", 3},
            {"layer,expert,bits,cost,params\n0,0,2,1,5\n0,0,2,1,5\n", 3},
            {"layer,expert,bits,cost\n", 1},
            {"layer,expert,bits,cost,params\n0,0,2,x,5\n", 2},
            {"layer,expert,bits,cost,params\n0,0,2.5,1,5\n", 2},
            {"layer,expert,bits,cost,params\n0,0,2,1\n", 2},
            {"layer,expert,bits,cost,params\n0,0,2,1,0\n", 2},
            {"layer,expert,bits,cost,params\n0,0,2,1,5\n1,1,2,1,5\n", 0}, // missing (0,1) and (1,0)
            {"", 0},
        };
        for (const auto& [text, line] : bad) {
            try {
                parseImportanceCsv(text, "bad.csv");
                QFAIL(text.c_str());
            } catch (const InputError& e) {
                QCOMPARE(e.line(), line);
            }
        }
    }

    void budgetBelowMinimumIsUsageError() {
        try {
            runWith(1, {{"avg_bits", "1.5"}});
            QFAIL("no error");
        } catch (const UsageError& e) {
            const QString m = QString::fromStdString(e.what());
            QVERIFY2(m.contains("minimum average bits = 2") && m.contains("feasible range 2 to 8"), e.what());
        }
        QVERIFY_THROWS_EXCEPTION(UsageError, runWith(1, {{"bits", "2,x"}}));
        QVERIFY_THROWS_EXCEPTION(UsageError, runWith(1, {{"bits", "2,2"}}));
    }

    void allocatorAloneOnATable() {
        const auto t = readImportanceCsv(PAPERLAB_SOURCE_DIR
                                         "/resources/examples/gemq-moe-quant/made-up-importance.csv");
        const ResultDocument d = runWith(1, {{"avg_bits", "3"}}, {t});
        QCOMPARE(d.matrices.at(K::matrix::kCost).rows, int64_t(64));
        QCOMPARE(d.matrices.at(K::matrix::kBitsGlobal).rows, int64_t(8));
        QVERIFY(d.metrics.at(K::metric::kLpGlobal) <= d.metrics.at(K::metric::kLpLayerwise));
        QVERIFY(d.metrics.at(K::metric::kAvgBitsGlobal) <= 3 + 1e-12);
        QVERIFY(d.claims.at(0).holds);
        QVERIFY(!d.metrics.count(K::metric::kLossGlobal));
        // Global puts more bits on the sensitive first layer than on the last.
        const Matrix& b = d.matrices.at(K::matrix::kBitsGlobal);
        double first = 0, last = 0;
        for (int e = 0; e < 8; ++e) {
            first += b.data[size_t(e)];
            last += b.data[size_t(56 + e)];
        }
        QVERIFY(first > last);
    }

    void runKeysAndDeterminism() {
        const ResultDocument a = runWith(4, kSmall), b = runWith(4, kSmall), c = runWith(5, kSmall);
        QCOMPARE(a.toJson(), b.toJson());
        QVERIFY(a.metrics.at(K::metric::kLossGlobal) != c.metrics.at(K::metric::kLossGlobal));
        QCOMPARE(a.matrices.at(K::matrix::kCost).rows, int64_t(8));
        QCOMPARE(a.matrices.at(K::matrix::kCost).cols, int64_t(4));
        QCOMPARE(a.vectors.at(K::vector::kParams).size(), size_t(8));
        QCOMPARE(a.vectors.at(K::vector::kBitOptions), (std::vector<double>{2, 3, 4, 8}));
        for (const char* k : {K::matrix::kBitsGlobal, K::matrix::kBitsLayerwise}) {
            QCOMPARE(a.matrices.at(k).rows, int64_t(2));
            QCOMPARE(a.matrices.at(k).cols, int64_t(4));
        }
        for (const char* k :
             {K::metric::kLpGlobal, K::metric::kLpLayerwise, K::metric::kCostGlobal,
              K::metric::kAvgBitsGlobal, K::metric::kLossFp, K::metric::kLossUniform, K::metric::kLossGlobal,
              K::metric::kLossLayerwise, K::metric::kShiftBefore, K::metric::kShiftAfter})
            QVERIFY2(a.metrics.count(k), k);
        QVERIFY(a.metrics.at(K::metric::kLpGlobal) <= a.metrics.at(K::metric::kLpLayerwise) + 1e-15);
        QVERIFY(a.metrics.at(K::metric::kLpGlobal) <= a.metrics.at(K::metric::kCostGlobal) + 1e-15);
        QVERIFY(a.metrics.at(K::metric::kAvgBitsGlobal) <= 2.5 + 1e-12);
        QVERIFY(a.metrics.at(K::metric::kLossUniform) > a.metrics.at(K::metric::kLossFp));
    }

    void cancels() {
        GemqEngine e;
        ParamSet p(e.params());
        RunContext ctx(1);
        ctx.requestStop();
        QVERIFY_THROWS_EXCEPTION(Cancelled, e.run({}, p, ctx));
    }
};

QTEST_GUILESS_MAIN(TestGemq)
#include "tst_gemq.moc"
