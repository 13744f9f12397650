#include "KeypointsRun.h"

#include "KeypointsKeys.h"

#include "core/Errors.h"
#include "core/Numeric.h"
#include "core/ResultBuilders.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <map>
#include <numeric>
#include <set>

namespace pl::keypoints {

namespace {

namespace P = keypoints::keys::param;
namespace M = keypoints::keys::metric;
namespace S = keypoints::keys::series;
namespace X = keypoints::keys::matrix;
namespace V = keypoints::keys::vector;
namespace L = keypoints::keys::label;
namespace G = keypoints::keys::graph;
namespace A = keypoints::keys::attr;
namespace C = keypoints::keys::claim;

const Method kMethods[kMethodCount] = {Method::Keypoints, Method::Flat, Method::TimeSubgoals,
                                       Method::ValueSubgoals};

double mean(const std::vector<double>& v) {
    return v.empty() ? kNaN : std::accumulate(v.begin(), v.end(), 0.0) / double(v.size());
}

/// Least-squares slope of y on x.
double slope(const std::vector<double>& x, const std::vector<double>& y) {
    const double mx = mean(x), my = mean(y);
    double sxy = 0, sxx = 0;
    for (size_t i = 0; i < x.size(); ++i) {
        sxy += (x[i] - mx) * (y[i] - my);
        sxx += (x[i] - mx) * (x[i] - mx);
    }
    return sxx > 0 ? sxy / sxx : 0;
}

std::string fmt(double v, int prec = 3) {
    return formatSignificant(v, prec);
}

} // namespace

KeypointsRun::KeypointsRun(Maze maze, const ParamSet& p, RunContext& ctx, ResultDocument& doc)
    : m_p(p), m_ctx(ctx), m_doc(doc), m_root(ctx.seed()), m_poll([&ctx] { ctx.throwIfCancelled(); }),
      m_maze(std::move(maze)) {}

KeypointsRun::~KeypointsRun() = default;

void KeypointsRun::collectData() {
    const ParamSet& p = m_p;
    m_dopt.trajectories = int(p.getInt(P::kTrajectories));
    m_dopt.length = int(p.getInt(P::kTrajLength));
    const std::string& beh = p.getString(P::kBehaviour);
    m_dopt.behaviour = beh == "random_walk" ? Behaviour::RandomWalk
                       : beh == "mixed"     ? Behaviour::Mixed
                                            : Behaviour::NoisyGoal;
    m_dopt.noise = p.getDouble(P::kBehaviourNoise);
    m_dopt.coverage = p.getDouble(P::kCoverage);
    m_dopt.slip = p.getDouble(P::kSlip);
    Rng dataRng = m_root.fork("dataset");
    m_data = collectDataset(m_maze, m_dopt, dataRng, m_poll);
    m_graph = buildStateGraph(m_maze, m_data);
    m_tm = buildTransitionModel(m_maze, m_data);
    m_n = int(m_graph.cells.size());
    if (m_n < 3)
        throw EngineError("the dataset's state graph has fewer than 3 cells; collect more data");
    m_ctx.throwIfCancelled();
    m_ctx.progress(0.15, "spectral embedding");
}

void KeypointsRun::clusterSpectrally() {
    const int n = m_n;
    const SpMat Lsym = normalisedLaplacian(m_graph.W);
    const int nev = std::min<int>(int(m_p.getInt(P::kEigenpairs)), n - 1);
    m_eig = smallestEigenpairs(Lsym, nev, m_poll);
    const int kFixed = int(m_p.getInt(P::kClusters));
    int k = kFixed > 0 ? kFixed : eigengapClusters(m_eig.values, 2);
    if (k > nev) {
        if (kFixed > 0)
            throw UsageError(
                "clusters = " + std::to_string(k) + " needs as many eigenpairs; " + std::to_string(nev) +
                " computed (param eigenpairs, and at most graph nodes - 1 = " + std::to_string(n - 1) + ")");
        k = nev;
    }
    k = std::min(k, n);
    m_k = k;
    const Eigen::MatrixXd emb = njwEmbedding(m_eig.vectors, k);
    Rng kmRng = m_root.fork("kmeans");
    m_km = kmeans(emb, k, kmRng, 10, 100);
    m_cluster.assign(size_t(m_maze.size()), -1);
    for (int i = 0; i < n; ++i)
        m_cluster[size_t(m_graph.cells[size_t(i)])] = m_km.labels[size_t(i)];
    m_ctx.throwIfCancelled();
    m_ctx.progress(0.3, "keypoints");
}

void KeypointsRun::placeKeypoints() {
    m_kopt.minCrossings = int(m_p.getInt(P::kMinCrossings));
    m_kopt.medoids = int(m_p.getInt(P::kMedoids));
    m_kopt.radius = int(m_p.getInt(P::kKpRadius));
    m_kopt.horizon = int(m_p.getInt(P::kHopHorizon));
    m_kps = findKeypoints(m_maze, m_data, m_cluster, m_kopt);
}

void KeypointsRun::packStructure() {
    for (int c = 0; c < m_maze.size(); ++c)
        if (m_maze.isFree(c))
            m_freeCells.push_back(c);
    packMazeAndClusters();
    packSpectrum();
    packKeypointGraph();
    packStructureMetrics();
}

void KeypointsRun::packMazeAndClusters() {
    ResultDocument& doc = m_doc;
    Matrix mz;
    mz.rows = m_maze.rows;
    mz.cols = m_maze.cols;
    for (int c = 0; c < m_maze.size(); ++c)
        mz.data.push_back(m_maze.wall[size_t(c)] ? 1.0 : 0.0);
    doc.matrices[X::kMaze] = mz;
    auto& lab = doc.labels[L::kCluster];
    auto& cand = doc.labels[L::kCandidate];
    const std::set<int> candSet(m_kps.candidateCells.begin(), m_kps.candidateCells.end());
    for (int c : m_freeCells) {
        lab.push_back(m_cluster[size_t(c)]);
        cand.push_back(candSet.count(c) ? 1 : 0);
    }
    if (!m_maze.room.empty()) {
        auto& room = doc.labels[L::kRoom];
        for (int c : m_freeCells)
            room.push_back(m_maze.room[size_t(c)]);
    }
}

void KeypointsRun::packSpectrum() {
    Series spec = emptySeries("index i", "eigenvalue of L_sym");
    for (int i = 0; i < m_eig.values.size(); ++i)
        addPoint(spec, i, m_eig.values(i));
    m_doc.series[S::kSpectrum] = spec;
    // Eigenvectors shown as the random-walk eigenvectors D^{-1/2} u (scaled to unit maximum
    // magnitude): L_sym's own vectors carry a sqrt(degree) factor that highlights busy cells.
    Eigen::VectorXd deg = Eigen::VectorXd::Zero(m_n);
    for (int kk = 0; kk < m_graph.W.outerSize(); ++kk)
        for (SpMat::InnerIterator it(m_graph.W, kk); it; ++it)
            deg(it.row()) += it.value();
    for (int j = 1; j < std::min<int>(int(m_eig.vectors.cols()), 7); ++j) {
        Eigen::VectorXd u = m_eig.vectors.col(j).cwiseQuotient(deg.cwiseSqrt().cwiseMax(1e-300));
        const double mx = u.cwiseAbs().maxCoeff();
        if (mx > 0)
            u /= mx;
        std::vector<double> v;
        for (int c : m_freeCells) {
            const int node = m_graph.nodeOfCell[size_t(c)];
            v.push_back(node >= 0 ? u(node) : kNaN);
        }
        m_doc.vectors[V::kEigvecPrefix + std::to_string(j)] = v;
    }
}

void KeypointsRun::packKeypointGraph() {
    Graph g;
    g.directed = true;
    for (size_t i = 0; i < m_kps.keypoints.size(); ++i) {
        const Keypoint& kp = m_kps.keypoints[i];
        GraphNode node;
        node.id = int64_t(i);
        node.label = "K" + std::to_string(i);
        node.attrs[A::kRow] = kp.cell / m_maze.cols;
        node.attrs[A::kCol] = kp.cell % m_maze.cols;
        node.attrs[A::kClusterA] = kp.clusterA;
        node.attrs[A::kClusterB] = kp.clusterB;
        g.nodes.push_back(node);
    }
    for (const auto& e : m_kps.edges) {
        GraphEdge ge;
        ge.source = e.source;
        ge.target = e.target;
        ge.weight = e.cost;
        ge.attrs[A::kSupport] = e.support;
        g.edges.push_back(ge);
    }
    m_doc.graphs[G::kKpGraph] = g;
    if (!m_maze.doors.empty()) {
        std::vector<double> d;
        for (int c : m_maze.doors)
            d.push_back(c);
        m_doc.vectors[V::kDoors] = d;
    }
}

void KeypointsRun::packStructureMetrics() {
    auto& mt = m_doc.metrics;
    const int k = m_k;
    mt[M::kRows] = m_maze.rows;
    mt[M::kCols] = m_maze.cols;
    mt[M::kFreeCells] = double(m_freeCells.size());
    mt[M::kGraphNodes] = m_n;
    mt[M::kGraphEdges] = double(m_graph.W.nonZeros() / 2);
    mt[M::kDatasetTransitions] = double(m_data.transitions());
    mt[M::kCoverageFraction] = double(m_n) / double(m_freeCells.size());
    mt[M::kClusters] = k;
    mt[M::kClustersEigengap] = eigengapClusters(m_eig.values, 2);
    mt[M::kEigengap] = k < m_eig.values.size() ? m_eig.values(k) - m_eig.values(k - 1) : kNaN;
    mt[M::kLanczosIterations] = m_eig.iterations;
    mt[M::kKmeansInertia] = m_km.inertia;
    mt[M::kCandidates] = double(m_kps.candidateCells.size());
    mt[M::kBoundaries] = double(m_kps.boundaries.size());
    mt[M::kKeypoints] = double(m_kps.keypoints.size());
    mt[M::kKpEdges] = double(m_kps.edges.size());
    if (!m_maze.room.empty()) {
        std::vector<int> a, b;
        for (int c : m_freeCells) {
            a.push_back(m_cluster[size_t(c)]);
            b.push_back(m_maze.room[size_t(c)]);
        }
        mt[M::kRoomAri] = adjustedRandIndex(a, b);
    }
}

void KeypointsRun::checkDoorClaim() {
    if (m_maze.doors.empty()) {
        m_doc.notes.push_back(
            "No ground-truth doors for this maze: the keypoints-at-doors claim is not evaluated.");
        return;
    }
    int covered = 0, worst = 0;
    for (int door : m_maze.doors) {
        int best = std::numeric_limits<int>::max();
        for (const auto& kp : m_kps.keypoints)
            best = std::min(best, std::abs(kp.cell / m_maze.cols - door / m_maze.cols) +
                                      std::abs(kp.cell % m_maze.cols - door % m_maze.cols));
        covered += best <= 2 ? 1 : 0;
        worst = std::max(worst, best == std::numeric_limits<int>::max() ? 999 : best);
    }
    const double frac = double(covered) / double(m_maze.doors.size());
    m_doc.metrics[M::kDoorCoverage] = frac;
    m_doc.claims.push_back(claimOf(
        C::kKeypointsAtDoors,
        "Keypoints sit at the doors between rooms: every door has a keypoint within two cells.",
        covered == int(m_maze.doors.size()), frac, 1.0,
        std::to_string(covered) + " of " + std::to_string(m_maze.doors.size()) +
            " doors have a keypoint within Manhattan distance 2 (worst door: " + std::to_string(worst) +
            " cells; k = " + std::to_string(m_k) + ", " + std::to_string(m_kps.keypoints.size()) +
            " keypoints)."));
}

void KeypointsRun::sampleQueries() {
    const int episodes = int(m_p.getInt(P::kEpisodes));
    const int bins = m_bins;
    const int n = m_n;
    Rng pairRng = m_root.fork("pairs");
    // Largest true distance within the graph's cells, from a double sweep.
    int maxD = 1;
    {
        const auto d0 = m_maze.bfs(m_graph.cells[0]);
        int far = m_graph.cells[0];
        for (int c : m_graph.cells)
            if (d0[size_t(c)] > d0[size_t(far)])
                far = c;
        const auto d1 = m_maze.bfs(far);
        for (int c : m_graph.cells)
            maxD = std::max(maxD, d1[size_t(c)]);
    }
    const double binW = double(maxD) / bins;
    m_binW = binW;
    for (int e = 0; e < episodes; ++e) {
        const int bin = e % bins;
        Query q{-1, -1, -1, bin};
        for (int tries = 0; tries < 200; ++tries) {
            const int s = m_graph.cells[size_t(pairRng.uniformInt(uint64_t(n)))];
            const auto ds = m_maze.bfs(s);
            // Goals whose distance falls in the bin.
            std::vector<int> ok;
            for (int c : m_graph.cells)
                if (ds[size_t(c)] > 0 && std::min(bins - 1, int((ds[size_t(c)] - 1) / binW)) == bin)
                    ok.push_back(c);
            if (ok.empty())
                continue;
            q.start = s;
            q.goal = ok[size_t(pairRng.uniformInt(ok.size()))];
            q.dist = ds[size_t(q.goal)];
            break;
        }
        if (q.start >= 0)
            m_queries.push_back(q);
        if (e % 8 == 0)
            m_ctx.throwIfCancelled();
    }
}

void KeypointsRun::evaluateGoalReaching() {
    m_ctx.progress(0.4, "evaluating goal reaching");
    // Stratified start-goal pairs (true distances only for binning).
    m_ropt.controllerHorizon = int(m_p.getInt(P::kControllerHorizon));
    m_ropt.maxSteps = int(m_p.getInt(P::kMaxSteps));
    m_ropt.subgoalSteps = int(m_p.getInt(P::kSubgoalSteps));
    m_ropt.slip = m_dopt.slip;
    m_reacher = std::make_unique<GoalReacher>(m_maze, m_data, m_tm, m_kps, m_kopt, m_ropt);
    m_bins = int(m_p.getInt(P::kDistanceBins));
    const int bins = m_bins;
    sampleQueries();
    m_succ.assign(kMethodCount, std::vector<double>(size_t(bins), 0.0));
    m_cnt.assign(size_t(bins), 0.0);
    Rng evalRng = m_root.fork("evaluation");
    for (size_t qi = 0; qi < m_queries.size(); ++qi) {
        const Query& q = m_queries[qi];
        m_cnt[size_t(q.bin)] += 1;
        const Rng epRng = evalRng.fork("episode" + std::to_string(qi));
        for (int mi = 0; mi < kMethodCount; ++mi) {
            Rng r = epRng; // common random numbers across methods
            const Episode ep = m_reacher->run(kMethods[mi], q.start, q.goal, r);
            m_succ[size_t(mi)][size_t(q.bin)] += ep.success ? 1 : 0;
            m_total[mi] += ep.success ? 1 : 0;
            m_steps[mi] += ep.success ? ep.steps : 0;
        }
        m_ctx.throwIfCancelled();
        m_ctx.progress(0.4 + 0.45 * double(qi + 1) / double(m_queries.size()), "evaluating goal reaching");
    }
    const double nq = std::max<double>(1, double(m_queries.size()));
    for (int b = 0; b < bins; ++b)
        m_binCentre.push_back(1 + (b + 0.5) * m_binW);
    m_rate.assign(kMethodCount, {});
    for (int mi = 0; mi < kMethodCount; ++mi) {
        const std::string key = methodKey(kMethods[mi]);
        m_doc.metrics[M::kSuccessRatePrefix + key] = m_total[mi] / nq;
        m_doc.metrics[M::kMeanStepsPrefix + key] = m_total[mi] > 0 ? m_steps[mi] / m_total[mi] : kNaN;
        Series s = emptySeries("start-goal distance (steps)", "success rate");
        for (int b = 0; b < bins; ++b) {
            if (m_cnt[size_t(b)] == 0)
                continue;
            addPoint(s, m_binCentre[size_t(b)], m_succ[size_t(mi)][size_t(b)] / m_cnt[size_t(b)]);
        }
        m_rate[size_t(mi)] = s.y;
        m_doc.series[S::kSuccessVsDistancePrefix + key] = s;
    }
    m_doc.metrics[M::kEvaluationEpisodes] = double(m_queries.size());
}

void KeypointsRun::checkSuccessClaims() {
    const double nq = std::max<double>(1, double(m_queries.size()));
    const double* total = m_total;
    const double kp = total[0] / nq;
    const double best = std::max({total[1], total[2], total[3]}) / nq;
    int bestIdx = 1;
    for (int mi = 2; mi < kMethodCount; ++mi)
        if (total[mi] > total[bestIdx])
            bestIdx = mi;
    m_doc.claims.push_back(claimOf(C::kKpAtLeastBestBaseline,
                                   "Keypoint planning's success rate is at least the best baseline's.",
                                   kp >= best, kp - best, 0.0,
                                   "Success over " + std::to_string(m_queries.size()) +
                                       " stratified start-goal pairs: "
                                       "keypoints " +
                                       fmt(kp) + ", best baseline (" + methodLabel(kMethods[bestIdx]) + ") " +
                                       fmt(best) + "; observed = difference."));
    std::vector<double> adv, xs;
    size_t bi = 0;
    for (int b = 0; b < m_bins; ++b) {
        if (m_cnt[size_t(b)] == 0)
            continue;
        double bb = 0;
        for (int mi = 1; mi < kMethodCount; ++mi)
            bb = std::max(bb, m_rate[size_t(mi)][bi]);
        adv.push_back(m_rate[0][bi] - bb);
        xs.push_back(m_binCentre[size_t(b)]);
        ++bi;
    }
    const double sl = slope(xs, adv);
    const double gain = adv.empty() ? 0 : adv.back() - adv.front();
    std::string advText;
    for (double a : adv)
        advText += (advText.empty() ? "" : ", ") + fmt(a, 2);
    m_doc.metrics[M::kKpAdvantageSlope] = sl;
    m_doc.claims.push_back(
        claimOf(C::kKpAdvantageGrowsWithDistance,
                "The keypoint planner's advantage over the best baseline grows with start-goal distance.",
                sl > 0 && gain > 0, sl, 0.0,
                "Advantage over the best baseline per distance bin (near to far): " + advText +
                    "; observed = least-squares slope per step of distance, farthest minus nearest bin = " +
                    fmt(gain, 2) + "."));
    m_ctx.progress(0.87, "hitting times");
}

void KeypointsRun::checkHittingTimeClaim() {
    // Expected hitting time through the first keypoint vs the time-based subgoal.
    const int hq = int(m_p.getInt(P::kHittingQueries));
    if (hq <= 0)
        return;
    std::vector<double> jKp, jTime;
    std::map<int, std::vector<double>> cache; // target node -> hitting times
    auto h = [&](int fromCell, int toCell) {
        const int tn = m_graph.nodeOfCell[size_t(toCell)], fn = m_graph.nodeOfCell[size_t(fromCell)];
        auto it = cache.find(tn);
        if (it == cache.end())
            it = cache.emplace(tn, hittingTimes(m_graph.W, tn)).first;
        return it->second[size_t(fn)];
    };
    int wins = 0;
    for (const Query& q : m_queries) {
        if (int(jKp.size()) >= hq)
            break;
        if (m_cluster[size_t(q.start)] == m_cluster[size_t(q.goal)])
            continue;
        const auto plan = planThroughKeypoints(m_maze, m_data, m_tm, m_kps, q.start, q.goal, m_kopt);
        if (plan.size() < 2 || plan[0] == q.start)
            continue;
        Rng tsRng = m_root.fork("hitting" + std::to_string(q.start) + "-" + std::to_string(q.goal));
        const int ts = m_reacher->timeSubgoal(q.start, q.goal, tsRng);
        if (ts < 0 || ts == q.start || m_graph.nodeOfCell[size_t(ts)] < 0)
            continue;
        const double a = h(q.start, plan[0]) + h(plan[0], q.goal);
        const double b = h(q.start, ts) + h(ts, q.goal);
        jKp.push_back(a);
        jTime.push_back(b);
        wins += a < b ? 1 : 0;
        m_ctx.throwIfCancelled();
    }
    if (jKp.empty()) {
        m_doc.notes.push_back(
            "No cross-cluster query with a keypoint plan: hitting-time claim not evaluated.");
        return;
    }
    const double ma = mean(jKp), mb = mean(jTime);
    m_doc.metrics[M::kHittingTimeKp] = ma;
    m_doc.metrics[M::kHittingTimeTimeSubgoal] = mb;
    m_doc.claims.push_back(claimOf(
        C::kBottleneckShorterHittingTime,
        "Routing through the bottleneck keypoint gives a shorter expected hitting "
        "time than the time-based "
        "subgoal.",
        ma < mb, ma / mb, 1.0,
        "Random walk on the dataset graph, J(c) = h(s->c) + h(c->g) over " + std::to_string(jKp.size()) +
            " cross-cluster queries: mean J(first keypoint) = " + fmt(ma, 4) +
            ", mean J(time-based subgoal) = " + fmt(mb, 4) + " steps; the keypoint is better in " +
            std::to_string(wins) + " of them; observed = ratio."));
}

void KeypointsRun::packRollout() {
    // One start-goal pair: the maze's S/G, else the farthest pair.
    const int s =
        m_maze.start >= 0 && m_graph.nodeOfCell[size_t(m_maze.start)] >= 0 ? m_maze.start : m_graph.cells[0];
    int goal = m_maze.goal >= 0 && m_graph.nodeOfCell[size_t(m_maze.goal)] >= 0 ? m_maze.goal : -1;
    if (goal < 0) {
        const auto ds = m_maze.bfs(s);
        goal = m_graph.cells.back();
        for (int c : m_graph.cells)
            if (ds[size_t(c)] > ds[size_t(goal)])
                goal = c;
    }
    ResultDocument& doc = m_doc;
    doc.metrics[M::kRolloutStart] = s;
    doc.metrics[M::kRolloutStep] = double(m_p.getInt(P::kRolloutStep));
    doc.metrics[M::kRolloutGoal] = goal;
    doc.metrics[M::kRolloutDistance] = m_maze.bfs(s)[size_t(goal)];
    const Rng rr = m_root.fork("rollout");
    for (Method m : kMethods) {
        Rng r = rr;
        const Episode ep = m_reacher->run(m, s, goal, r);
        std::vector<double> path(ep.path.begin(), ep.path.end());
        doc.vectors[std::string(V::kRolloutPrefix) + methodKey(m)] = path;
        doc.metrics[std::string(M::kRolloutSuccessPrefix) + methodKey(m)] = ep.success ? 1 : 0;
        if (m == Method::Keypoints) {
            doc.vectors[V::kRolloutSubgoalsKp] = std::vector<double>(ep.subgoals.begin(), ep.subgoals.end());
            doc.vectors[V::kRolloutTargetKp] = std::vector<double>(ep.targetAt.begin(), ep.targetAt.end());
        }
    }
    const auto plan = planThroughKeypoints(m_maze, m_data, m_tm, m_kps, s, goal, m_kopt);
    doc.vectors[V::kRolloutPlan] = std::vector<double>(plan.begin(), plan.end());
}

} // namespace pl::keypoints
