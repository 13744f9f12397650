#include "convimg/PersuasionEngine.h"

#include "convimg/PersuasionKeys.h"
#include "convimg/PersuasionSearch.h"
#include "core/Errors.h"
#include "core/Numeric.h"
#include "core/ResultBuilders.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace pl::convimg {

namespace P = persuasion::keys::param;
namespace K = persuasion::keys;

namespace {

std::vector<double> midRanks(const std::vector<double>& v) {
    std::vector<size_t> idx(v.size());
    std::iota(idx.begin(), idx.end(), 0);
    std::stable_sort(idx.begin(), idx.end(), [&](size_t a, size_t b) { return v[a] < v[b]; });
    std::vector<double> r(v.size());
    for (size_t i = 0; i < idx.size();) {
        size_t j = i;
        while (j + 1 < idx.size() && v[idx[j + 1]] == v[idx[i]])
            ++j;
        for (size_t k = i; k <= j; ++k)
            r[idx[k]] = 0.5 * double(i + j) + 1;
        i = j + 1;
    }
    return r;
}

struct Setup {
    AgentTaste taste = AgentTaste::Planted;
    Optimiser opt = Optimiser::Vfd;
    int products = 5, size = 48, queries = 2000, iterations = 30, bootstrap = 50, evalDuels = 400;
    double tau = 1, bPos = 0.3, l2 = 0.01;
};

Setup setupFrom(const ParamSet& p) {
    Setup s;
    const std::string a = p.getString(P::kAgent), o = p.getString(P::kOptimiser);
    s.taste = a == "brightness" ? AgentTaste::Brightness
              : a == "layout"   ? AgentTaste::Layout
                                : AgentTaste::Planted;
    s.opt = o == "cvpo" ? Optimiser::Cvpo : o == "vtg" ? Optimiser::Vtg : Optimiser::Vfd;
    s.products = int(p.getInt(P::kProducts));
    s.size = int(p.getInt(P::kImageSize));
    s.queries = int(p.getInt(P::kQueries));
    s.iterations = int(p.getInt(P::kIterations));
    s.bootstrap = int(p.getInt(P::kBootstrap));
    s.evalDuels = int(p.getInt(P::kEvalDuels)) & ~1;
    s.tau = p.getDouble(P::kTau);
    s.bPos = p.getDouble(P::kBPos);
    s.l2 = p.getDouble(P::kBtL2);
    return s;
}

/// Bootstrap percentile interval (2.5%, 97.5%) of the BT coefficients on resampled duels.
void bootstrapCi(const Eigen::MatrixXd& X, const std::vector<int>& s, const std::vector<int>& o, double l2,
                 int reps, Rng rng, RunContext& ctx, std::vector<double>& lo, std::vector<double>& hi) {
    const Eigen::Index d = X.cols(), n = X.rows();
    std::vector<std::vector<double>> draws(static_cast<size_t>(d));
    Eigen::MatrixXd Xb(n, d);
    std::vector<int> sb(static_cast<size_t>(n)), ob(static_cast<size_t>(n));
    for (int r = 0; r < reps; ++r) {
        ctx.throwIfCancelled();
        for (Eigen::Index i = 0; i < n; ++i) {
            const auto j = Eigen::Index(rng.uniformInt(uint64_t(n)));
            Xb.row(i) = X.row(j);
            sb[size_t(i)] = s[size_t(j)];
            ob[size_t(i)] = o[size_t(j)];
        }
        const BtFit f = fitBradleyTerry(Xb, sb, ob, l2, 50, 1e-8);
        for (Eigen::Index e = 0; e < d; ++e)
            draws[size_t(e)].push_back(f.coef(e));
    }
    lo.assign(size_t(d), kNaN);
    hi.assign(size_t(d), kNaN);
    for (Eigen::Index e = 0; e < d && reps > 1; ++e) {
        auto& v = draws[size_t(e)];
        std::sort(v.begin(), v.end());
        lo[size_t(e)] = v[size_t(std::floor(0.025 * (reps - 1)))];
        hi[size_t(e)] = v[size_t(std::ceil(0.975 * (reps - 1)))];
    }
}

/// Luminance of the originals (top row) and the optimised images (bottom row) of the first three
/// products, separated by NaN.
Eigen::MatrixXd imageStrip(int products, int size, const Variant& best) {
    const int shown = std::min(products, 3);
    Eigen::MatrixXd m = Eigen::MatrixXd::Constant(2 * size + 2, shown * (size + 2) - 2, kNaN);
    for (int p = 0; p < shown; ++p) {
        m.block(0, p * (size + 2), size, size) = luminance(renderProduct(p, originalVariant(), size));
        m.block(size + 2, p * (size + 2), size, size) = luminance(renderProduct(p, best, size));
    }
    return m;
}

/// Pairwise win rates (row beats column, both orders) among the original, the optimised variant and
/// the proposals with the highest fitted BT utility (up to 6 in all), on fresh duels.
void packPairwise(DuelOracle& oracle, const SearchOutcome& so, const Eigen::VectorXd& coef, Rng rng,
                  ResultDocument& doc) {
    std::vector<Variant> top{originalVariant(), so.best};
    std::vector<std::pair<double, Variant>> ranked;
    for (const Variant& v : so.proposed)
        ranked.push_back({coef.dot(editIndicators(v)), v});
    std::stable_sort(ranked.begin(), ranked.end(),
                     [](const auto& a, const auto& b) { return a.first > b.first; });
    for (const auto& [u, v] : ranked)
        if (top.size() < 6 && std::find(top.begin(), top.end(), v) == top.end())
            top.push_back(v);
    const Eigen::Index n = Eigen::Index(top.size());
    Eigen::MatrixXd w = Eigen::MatrixXd::Constant(n, n, kNaN);
    std::vector<std::string> labels;
    for (Eigen::Index i = 0; i < n; ++i) {
        labels.push_back(i == 0 ? "original" : i == 1 ? "optimised" : "V" + std::to_string(i - 1));
        for (Eigen::Index j = i + 1; j < n; ++j) {
            const double r = oracle.duels(top[size_t(i)], top[size_t(j)], 40, rng, false) / 40.0;
            w(i, j) = r;
            w(j, i) = 1 - r;
        }
    }
    doc.matrices[K::matrix::kPairwise] = matrixOf(w, labels, labels);
    for (Eigen::Index i = 2; i < n; ++i)
        doc.notes.push_back(labels[size_t(i)] + " = " + variantText(top[size_t(i)]));
}

/// The choice-log route: one utility per image and a position term.
void fitLog(const ChoiceLogInput& in, double l2, ResultDocument& doc) {
    const ChoiceLog& log = in.log;
    const BtFit f = fitBradleyTerry(log.differenceFeatures(), log.s, log.o, l2);
    doc.vectors[K::vector::kBtUtility] = std::vector<double>(f.coef.data(), f.coef.data() + f.coef.size());
    doc.matrices[K::matrix::kLogUtility] = matrixOf(f.coef, log.names, {"utility"});
    doc.metrics[K::metric::kPositionBias] = f.positionBias;
    doc.metrics[K::metric::kLogLikelihood] = f.logLikelihood;
    doc.metrics[K::metric::kLogDuels] = double(log.s.size());
    doc.notes.push_back("choice log " + in.path + ": " + std::to_string(log.s.size()) + " duels among " +
                        std::to_string(log.names.size()) + " images");
    if (log.degenerate())
        doc.notes.push_back(
            "warning: " + in.path +
            ": every choice is identical (all first shown, all second shown or all "
            "image_a); the utilities are not identifiable and reflect the prior (bt_l2) only");
}

/// The three claims of the issue, from the reported metrics.
void packClaims(ResultDocument& doc, int searchDuels) {
    const auto& m = doc.metrics;
    const double rate = m.at(K::metric::kWinRate), rateN = m.at(K::metric::kWinRateNormalised);
    const double removed = m.at(K::metric::kExcessRemoved), rho = m.at(K::metric::kSpearman);
    const double lcb = m.at(K::metric::kWinRateLcb);
    const int wins = int(m.at(K::metric::kDuelWins)), duels = int(m.at(K::metric::kDuels));
    doc.claims.push_back(claimOf(
        K::claim::kWins,
        "The optimised edits win at least 70% of fresh duels against the original, with a Wilson 95% lower "
        "bound above 0.5.",
        rate >= 0.7 && lcb > 0.5, rate, 0.7,
        std::to_string(wins) + " of " + std::to_string(duels) +
            " fresh duels (both orders), Wilson lower bound " + formatSignificant(lcb, 3) + "; " +
            std::to_string(int(m.at(K::metric::kQueriesUsed))) + " search queries"));
    doc.claims.push_back(claimOf(
        K::claim::kSpearman,
        "The Bradley-Terry coefficients of the edits rank like the planted effects (Spearman >= 0.8).",
        std::isfinite(rho) && rho >= 0.8, rho, 0.8,
        "Spearman (mid-ranks) over " + std::to_string(editCount()) + " edits, BT fitted on the search's " +
            std::to_string(searchDuels) + " duels"));
    doc.claims.push_back(
        claimOf(K::claim::kNormalisation,
                "Visual normalisation removes at least 50% of the excess win rate (win rate - 0.5).",
                std::isfinite(removed) && removed >= 0.5, removed, 0.5,
                "win rate " + formatSignificant(rate, 3) + " raw, " + formatSignificant(rateN, 3) +
                    " with both images normalised (background uniform, recentred, luminance standardised)"));
}

} // namespace

