#include "FedMethods.h"

namespace pl::robusttrain {

Mlp federatedRound(const Mlp& global, const Federation& f, const LocalTargets& t, const LocalConfig& c,
                   std::vector<Mlp>* teachers, const Rng& rng, const std::function<void()>& poll,
                   std::vector<Mlp>* local) {
    std::vector<Mlp> models;
    std::vector<double> weights;
    for (int k = 0; k < f.clients(); ++k) {
        const auto& rows = f.members[size_t(k)];
        Mlp net = global;
        LocalTargets tk;
        for (int i : rows) {
            tk.y.push_back(t.y[size_t(i)]);
            tk.weight.push_back(t.weight[size_t(i)]);
        }
        Rng r = rng.fork("client/" + std::to_string(k));
        localTrain(net, rowsOf(f.train.X, rows), tk, c, global, teachers ? &(*teachers)[size_t(k)] : nullptr,
                   r, poll);
        models.push_back(std::move(net));
        weights.push_back(double(rows.size()));
    }
    Mlp avg = averageModels(models, weights);
    if (local)
        *local = std::move(models);
    return avg;
}

namespace {

struct Runner {
    const Federation& f;
    const FedSchedule& s;
    const Rng& root;
    const std::function<void(double, const std::string&)>& progress;
    const std::function<void()>& poll;
    FedRunOutput out;
    double done = 0, total = 0;

    void record(const std::string& m, const Mlp& g, bool memorisation) {
        MethodTrace& tr = out.traces[m];
        tr.testAcc.push_back(accuracy(forward(g, f.test.X), f.test.y));
        if (memorisation)
            tr.memorisation.push_back(memorisationRate(g, f));
    }
    Rng rngFor(const std::string& m, int round) const {
        return root.fork("fit/" + m + "/" + std::to_string(round));
    }
    void tick(const std::string& what) {
        done += 1;
        progress(done / total, what);
    }
    LocalTargets observed() const { return {f.train.y, std::vector<double>(f.train.y.size(), 1.0)}; }

    /// FedGR (or an ablation) from the warm-up model, rounds warmup+1..rounds.
    void fedgr(const std::string& m, Mlp g, bool sieve, bool ema, bool rep,
               const std::vector<Mlp>& warmHistory) {
        MethodTrace& tr = out.traces[m];
        for (size_t r = 0; r < warmHistory.size(); ++r)
            tr.testAcc.push_back(accuracy(forward(warmHistory[r], f.test.X), f.test.y));
        const bool full = sieve && ema && rep;
        if (full)
            for (const Mlp& h : warmHistory)
                tr.memorisation.push_back(memorisationRate(h, f));
        LocalConfig c = s.local;
        c.kdWeight = ema ? s.kdWeight : 0;
        c.repWeight = rep ? s.repWeight : 0;
        std::vector<Mlp> teachers(size_t(f.clients()), g);
        for (int r = s.warmup + 1; r <= s.rounds; ++r) {
            LocalTargets t = observed();
            if (sieve) {
                SieveOutcome so = globalSieve(g, f, s.sieve);
                t = so.targets;
                if (full) {
                    out.lastSieve = std::move(so);
                    out.sieveRound = r;
                }
            }
            if (ema)
                for (Mlp& teacher : teachers)
                    blendInto(teacher, g, s.reviseBeta);
            g = federatedRound(g, f, t, c, ema ? &teachers : nullptr, rngFor(m, r), poll);
            record(m, g, full);
            tick("round " + std::to_string(r) + ": " + m);
        }
        if (full && out.sieveRound == 0) {
            out.lastSieve = globalSieve(g, f, s.sieve);
            out.sieveRound = s.rounds + 1;
        }
    }
};

} // namespace

FedRunOutput runFedMethods(const Federation& f, const Mlp& init, const FedSchedule& s, const Rng& root,
                           const std::function<void(double, const std::string&)>& progress,
                           const std::function<void()>& poll) {
    Runner run{f, s, root, progress, poll, {}, 0, 0};
    const int warm = std::min(s.warmup, s.rounds), after = s.rounds - warm;
    run.total = warm + 6.0 * after + 2.0 * s.rounds;
    // Shared warm-up: plain FedAvg.
    Mlp g = init;
    std::vector<Mlp> local, history;
    for (int r = 1; r <= warm; ++r) {
        g = federatedRound(g, f, run.observed(), s.local, nullptr, run.rngFor("fedavg", r), poll, &local);
        history.push_back(g);
        run.record("fedavg", g, true);
        run.record("local_sieve", g, false);
        run.tick("warm-up round " + std::to_string(r));
    }
    const Mlp warmGlobal = g;
    for (int r = warm + 1; r <= s.rounds; ++r) {
        g = federatedRound(g, f, run.observed(), s.local, nullptr, run.rngFor("fedavg", r), poll);
        run.record("fedavg", g, true);
        run.tick("round " + std::to_string(r) + ": fedavg");
    }
    // Local-only sieving from the warm-up: each client sieves with its own last local model.
    g = warmGlobal;
    for (int r = warm + 1; r <= s.rounds; ++r) {
        const LocalTargets t = local.empty() ? run.observed() : localSieve(local, f);
        g = federatedRound(g, f, t, s.local, nullptr, run.rngFor("local_sieve", r), poll, &local);
        run.record("local_sieve", g, false);
        run.tick("round " + std::to_string(r) + ": local sieve");
    }
    run.fedgr("fedgr", warmGlobal, true, true, true, history);
    run.fedgr("fedgr_no_sieve", warmGlobal, false, true, true, history);
    run.fedgr("fedgr_no_ema", warmGlobal, true, false, true, history);
    run.fedgr("fedgr_no_rep", warmGlobal, true, true, false, history);
    // FedProx from the start.
    LocalConfig prox = s.local;
    prox.proxMu = s.proxMu;
    g = init;
    for (int r = 1; r <= s.rounds; ++r) {
        g = federatedRound(g, f, run.observed(), prox, nullptr, run.rngFor("fedprox", r), poll);
        run.record("fedprox", g, false);
        run.tick("round " + std::to_string(r) + ": fedprox");
    }
    // Centralised: the pooled noisy rows, local_epochs epochs per round.
    g = init;
    Rng cr = root.fork("fit/centralised");
    const LocalTargets all = run.observed();
    for (int r = 1; r <= s.rounds; ++r) {
        localTrain(g, f.train.X, all, s.local, g, nullptr, cr, poll);
        run.record("centralised", g, true);
        run.tick("round " + std::to_string(r) + ": centralised");
    }
    return std::move(run.out);
}

} // namespace pl::robusttrain
