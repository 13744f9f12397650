#include "mdp/Wasserstein.h"

#include "core/Errors.h"

// Header-only LEMON: no liblemon.a (base.cc) is linked.
#define LEMON_ONLY_TEMPLATES 1
#include <lemon/network_simplex.h>
#include <lemon/smart_graph.h>

#include <algorithm>
#include <cmath>

namespace pl::mdp {

double TransportSolver::w1(const std::vector<Transition>& p, const std::vector<Transition>& q,
                           const Eigen::MatrixXd& d) {
    // Mass both laws put on the same state stays in place at cost d(i, i) = 0 only when d is a
    // pseudometric; the general cost is kept, so no mass is cancelled here.
    if (p.size() == 1 && q.size() == 1)
        return d(p[0].next, q[0].next);
    if (p.size() == 1 || q.size() == 1) { // one side is a point mass: the coupling is forced
        double s = 0;
        if (p.size() == 1)
            for (const Transition& t : q)
                s += t.p * d(p[0].next, t.next);
        else
            for (const Transition& t : p)
                s += t.p * d(t.next, q[0].next);
        return s;
    }
    ++m_solves;
    using G = lemon::SmartDigraph;
    G g;
    g.reserveNode(int(p.size() + q.size()));
    g.reserveArc(int(p.size() * q.size()));
    std::vector<G::Node> src, dst;
    for (size_t i = 0; i < p.size(); ++i)
        src.push_back(g.addNode());
    for (size_t j = 0; j < q.size(); ++j)
        dst.push_back(g.addNode());
    // Masses and costs become integers in units of 2^-40 (about 9e-13), so that every pivot is
    // exact: with floating-point costs the simplex can cycle on degenerate ties. Each side's
    // masses are adjusted on their largest entry so that both sum to exactly 2^40.
    constexpr double kScale = 1099511627776.0; // 2^40
    auto integral = [&](const std::vector<Transition>& law) {
        std::vector<long long> out(law.size());
        long long sum = 0;
        size_t big = 0;
        for (size_t i = 0; i < law.size(); ++i) {
            out[i] = std::llround(law[i].p * kScale);
            sum += out[i];
            if (law[i].p > law[big].p)
                big = i;
        }
        out[big] += (long long)kScale - sum;
        return out;
    };
    const std::vector<long long> ip = integral(p), iq = integral(q);
    G::ArcMap<long long> cost(g);
    G::NodeMap<long long> supply(g);
    for (size_t i = 0; i < p.size(); ++i) {
        supply[src[i]] = ip[i];
        for (size_t j = 0; j < q.size(); ++j) {
            const double c = d(p[i].next, q[j].next);
            if (!(c >= 0 && c <= 1e6))
                throw EngineError("transport cost outside [0, 1e6] (the exact integer range)");
            cost[g.addArc(src[i], dst[j])] = std::llround(c * kScale);
        }
    }
    for (size_t j = 0; j < q.size(); ++j)
        supply[dst[j]] = -iq[j];
    lemon::NetworkSimplex<G, long long, long long> ns(g);
    ns.costMap(cost).supplyMap(supply);
    if (ns.run() != ns.OPTIMAL)
        throw EngineError("network simplex found no optimal transport plan");
    double total = 0;
    for (G::ArcIt a(g); a != lemon::INVALID; ++a)
        total += double(ns.flow(a)) * double(cost[a]);
    return total / (kScale * kScale);
}

} // namespace pl::mdp