double spearmanMidRank(const std::vector<double>& a, const std::vector<double>& b) {
    const std::vector<double> ra = midRanks(a), rb = midRanks(b);
    const Eigen::Map<const Eigen::VectorXd> x(ra.data(), Eigen::Index(ra.size())),
        y(rb.data(), Eigen::Index(rb.size()));
    const Eigen::VectorXd xc = x.array() - x.mean(), yc = y.array() - y.mean();
    const double den = std::sqrt(xc.squaredNorm() * yc.squaredNorm());
    return den > 0 ? xc.dot(yc) / den : kNaN;
}

std::vector<ParamSpec> PersuasionEngine::params() const {
    auto grp = [](ParamSpec s, const char* g) {
        s.group = g;
        return s;
    };
    return {
        grp(ParamSpec::choice(P::kAgent, "agent", {"planted", "brightness", "layout"}, "planted",
                              "stand-in agent's planted taste: planted (brightness, centring, warm "
                              "background, shadow, clutter), brightness only, or layout"),
            "agent"),
        grp(ParamSpec::real(P::kTau, "temperature tau", 0.1, 5, 1, "decision temperature"), "agent"),
        grp(ParamSpec::real(P::kBPos, "position bias b_pos", 0, 1, 0.3, "utility bonus of the first shown"),
            "agent"),
        grp(ParamSpec::integer(P::kProducts, "products", 1, 20, 5, "products rendered (identity fixed)"),
            "images"),
        grp(ParamSpec::integer(P::kImageSize, "image size", 32, 128, 48, "pixels per side", "px"), "images"),
        grp(ParamSpec::choice(P::kOptimiser, "optimiser", {"vfd", "cvpo", "vtg"}, "vfd",
                              "vfd: cross-entropy proposals; cvpo: Swiss tournaments; vtg: BT critic + UCB"),
            "search"),
        grp(ParamSpec::integer(P::kQueries, "query budget", 100, 100000, 2000,
                               "agent duels the search may ask"),
            "search"),
        grp(ParamSpec::integer(P::kIterations, "iterations", 5, 200, 30, "optimiser iterations"), "search"),
        grp(ParamSpec::real(P::kBtL2, "bt_l2", 1e-4, 10, 0.01, "L2 on the BT utilities / coefficients", {},
                            true),
            "analysis"),
        grp(ParamSpec::integer(P::kBootstrap, "bootstrap", 0, 500, 50, "resamples for the coefficient CIs"),
            "analysis"),
        grp(ParamSpec::integer(P::kEvalDuels, "evaluation duels", 20, 10000, 400,
                               "fresh duels optimised vs original (both orders), outside the budget"),
            "analysis"),
    };
}

