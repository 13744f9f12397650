#include "BobaRun.h"

#include "BobaScreeningKeys.h"
#include "Partitions.h"

#include "core/Errors.h"
#include "core/Numeric.h"
#include "core/ResultBuilders.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace pl::bandits {

namespace K = boba::keys;

BobaRun::BobaRun(const ParamSet& p, RunContext& ctx, ResultDocument& doc) : m_p(p), m_ctx(ctx), m_doc(doc) {
    m_s.policy = armPolicyFromString(p.getString(K::param::kPolicy));
    m_s.rounds = int(p.getInt(K::param::kRounds));
    m_s.batch = int(p.getInt(K::param::kBatch));
    m_s.armsPerRound = int(p.getInt(K::param::kArmsPerRound));
    m_s.subsample = int(p.getInt(K::param::kSubsample));
    m_s.c = p.getDouble(K::param::kC);
    m_s.beta = p.getDouble(K::param::kBeta);
    m_s.q = p.getDouble(K::param::kQ);
    m_s.noise = p.getDouble(K::param::kNoise);
    m_s.priorScale = p.getDouble(K::param::kPriorScale);
}

void BobaRun::step(const std::string& status, double fraction) {
    m_ctx.throwIfCancelled();
    m_ctx.progress(fraction, status);
}

void BobaRun::topSet(const std::vector<double>& y, std::vector<bool>& top) const {
    const size_t N = y.size();
    const size_t k = std::min(N, size_t(std::ceil(m_s.q * double(N))));
    std::vector<int64_t> order(N);
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(),
                     [&](int64_t a, int64_t b) { return y[size_t(a)] > y[size_t(b)]; });
    top.assign(N, false);
    for (size_t i = 0; i < k; ++i)
        top[size_t(order[i])] = true;
}

void BobaRun::buildLibrary(const InputList& inputs) {
    step("library", 0.01);
    if (inputs.size() > 1)
        throw UsageError("boba-screening takes at most one library file");
    if (!inputs.empty()) {
        const auto* in = dynamic_cast<const LibraryInput*>(inputs[0].get());
        if (!in)
            throw InputError(inputs[0]->path, "not a library loaded by boba-screening");
        if (!in->library.hasScore)
            throw InputError(inputs[0]->path,
                             "the library has no score column: the screen replays scored rows "
                             "(add id,partition_key,fingerprint,score)",
                             1);
        m_lib = in->library;
        m_standIn = false;
        m_doc.notes.push_back("Replay on " + inputs[0]->path + ": " + inputs[0]->summary + ".");
    } else {
        StandInSpec spec;
        spec.nA = int(m_p.getInt(K::param::kNA));
        spec.nB = int(m_p.getInt(K::param::kNB));
        spec.gammaA = m_p.getDouble(K::param::kGammaA);
        spec.omega = m_p.getDouble(K::param::kOmega);
        m_lib = standInLibrary(spec, m_ctx.seed());
    }
    const int64_t N = m_lib.fp.rows();
    if (int64_t(m_s.rounds) * m_s.batch >= N)
        throw UsageError("rounds x batch = " + std::to_string(int64_t(m_s.rounds) * m_s.batch) +
                         " evaluations need a library of more rows than " + std::to_string(N));
    const double sign = m_p.getString(K::param::kDirection) == "min" ? -1.0 : 1.0;
    m_y.resize(size_t(N));
    for (int64_t r = 0; r < N; ++r)
        m_y[size_t(r)] = sign * m_lib.score[size_t(r)];
    topSet(m_y, m_top);
    // Round 0: `batch` distinct rows drawn uniformly (the same for every method).
    Rng rng = Rng(m_ctx.seed()).fork("round0");
    std::vector<int64_t> pool(static_cast<size_t>(N));
    std::iota(pool.begin(), pool.end(), 0);
    for (int k = 0; k < m_s.batch; ++k) {
        std::swap(pool[size_t(k)], pool[size_t(k) + size_t(rng.uniformInt(uint64_t(N - k)))]);
        m_round0.push_back(pool[size_t(k)]);
    }
}

void BobaRun::makePartitions() {
    step("partitions", 0.05);
    const std::string scheme = m_p.getString(K::param::kPartition);
    const int64_t N = m_lib.fp.rows();
    if (scheme == "kmeans") {
        Rng rng = Rng(m_ctx.seed()).fork("kmeans");
        const int k =
            std::max<int>(2, int(m_lib.keyNames.size() > 1 ? m_lib.keyNames.size()
                                                           : size_t(std::lround(std::sqrt(double(N))))));
        m_armMain = kmeansPartition(m_lib.fp, k, rng, [this] { m_ctx.throwIfCancelled(); });
    } else if (scheme == "random") {
        Rng rng = Rng(m_ctx.seed()).fork("partition");
        m_armMain = randomPartition(N, std::max<int>(2, int(m_lib.keyNames.size())), rng);
    } else {
        m_armMain = m_lib.key;
        for (size_t r = 0; r < m_armMain.size(); ++r)
            if (m_armMain[r] < 0)
                throw InputError(
                    m_lib.ids.empty() ? "<library>" : "library",
                    "row " + std::to_string(r + 1) + " (id " + (m_lib.ids.empty() ? "" : m_lib.ids[r]) +
                        ") has no partition_key: set partition=kmeans to cluster the fingerprints");
    }
    m_numArms = armCount(m_armMain);
    Rng rng = Rng(m_ctx.seed()).fork("random_partition");
    m_armRandom = randomPartition(N, m_numArms, rng);
    m_numRandomArms = m_numArms;
}

