#include "BobaScreeningEngine.h"

#include "BobaRun.h"
#include "BobaScreeningKeys.h"
#include "ScreenLibrary.h"

#include "core/CsvReader.h"

namespace pl::bandits {

namespace P = boba::keys::param;

std::vector<ParamSpec> BobaScreeningEngine::params() const {
    std::vector<ParamSpec> s;
    auto add = [&s](ParamSpec p, const char* group) {
        p.group = group;
        s.push_back(std::move(p));
    };
    const char* B = "Bandit";
    add(ParamSpec::choice(
            P::kPolicy, "Policy", {"ucb", "thompson", "egreedy", "greedy", "uniform"}, "ucb",
            "How BOBA picks partitions: UCB1, Gaussian Thompson, epsilon-greedy (0.1), greedy, uniform."),
        B);
    add(ParamSpec::choice(P::kPartition, "Partition", {"key", "random", "kmeans"}, "key",
                          "Arms: the partition_key (building block A for the stand-in), a random split, or "
                          "k-means on the fingerprints."),
        B);
    add(ParamSpec::integer(P::kArmsPerRound, "Arms per round m", 1, 1000, 10, "Partitions pulled per round."),
        B);
    add(ParamSpec::real(P::kC, "Exploration c", 0, 10, 1,
                        "UCB1 bonus c sqrt(2 ln N / n_a); Thompson spread."),
        B);
    add(ParamSpec::real(
            P::kQ, "Top fraction q", 0.0001, 0.5, 0.01,
            "Top set: the ceil(qN) best rows; arm reward: share of its evaluations in the running top q."),
        B);
    const char* S = "Screen";
    add(ParamSpec::integer(P::kRounds, "Rounds R", 2, 200, 20,
                           "Round 0 is uniform, rounds 1..R-1 follow the method."),
        S);
    add(ParamSpec::integer(P::kBatch, "Batch b", 1, 10000, 100, "Oracle evaluations per round."), S);
    add(ParamSpec::integer(P::kSubsample, "Subsample s", 0, 1000000, 0,
                           "Rows scored per chosen arm (0 = all unevaluated rows)."),
        S);
    add(ParamSpec::real(P::kBeta, "Acquisition beta", 0, 10, 1, "alpha(x) = mean + beta sd."), S);
    add(ParamSpec::real(P::kNoise, "Surrogate noise sigma", 0.001, 10, 0.1,
                        "Noise sd of the Bayesian linear model."),
        S);
    add(ParamSpec::real(P::kPriorScale, "Prior scale sigma0", 0.01, 100, 1, "Prior sd of every weight."), S);
    add(ParamSpec::choice(P::kDirection, "Direction", {"max", "min"}, "max",
                          "min: lower scores are better (e.g. docking energies); scores are negated."),
        S);
    const char* W = "Stand-in library";
    add(ParamSpec::integer(P::kNA, "Building blocks A", 2, 2000, 200, "N_A (partitions of the key scheme)."),
        W);
    add(ParamSpec::integer(P::kNB, "Building blocks B", 2, 5000, 500, "N_B."), W);
    add(ParamSpec::real(P::kGammaA, "Partition informativeness gamma_A", 0, 3, 1,
                        "Scale of the building-block-A effect u_a (Student-t(3))."),
        W);
    add(ParamSpec::real(P::kOmega, "Interaction omega", 0, 2, 0.5, "Scale of z_a^T W z_b."), W);
    return s;
}

std::shared_ptr<const LoadedInput> BobaScreeningEngine::load(const std::string& path) const {
    auto in = std::make_shared<LibraryInput>();
    in->library = parseLibraryCsv(readFileChecked(path, 1ll << 30), path);
    in->path = path;
    in->kind = "csv";
    in->summary = std::to_string(in->library.fp.rows()) + " compounds, " +
                  std::to_string(in->library.fp.bits()) + "-bit fingerprints, " +
                  std::to_string(in->library.keyNames.size()) + " partition keys";
    return in;
}

ResultDocument BobaScreeningEngine::run(const InputList& inputs, const ParamSet& p, RunContext& ctx) const {
    ResultDocument doc;
    BobaRun run(p, ctx, doc);
    run.buildLibrary(inputs);
    run.makePartitions();
    run.screen();
    run.gammaStudy();
    run.packResults();
    run.checkClaims();
    ctx.progress(1.0, "done");
    return doc;
}

} // namespace pl::bandits
