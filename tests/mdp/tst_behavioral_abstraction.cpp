// The finite-MDP engine behind behavioral-abstraction: JSON reader errors (file, line, reason), W1
// by network simplex against scipy.optimize.linprog, V* against numpy policy iteration, the
// coarsest bisimulation against brute force over all partitions of tiny MDPs, invariants and reach
// probabilities against closed forms, the claims over seeds and worlds, and determinism.
#include "core/Errors.h"
#include "core/Rng.h"
#include "mdp/BehavioralAbstractionEngine.h"
#include "mdp/BehavioralAbstractionKeys.h"
#include "mdp/Bisimulation.h"
#include "mdp/FixedPoints.h"
#include "mdp/MdpReader.h"
#include "mdp/MdpWorlds.h"
#include "mdp/Wasserstein.h"

#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <fstream>
#include <functional>
#include <sstream>

using namespace pl::mdp;

namespace {

pl::ResultDocument runEngine(uint64_t seed, const std::map<std::string, std::string>& set) {
    BehavioralAbstractionEngine e;
    pl::ParamSet p(e.params());
    for (const auto& [k, v] : set)
        p.setText(k, v);
    pl::RunContext ctx(seed);
    return e.run({}, p, ctx);
}

const pl::Claim* claim(const pl::ResultDocument& d, const std::string& id) {
    for (const auto& c : d.claims)
        if (c.id == id)
            return &c;
    return nullptr;
}

/// JSON text of an MDP in the reader's format.
std::string toJson(const Mdp& m) {
    std::ostringstream o;
    o.precision(17);
    o << "{\"states\": " << m.states << ", \"actions\": " << m.actions << ",\n\"P\": [";
    bool first = true;
    for (int s = 0; s < m.states; ++s)
        for (int a = 0; a < m.actions; ++a)
            for (const Transition& t : m.row(s, a)) {
                o << (first ? "\n" : ",\n") << "[" << s << ", " << a << ", " << t.next << ", " << t.p << "]";
                first = false;
            }
    o << "],\n\"R\": [";
    first = true;
    for (int s = 0; s < m.states; ++s)
        for (int a = 0; a < m.actions; ++a) {
            o << (first ? "\n" : ",\n") << "[" << s << ", " << a << ", " << m.reward(s, a) << "]";
            first = false;
        }
    o << "],\n\"labels\": {}}\n";
    return o.str();
}

bool pythonReady() {
    if (!QFile::exists(QStringLiteral("/usr/bin/python3")))
        return false;
    QProcess probe;
    probe.start(QStringLiteral("/usr/bin/python3"), {"-c", "import numpy, scipy.optimize"});
    return probe.waitForFinished(30000) && probe.exitCode() == 0;
}

QStringList runPython(const char* script, const QStringList& args) {
    QProcess py;
    py.start(QStringLiteral("/usr/bin/python3"), QStringList{"-c", script} + args);
    if (!py.waitForFinished(300000) || py.exitCode() != 0)
        qWarning("%s", py.readAllStandardError().constData());
    return QString::fromUtf8(py.readAllStandardOutput()).split('\n', Qt::SkipEmptyParts);
}

void expectError(const std::string& text, int64_t line, const char* what) {
    try {
        parseMdpJson(text, "t.json");
        QFAIL(qPrintable(QStringLiteral("no error for: ") + QString::fromLatin1(what)));
    } catch (const pl::InputError& e) {
        QCOMPARE(e.file(), std::string("t.json"));
        QVERIFY2(e.line() == line, qPrintable(QString::fromStdString(e.what())));
        QVERIFY2(std::string(e.what()).find(what) != std::string::npos,
                 qPrintable(QString::fromStdString(e.what())));
    }
}

/// Every set partition of {0..n-1} as restricted growth strings.
void partitions(int n, std::vector<int>& cur, const std::function<void(const std::vector<int>&)>& f) {
    if (int(cur.size()) == n) {
        f(cur);
        return;
    }
    const int top = cur.empty() ? 0 : *std::max_element(cur.begin(), cur.end()) + 1;
    for (int b = 0; b <= top; ++b) {
        cur.push_back(b);
        partitions(n, cur, f);
        cur.pop_back();
    }
}

} // namespace