std::shared_ptr<const LoadedInput> PersuasionEngine::load(const std::string& path) const {
    auto in = std::make_shared<ChoiceLogInput>();
    in->log = readChoiceLog(path);
    in->path = path;
    in->kind = "choice-log";
    in->summary = "choice log: " + std::to_string(in->log.s.size()) + " duels, " +
                  std::to_string(in->log.names.size()) + " images";
    return in;
}

ResultDocument PersuasionEngine::run(const InputList& inputs, const ParamSet& p, RunContext& ctx) const {
    ResultDocument doc;
    const Setup s = setupFrom(p);
    const Rng root(ctx.seed());
    ctx.throwIfCancelled();
    ctx.progress(0.02, "fitting the stand-in agent's readout");
    const PersuasionAgent agent(s.taste, s.size, s.products, s.tau, s.bPos, root.fork("agent"));
    DuelOracle oracle(agent, s.products, s.size);
    const Variant orig = originalVariant();
    Rng monitor = root.fork("monitor");
    Series wr = emptySeries("iteration", "win rate vs original (monitor duels)");
    Series lo = emptySeries("iteration", "Wilson 95% lower"),
           hi = emptySeries("iteration", "Wilson 95% upper");
    const SearchOutcome so =
        runSearch(s.opt, oracle, s.queries, s.iterations, s.l2, root.fork("search"), [&](int it) {
            ctx.throwIfCancelled();
            ctx.progress(0.05 + 0.6 * it / double(s.iterations), "searching edits");
        });
    for (size_t it = 0; it < so.incumbents.size(); ++it) {
        ctx.throwIfCancelled();
        const int w = oracle.duels(so.incumbents[it], orig, 40, monitor, false);
        const auto ci = wilsonInterval(w, 40);
        addPoint(wr, double(it + 1), w / 40.0);
        addPoint(lo, double(it + 1), ci.first);
        addPoint(hi, double(it + 1), ci.second);
    }
    doc.series[K::series::kWinRateVsIteration] = wr;
    doc.series[K::series::kWinRateLower] = lo;
    doc.series[K::series::kWinRateUpper] = hi;

    ctx.progress(0.7, "evaluating on fresh duels");
    Rng evalRng = root.fork("eval"), normRng = root.fork("eval-normalised");
    const int wins = oracle.duels(so.best, orig, s.evalDuels, evalRng, false);
    const int winsN = oracle.duels(so.best, orig, s.evalDuels, normRng, false, true);
    auto& m = doc.metrics;
    const double rate = wins / double(s.evalDuels), rateN = winsN / double(s.evalDuels);
    m[K::metric::kDuels] = s.evalDuels;
    m[K::metric::kDuelWins] = wins;
    m[K::metric::kWinRate] = rate;
    m[K::metric::kWinRateLcb] = wilsonInterval(wins, s.evalDuels).first;
    m[K::metric::kWinRateNormalised] = rateN;
    m[K::metric::kWinRateNormalisedLcb] = wilsonInterval(winsN, s.evalDuels).first;
    const double removed = rate > 0.5 ? 1 - (rateN - 0.5) / (rate - 0.5) : kNaN;
    m[K::metric::kExcessRemoved] = removed;
    m[K::metric::kQueriesUsed] = oracle.queries();
    m[K::metric::kAgentFitR2] = agent.fitR2();

    ctx.progress(0.75, "fitting Bradley-Terry on the search's duels");
    std::vector<int> sv, ov;
    const Eigen::MatrixXd X = logFeatures(oracle.log(), sv, ov);
    const BtFit fit = fitBradleyTerry(X, sv, ov, s.l2);
    std::vector<double> ciLo, ciHi;
    bootstrapCi(X, sv, ov, s.l2, s.bootstrap, root.fork("bootstrap"), ctx, ciLo, ciHi);
    std::vector<double> bt(fit.coef.data(), fit.coef.data() + fit.coef.size()), truth;
    std::vector<std::string> names;
    for (int e = 0; e < editCount(); ++e) {
        double d = 0;
        for (int q = 0; q < s.products; ++q)
            d += oracle.utility(q, singleEdit(e)) - oracle.utility(q, orig);
        truth.push_back(d / s.products / s.tau);
        names.push_back(editName(e));
    }
    doc.vectors[K::vector::kBtCoef] = bt;
    doc.vectors[K::vector::kBtCoefLo] = ciLo;
    doc.vectors[K::vector::kBtCoefHi] = ciHi;
    doc.vectors[K::vector::kTrueCoef] = truth;
    const Eigen::VectorXd bestEdits = editIndicators(so.best);
    doc.vectors[K::vector::kOptimisedEdits] =
        std::vector<double>(bestEdits.data(), bestEdits.data() + bestEdits.size());
    Eigen::MatrixXd tab(editCount(), 4);
    for (int e = 0; e < editCount(); ++e)
        tab.row(e) << bt[size_t(e)], ciLo[size_t(e)], ciHi[size_t(e)], truth[size_t(e)];
    doc.matrices[K::matrix::kEdits] = matrixOf(tab, names, {"bt_coef", "ci_lo", "ci_hi", "true_coef"});
    const double rho = spearmanMidRank(bt, truth);
    m[K::metric::kSpearman] = rho;
    m[K::metric::kSearchPositionBias] = fit.positionBias;
    double firstWins = 0, aFirst = 0, aFirstWins = 0, aSecondWins = 0;
    for (size_t i = 0; i < sv.size(); ++i) {
        firstWins += sv[i] * ov[i] > 0 ? 1 : 0;
        aFirst += ov[i] > 0 ? 1 : 0;
        aFirstWins += ov[i] > 0 && sv[i] > 0 ? 1 : 0;
        aSecondWins += ov[i] < 0 && sv[i] > 0 ? 1 : 0;
    }
    const double nLog = std::max<double>(1, double(sv.size()));
    m[K::metric::kFirstShownWinRate] = firstWins / nLog;
    m[K::metric::kChallengerFirstWinRate] = aFirstWins / std::max(1.0, aFirst);
    m[K::metric::kChallengerSecondWinRate] = aSecondWins / std::max(1.0, nLog - aFirst);

    ctx.progress(0.9, "pairwise duels and images");
    packPairwise(oracle, so, fit.coef, root.fork("pairwise"), doc);
    doc.matrices[K::matrix::kImages] = matrixOf(imageStrip(s.products, s.size, so.best));
    doc.notes.push_back("optimised edits: " + variantText(so.best));
    if (!inputs.empty())
        if (const auto* in = dynamic_cast<const ChoiceLogInput*>(inputs.front().get()))
            fitLog(*in, s.l2, doc);

    packClaims(doc, int(sv.size()));
    ctx.progress(1.0, "done");
    return doc;
}

} // namespace pl::convimg
