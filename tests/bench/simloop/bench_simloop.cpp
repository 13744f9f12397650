// Benchmark of the engines/simloop steppers against scipy.integrate.solve_ivp (peer.py, one
// thread): time per accepted step and per run on three small systems, at rtol 1e-6:
//  * vdp: Van der Pol (μ = 1) to t = 200, ARKODE Dormand–Prince 5(4) vs solve_ivp RK45;
//  * pid: the embodied-act closed loop (5 states, saturation) to t = 20, the same pair;
//  * robertson: Robertson's kinetics to t = 4·10⁵, CVODE BDF vs solve_ivp BDF.
// Our runs go one step at a time through the Stepper interface (as the agents drive them), without
// monitors. Ratio = peer per-step time / ours (> 1: we are faster); the final states are compared.
#include "bench/common/BenchPeer.h"
#include "simloop/PidTask.h"
#include "simloop/Stepper.h"
#include "simloop/Tasks.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <string>

using namespace pl::simloop;
using Clock = std::chrono::steady_clock;

namespace {

struct Timing {
    double msPerRun = 0;
    long steps = 0;
    Eigen::VectorXd y;
};

Timing timeRuns(Integrator k, const OdeSystem& s, const Eigen::VectorXd& y0, double tEnd, double atol,
                int reps) {
    Timing t;
    const auto t0 = Clock::now();
    for (int r = 0; r < reps; ++r) {
        StepOptions o;
        o.rtol = 1e-6;
        o.atol = atol;
        o.tStop = tEnd;
        auto st = makeStepper(k, s, 0.0, y0, o);
        while (st->t() < tEnd && st->step()) {
        }
        t.steps = st->steps();
        t.y = st->y();
    }
    t.msPerRun = std::chrono::duration<double, std::milli>(Clock::now() - t0).count() / reps;
    return t;
}

} // namespace

int main(int argc, char** argv) {
    bool quick = false;
    std::string jsonOut = "bench_simloop.json";
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--quick")
            quick = true;
        else if (a == "--json" && i + 1 < argc)
            jsonOut = argv[++i];
    }
    OdeSystem vdp;
    vdp.dim = 2;
    vdp.rhs = [](double, const double* y, double* dy) {
        dy[0] = y[1];
        dy[1] = (1 - y[0] * y[0]) * y[1] - y[0];
    };
    const PidTask pid(PidSpec{});
    Plan pidPlan;
    pidPlan.theta = {2, 0.5, 1.5};
    const RobertsonTask rob;
    struct Case {
        const char* name;
        Integrator k;
        OdeSystem sys;
        Eigen::VectorXd y0;
        double tEnd, atol;
        int reps, peerReps;
    };
    const int q = quick ? 10 : 1;
    const std::vector<Case> cases{
        {"vdp", Integrator::Rk45, vdp, Eigen::Vector2d(2, 0), 200, 1e-9, 200 / q, 20 / q},
        {"pid", Integrator::Rk45, pid.system(pidPlan), pid.initialState(pidPlan), 20, 1e-9, 500 / q, 20 / q},
        {"robertson", Integrator::Bdf, rob.system(Plan{}), rob.initialState(Plan{}), 4e5, 1e-10, 200 / q,
         std::max(1, 10 / q)},
    };
    nlohmann::json report;
    report["cases"] = nlohmann::json::array();
    std::printf("%-10s %-6s %10s %8s %12s %10s %8s %12s %8s %10s\n", "system", "method", "ours ms", "steps",
                "ours us/step", "peer ms", "steps", "peer us/step", "ratio", "|dy_end|");
    for (const Case& c : cases) {
        const Timing ours = timeRuns(c.k, c.sys, c.y0, c.tEnd, c.atol, c.reps);
        const nlohmann::json peer = pl::bench::runPythonPeer(
            PAPERLAB_SIMLOOP_PEER, std::string(c.name) + " " + std::to_string(c.peerReps));
        double peerMs = -1, peerPerStep = -1, diff = -1;
        long peerSteps = 0;
        if (!peer.is_null()) {
            peerMs = peer["ms_per_run"].get<double>();
            peerSteps = peer["steps"].get<long>();
            peerPerStep = peerMs / double(peerSteps);
            diff = 0;
            for (int i = 0; i < ours.y.size(); ++i)
                diff = std::max(diff, std::abs(ours.y[i] - peer["y_final"][size_t(i)].get<double>()));
        }
        const double oursPerStep = ours.msPerRun / double(ours.steps);
        const double ratio = peerPerStep / oursPerStep;
        std::printf("%-10s %-6s %10.3f %8ld %12.3f %10.2f %8ld %12.2f %8.1f %10.2e\n", c.name,
                    integratorName(c.k).c_str(), ours.msPerRun, ours.steps, 1e3 * oursPerStep, peerMs,
                    peerSteps, 1e3 * peerPerStep, ratio, diff);
        report["cases"].push_back({{"engine", std::string("simloop ") + c.name + " per step"},
                                   {"size", integratorName(c.k)},
                                   {"ours_ms", oursPerStep},
                                   {"peer_ms", peerPerStep},
                                   {"ratio", ratio},
                                   {"ours_steps", ours.steps},
                                   {"peer_steps", peerSteps},
                                   {"ours_run_ms", ours.msPerRun},
                                   {"peer_run_ms", peerMs},
                                   {"max_abs_final_diff", diff}});
    }
    std::ofstream(jsonOut) << report.dump(2);
    return 0;
}