ScreenOutcome BobaRun::runMethod(const std::string& method, const ScreenLibrary& lib,
                                 const std::vector<double>& y, const std::vector<bool>& top) {
    ScreenSettings s = m_s;
    const std::vector<int>* arm = &m_armMain;
    int numArms = m_numArms;
    if (method == "full")
        s.method = ScreenMethod::Full;
    else if (method == "random")
        s.method = ScreenMethod::Random;
    else if (method == "boba_random_partitions") {
        arm = &m_armRandom;
        numArms = m_numRandomArms;
    } else if (method == "boba_greedy")
        s.policy = ArmPolicy::Greedy;
    const Rng rng = Rng(m_ctx.seed()).fork("screen_" + method);
    return runScreen(lib.fp, y, *arm, numArms, top, m_round0, s, rng, [this] { m_ctx.throwIfCancelled(); });
}

void BobaRun::screen() {
    double f = 0.1;
    for (const char* method : K::kMethods) {
        step(std::string("screen: ") + method, f);
        m_out[method] = runMethod(method, m_lib, m_y, m_top);
        f += 0.15;
    }
}

void BobaRun::gammaStudy() {
    const double gamma = m_p.getDouble(K::param::kGammaA);
    m_gapGamma = m_out["boba"].recall - m_out["boba_random_partitions"].recall;
    if (!m_standIn || gamma <= 0)
        return;
    step("gamma_A = 0 study", 0.9);
    StandInSpec spec;
    spec.nA = int(m_p.getInt(K::param::kNA));
    spec.nB = int(m_p.getInt(K::param::kNB));
    spec.gammaA = 0;
    spec.omega = m_p.getDouble(K::param::kOmega);
    const ScreenLibrary lib0 = standInLibrary(spec, m_ctx.seed());
    const double sign = m_p.getString(K::param::kDirection) == "min" ? -1.0 : 1.0;
    std::vector<double> y0(lib0.score.size());
    for (size_t r = 0; r < y0.size(); ++r)
        y0[r] = sign * lib0.score[r];
    std::vector<bool> top0;
    topSet(y0, top0);
    m_gapZero =
        runMethod("boba", lib0, y0, top0).recall - runMethod("boba_random_partitions", lib0, y0, top0).recall;
    m_hasGammaStudy = true;
}

std::vector<int> BobaRun::armsByTrueMean(const std::vector<int>& arm, int numArms) const {
    std::vector<double> sum(size_t(numArms), 0.0), cnt(size_t(numArms), 0.0);
    for (size_t r = 0; r < arm.size(); ++r) {
        sum[size_t(arm[r])] += m_y[r];
        cnt[size_t(arm[r])] += 1;
    }
    std::vector<int> order(static_cast<size_t>(numArms));
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
        return sum[size_t(a)] / std::max(1.0, cnt[size_t(a)]) >
               sum[size_t(b)] / std::max(1.0, cnt[size_t(b)]);
    });
    return order;
}