class TestBehavioralAbstraction : public QObject {
    Q_OBJECT
private slots:
    void readerAcceptsGoodFile() {
        const Mdp m =
            parseMdpJson("{\"states\": 2, \"actions\": 1,\n \"P\": [[0,0,1,0.5],[0,0,0,0.5],[1,0,1,1]],\n"
                         " \"R\": [[0,0,1]], \"labels\": {\"goal\": [1]},\n \"policy\": [[0,0,1],[1,0,1]],"
                         " \"critic\": [0.5, -1]}",
                         "ok.json");
        QCOMPARE(m.states, 2);
        QCOMPARE(int(m.row(0, 0).size()), 2);
        QCOMPARE(m.reward(0, 0), 1.0);
        QCOMPARE(m.reward(1, 0), 0.0);
        QCOMPARE(int(m.labelSet("goal")[1]), 1);
        QCOMPARE(m.critic(1), -1.0);
        QCOMPARE(m.policy(1, 0), 1.0);
    }
    void readerErrorsNameFileLineAndReason() {
        const std::string head = "{\"states\": 2, \"actions\": 1,\n\"P\": [\n";
        expectError(head + "[0,0,1,1],\n[1,0,0,-0.5],\n[1,0,1,1.5]],\n\"R\": []}", 4, "negative probability");
        expectError(head + "[0,0,1,1],\n[1,0,0,0.4],\n[1,0,1,0.5]],\n\"R\": []}", 4,
                    "row (s=1, a=0) of P sums to");
        expectError(head + "[0,0,1,1],\n[1,0,7,1]],\n\"R\": []}", 4, "unknown state id 7");
        expectError(head + "[0,0,1,1],\n[1,3,0,1]],\n\"R\": []}", 4, "unknown action id 3");
        expectError(head + "[0,0,1,1],\n[1,0,0,1]],\n\"R\": [[0,0,1],\n[5,0,1]]}", 6, "unknown state id 5");
        expectError(head + "[0,0,1,1],\n[1,0,0,1]],\n\"R\": [],\n\"labels\": {\"a\": [0],\n\"b\": [9]}}", 7,
                    "labels.b: unknown state id 9");
        expectError(head + "[0,0,1,1],\n[1,0,0,1]],\n\"R\": [],\n\"policy\": [[0,0,1],\n[1,0,0.3]]}", 7,
                    "policy row s=1 sums to");
        expectError(head + "[0,0,1,1],\n[1,0,0,1]],\n\"R\": [],\n\"policy\": [[0,0,1]]}", 1,
                    "policy row s=1 sums to 0");
        expectError(head + "[0,0,1,1]],\n\"R\": []}", 1, "row (s=1, a=0) of P sums to 0");
        expectError("{\"states\": 2001, \"actions\": 1, \"P\": [], \"R\": []}", 1, "above the limit of 2000");
        expectError("{\"states\": 2, \"actions\": 1,\n\"P\": [[0,0,1,1],\n[1,0", 3, "not valid JSON");
        expectError("[1, 2]", 1, "expected one JSON object");
        expectError(head + "[0,0,1],\n[1,0,0,1]],\n\"R\": []}", 3, "expected [s, a, s', p]");
        expectError("{\"actions\": 1, \"P\": [], \"R\": []}", 1, "field 'states' missing");
    }
    void w1MatchesLinprog() {
        if (!pythonReady())
            QSKIP("numpy/scipy not available to /usr/bin/python3");
        QTemporaryDir dir;
        pl::Rng rng(5);
        std::ofstream f(dir.filePath("w1.txt").toStdString());
        f.precision(17);
        std::vector<double> ours;
        TransportSolver solver;
        for (int k = 0; k < 40; ++k) {
            const int n = 3 + int(rng.uniformInt(10));
            Eigen::MatrixXd pts = Eigen::MatrixXd::Zero(n, 2);
            for (int i = 0; i < n; ++i)
                pts.row(i) << rng.uniform(), rng.uniform();
            Eigen::MatrixXd d(n, n);
            for (int i = 0; i < n; ++i)
                for (int j = 0; j < n; ++j)
                    d(i, j) = (pts.row(i) - pts.row(j)).norm();
            auto law = [&]() {
                std::vector<Transition> l;
                double s = 0;
                for (int i = 0; i < n; ++i)
                    if (rng.uniform() < 0.6) {
                        l.push_back({i, rng.uniform(0.05, 1)});
                        s += l.back().p;
                    }
                if (l.empty())
                    l.push_back({0, s = 1});
                for (auto& t : l)
                    t.p /= s;
                return l;
            };
            const auto p = law(), q = law();
            ours.push_back(solver.w1(p, q, d));
            f << n << "\n";
            for (int i = 0; i < n; ++i)
                for (int j = 0; j < n; ++j)
                    f << d(i, j) << (j + 1 < n ? " " : "\n");
            for (const auto* l : {&p, &q}) {
                std::vector<double> dense(size_t(n), 0.0);
                for (const auto& t : *l)
                    dense[size_t(t.next)] = t.p;
                for (int i = 0; i < n; ++i)
                    f << dense[size_t(i)] << (i + 1 < n ? " " : "\n");
            }
        }
        f.close();
        const char* script = R"(
import sys, numpy as np
from scipy.optimize import linprog
lines = open(sys.argv[1]).read().split('\n'); i = 0
while i < len(lines) and lines[i].strip():
    n = int(lines[i]); i += 1
    D = np.array([[float(x) for x in lines[i + r].split()] for r in range(n)]); i += n
    p = np.array([float(x) for x in lines[i].split()]); q = np.array([float(x) for x in lines[i + 1].split()]); i += 2
    A = np.vstack([np.kron(np.eye(n), np.ones(n)), np.kron(np.ones(n), np.eye(n))])
    r = linprog(D.ravel(), A_eq=A[:-1], b_eq=np.concatenate([p, q])[:-1], bounds=(0, None), method='highs')
    print(repr(r.fun))
)";
        const QStringList vals = runPython(script, {dir.filePath("w1.txt")});
        QCOMPARE(vals.size(), int(ours.size()));
        for (int k = 0; k < vals.size(); ++k)
            QVERIFY2(std::fabs(vals[k].toDouble() - ours[size_t(k)]) < 1e-9,
                     qPrintable(QString("%1: ours %2 scipy %3").arg(k).arg(ours[size_t(k)]).arg(vals[k])));
    }
    void valueMatchesNumpyPolicyIteration() {
        if (!pythonReady())
            QSKIP("numpy/scipy not available to /usr/bin/python3");
        QTemporaryDir dir;
        QStringList files;
        std::vector<Eigen::VectorXd> ours;
        for (int k = 0; k < 4; ++k) {
            pl::Rng rng(100 + uint64_t(k));
            const Mdp m =
                k == 3 ? mirroredGridworld(4) : plantedLumpable(12 + 9 * k, 2 + k, 3 + k, 0.05, rng);
            const QString f = dir.filePath(QString("m%1.json").arg(k));
            std::ofstream(f.toStdString()) << toJson(m);
            // The file goes through our reader too: the same MDP must come back.
            QCOMPARE(readMdpFile(f.toStdString()).states, m.states);
            files << f;
            ours.push_back(solveOptimalValue(m, 0.9).value);
        }
        const char* script = R"(
import sys, json, numpy as np
for f in sys.argv[1:]:
    d = json.load(open(f)); S, A = d['states'], d['actions']
    P = np.zeros((A, S, S)); R = np.zeros((S, A))
    for s, a, t, p in d['P']: P[a, s, t] += p
    for s, a, r in d['R']: R[s, a] = r
    pol = np.zeros(S, dtype=int)
    while True:
        Pp = P[pol, np.arange(S)]; v = np.linalg.solve(np.eye(S) - 0.9 * Pp, R[np.arange(S), pol])
        Q = R + 0.9 * np.einsum('ast,t->sa', P, v)
        new = np.where(Q.max(1) > Q[np.arange(S), pol] + 1e-12, Q.argmax(1), pol)
        if (new == pol).all(): break
        pol = new
    print(' '.join(repr(x) for x in v))
)";
        const QStringList rows = runPython(script, files);
        QCOMPARE(rows.size(), files.size());
        for (int k = 0; k < rows.size(); ++k) {
            const QStringList v = rows[k].split(' ');
            QCOMPARE(v.size(), int(ours[size_t(k)].size()));
            for (int s = 0; s < v.size(); ++s)
                QVERIFY2(std::fabs(v[s].toDouble() - ours[size_t(k)](s)) < 1e-9,
                         qPrintable(QString::number(k)));
        }
    }
    void coarsestBisimulationMatchesBruteForce() {
        int checked = 0;
        for (uint64_t seed = 1; seed <= 12; ++seed) {
            pl::Rng rng(seed);
            const int n = 5 + int(seed % 3);
            Mdp m = plantedLumpable(n, 2, 2 + int(seed % 3), seed % 2 ? 0.0 : 0.1, rng);
            const std::vector<int> ours = coarsestBisimulation(m);
            QVERIFY(isBisimulation(m, ours));
            // Brute force: the coarsest bisimulation is the one with fewest blocks, and unique.
            int best = n + 1, count = 0;
            std::vector<int> bestPart, cur;
            partitions(n, cur, [&](const std::vector<int>& part) {
                if (!isBisimulation(m, part))
                    return;
                const int k = blockCount(part);
                if (k < best) {
                    best = k;
                    bestPart = part;
                    count = 1;
                } else if (k == best) {
                    ++count;
                }
            });
            QCOMPARE(count, 1);
            QCOMPARE(ours, bestPart);
            ++checked;
        }
        QCOMPARE(checked, 12);
    }
    void metricZeroExactlyOnExactBlocks() {
        pl::Rng rng(3);
        const Mdp m = plantedLumpable(20, 3, 4, 0.0, rng);
        pl::RunContext ctx(1);
        const MetricResult r = bisimulationMetric(m, 0.9, ctx);
        const std::vector<int> b = coarsestBisimulation(m);
        QCOMPARE(blockCount(b), 4);
        for (int s = 0; s < m.states; ++s)
            for (int t = 0; t < m.states; ++t) {
                QVERIFY(std::fabs(r.d(s, t) - r.d(t, s)) < 1e-15);
                if (b[size_t(s)] == b[size_t(t)])
                    QVERIFY(r.d(s, t) < 1e-10);
                else
                    QVERIFY(r.d(s, t) > 1e-6);
            }
    }
    void invariantAndReachClosedForms() {
        // Chain 0 -> 1 -> 2 (goal); action 1 of state 1 falls into the unsafe sink 3 w.p. 1/2.
        const Mdp m = parseMdpJson(
            R"({"states": 4, "actions": 2, "P": [[0,0,1,1],[0,1,0,1],[1,0,2,0.5],[1,0,1,0.5],[1,1,3,0.5],[1,1,2,0.5],
               [2,0,2,1],[2,1,2,1],[3,0,3,1],[3,1,3,1]], "R": [], "labels": {"safe": [0,1,2], "goal": [2]}})",
            "chain.json");
        const std::vector<char> inv = controllableInvariant(m, m.labelSet("safe"));
        QCOMPARE(std::vector<char>(inv), (std::vector<char>{1, 1, 1, 0}));
        const Eigen::VectorXd r = maxReachProbability(m, m.labelSet("goal"));
        QVERIFY(std::fabs(r(0) - 1) < 1e-12 && std::fabs(r(1) - 1) < 1e-12 && r(3) == 0);
        // Without the safe action of state 0 it can only stay: 0 keeps the invariant by looping.
        const Mdp trap = parseMdpJson(
            R"({"states": 2, "actions": 1, "P": [[0,0,1,0.1],[0,0,0,0.9],[1,0,1,1]], "R": [],
               "labels": {"safe": [0]}})",
            "trap.json");
        QCOMPARE(controllableInvariant(trap, trap.labelSet("safe")), (std::vector<char>{0, 0}));
    }
    void claimsHoldOverSeedsAndWorlds() {
        const std::vector<std::map<std::string, std::string>> settings = {
            {{"world", "planted"}},
            {{"world", "planted"}, {"perturbation", "0.2"}, {"states", "30"}},
            {{"world", "planted"}, {"perturbation", "0"}, {"actions", "5"}},
            {{"world", "gridworld"}, {"grid_size", "5"}},
            {{"world", "ring"}, {"ring_size", "20"}}};
        int runs = 0;
        for (const auto& s : settings)
            for (uint64_t seed = 1; seed <= 3; ++seed) {
                auto set = s;
                set["formula_samples"] = "500";
                const pl::ResultDocument d = runEngine(seed, set);
                for (const char* id : {keys::claim::kBisimBound, keys::claim::kQuotientExact,
                                       keys::claim::kFormulaSound, keys::claim::kAbstractionBound}) {
                    const pl::Claim* c = claim(d, id);
                    QVERIFY(c);
                    QVERIFY2(c->holds,
                             qPrintable(QString::fromStdString(std::string(id) + ": " + c->detail)));
                }
                ++runs;
            }
        QCOMPARE(runs, 15);
    }
    void mirroredGridworldFoldsInHalf() {
        const pl::ResultDocument d = runEngine(1, {{"world", "gridworld"}, {"grid_size", "4"}});
        // 16 cells; mirror pairs are bisimilar: at most 8 blocks, at least the goal/hazard/free split.
        QVERIFY(d.metrics.at(keys::metric::kBlocks) <= 8);
        const auto& b = d.labels.at(keys::label::kBlock);
        for (int r = 0; r < 4; ++r)
            for (int c = 0; c < 4; ++c)
                QCOMPARE(b[size_t(r * 4 + c)], b[size_t(r * 4 + 3 - c)]);
    }
    void deterministic() {
        const auto a = runEngine(9, {{"formula_samples", "300"}}),
                   b = runEngine(9, {{"formula_samples", "300"}});
        QCOMPARE(a.toJson(), b.toJson());
        const auto c = runEngine(10, {{"formula_samples", "300"}});
        QVERIFY(a.toJson() != c.toJson());
    }
    void resultKeys() {
        const auto d = runEngine(1, {{"formula_samples", "200"}});
        for (const char* k :
             {keys::vector::kValue, keys::vector::kInvariant, keys::vector::kReachProbability})
            QVERIFY2(d.vectors.count(k), k);
        QVERIFY(d.matrices.count(keys::matrix::kBisimMetric));
        QVERIFY(d.labels.count(keys::label::kBlock));
        for (const char* k :
             {keys::metric::kBlocks, keys::metric::kHomomorphismViolation, keys::metric::kBoundViolation})
            QVERIFY2(d.metrics.count(k), k);
        QVERIFY(d.series.count(keys::series::kAbstractionError));
        QCOMPARE(int(d.series.at(keys::series::kAbstractionError).x.size()), 17);
    }
};

QTEST_GUILESS_MAIN(TestBehavioralAbstraction)
#include "tst_behavioral_abstraction.moc"