void BobaRun::packResults() {
    step("result", 0.97);
    const int64_t N = m_lib.fp.rows();
    m_doc.metrics[K::metric::kLibrarySize] = double(N);
    m_doc.metrics[K::metric::kArms] = m_numArms;
    m_doc.metrics[K::metric::kTopSize] = double(std::count(m_top.begin(), m_top.end(), true));
    for (const char* method : K::kMethods) {
        const ScreenOutcome& o = m_out[method];
        m_doc.metrics[K::key(K::metric::kRecallPrefix, method)] = o.recall;
        m_doc.metrics[K::key(K::metric::kInferencesPrefix, method)] = double(o.inferences);
        m_doc.series[K::key(K::series::kRecallVsEvalsPrefix, method)] =
            seriesOf(o.evalsPerRound, o.recallPerRound, "oracle evaluations", "top-q recall");
        m_doc.series[K::key(K::series::kRecallVsInferencesPrefix, method)] =
            seriesOf(o.inferencesPerRound, o.recallPerRound, "surrogate inferences", "top-q recall");
    }
    const ScreenOutcome& b = m_out["boba"];
    std::vector<double> order(b.evalOrder.begin(), b.evalOrder.end());
    m_doc.vectors[K::vector::kEvalOrder] = order;
    m_doc.vectors[K::vector::kPosteriorMean] = toStd(b.posteriorMean);
    // Arm pulls: arms sorted by true mean (best first) x rounds 1..R-1.
    const std::vector<int> arms = armsByTrueMean(m_armMain, m_numArms);
    std::vector<int> rank(static_cast<size_t>(m_numArms));
    for (size_t i = 0; i < arms.size(); ++i)
        rank[size_t(arms[i])] = int(i);
    const int R = int(b.armsPerRoundChosen.size());
    Eigen::MatrixXd pulls = Eigen::MatrixXd::Zero(m_numArms, std::max(1, R));
    for (int r = 0; r < R; ++r)
        for (int a : b.armsPerRoundChosen[size_t(r)])
            pulls(rank[size_t(a)], r) = 1;
    std::vector<std::string> armNames;
    for (int a : arms)
        armNames.push_back(m_p.getString(K::param::kPartition) == "key" && size_t(a) < m_lib.keyNames.size()
                               ? m_lib.keyNames[size_t(a)]
                               : "arm " + std::to_string(a + 1));
    m_doc.matrices[K::matrix::kArmPulls] =
        matrixOf(pulls, armNames, numberedLabels("round ", std::max(1, R)));
    // Score map: arms x 50 bins of each arm's rows (in row order): best value; rows BOBA evaluated.
    constexpr int kBins = 50;
    Eigen::MatrixXd best = Eigen::MatrixXd::Constant(m_numArms, kBins, kNaN),
                    evals = Eigen::MatrixXd::Zero(m_numArms, kBins);
    std::vector<int64_t> seen(size_t(m_numArms), 0), size(size_t(m_numArms), 0);
    for (int a : m_armMain)
        ++size[size_t(a)];
    std::vector<int> bin(static_cast<size_t>(N));
    for (int64_t r = 0; r < N; ++r) {
        const int a = m_armMain[size_t(r)];
        const int k = int(seen[size_t(a)]++ * kBins / std::max<int64_t>(1, size[size_t(a)]));
        bin[size_t(r)] = k;
        double& cell = best(rank[size_t(a)], k);
        cell = std::isnan(cell) ? m_y[size_t(r)] : std::max(cell, m_y[size_t(r)]);
    }
    for (int64_t r : b.evalOrder)
        evals(rank[size_t(m_armMain[size_t(r)])], bin[size_t(r)]) += 1;
    m_doc.matrices[K::matrix::kScoreMap] = matrixOf(best, armNames, numberedLabels("bin ", kBins));
    m_doc.matrices[K::matrix::kEvaluatedMap] = matrixOf(evals, armNames, numberedLabels("bin ", kBins));
    m_doc.metrics[K::metric::kGapAtGamma] = m_gapGamma;
    if (m_hasGammaStudy)
        m_doc.metrics[K::metric::kGapAtGammaZero] = m_gapZero;
}

void BobaRun::checkClaims() {
    const double rB = m_out["boba"].recall, rF = m_out["full"].recall;
    const double iB = double(m_out["boba"].inferences), iF = double(m_out["full"].inferences);
    const double recallRatio = rF > 0 ? rB / rF : kNaN, infRatio = iF > 0 ? iB / iF : kNaN;
    const std::string setting = std::to_string(m_s.rounds) + " rounds of " + std::to_string(m_s.batch) +
                                " evaluations, top " + formatSignificant(100 * m_s.q, 3) + "% (" +
                                std::to_string(std::count(m_top.begin(), m_top.end(), true)) + " rows)";
    m_doc.claims.push_back(claimOf(K::claim::kRecallAtLowCost,
                                   "BOBA reaches at least 80% of full-library BO's top-q recall with at most "
                                   "30% of its surrogate inferences.",
                                   recallRatio >= 0.8 && infRatio <= 0.3, recallRatio, 0.8,
                                   "recall BOBA " + formatSignificant(rB, 3) + " vs full " +
                                       formatSignificant(rF, 3) + "; inferences " + formatSignificant(iB, 4) +
                                       " vs " + formatSignificant(iF, 4) + " (ratio " +
                                       formatSignificant(infRatio, 3) + ", must be <= 0.3); " + setting));
    const double gG = rB - m_out["boba_greedy"].recall, gR = rB - m_out["boba_random_partitions"].recall;
    m_doc.claims.push_back(
        claimOf(K::claim::kOptimismAndPartitions,
                "Greedy BOBA and BOBA on random partitions each score at least 10 recall points "
                "below BOBA.",
                std::min(gG, gR) >= 0.10, std::min(gG, gR), 0.10,
                "recall BOBA minus greedy: " + formatSignificant(gG, 3) +
                    ", minus random partitions: " + formatSignificant(gR, 3) + "; " + setting));
    if (m_hasGammaStudy)
        m_doc.claims.push_back(claimOf(
            K::claim::kDoseResponse, "The advantage of meaningful partitions shrinks as gamma_A -> 0.",
            m_gapZero < m_gapGamma, m_gapZero, m_gapGamma,
            "recall(BOBA) - recall(BOBA on random partitions): " + formatSignificant(m_gapGamma, 3) +
                " at gamma_A = " + formatSignificant(m_p.getDouble(K::param::kGammaA), 3) + ", " +
                formatSignificant(m_gapZero, 3) + " at gamma_A = 0 (same seed and library otherwise)"));
}

} // namespace pl::bandits
