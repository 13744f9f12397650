#include "curve/SceneGenerator.h"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace pl::curve {

namespace {

constexpr double kHorizon = 3.0; ///< s, closest-approach horizon of the rule

double speedOf(ObjectType t, const EnvironmentSpec& s, Rng& rng) {
    switch (t) {
    case ObjectType::Pedestrian:
        return rng.uniform(0.8, 2.0);
    case ObjectType::Cyclist:
        return rng.uniform(3.0, 7.0);
    default:
        return rng.uniform(s.carSpeedMin, s.carSpeedMax);
    }
}

void setHeading(SceneObject& o, double speed, double angle) {
    o.vx = speed * std::cos(angle);
    o.vy = speed * std::sin(angle);
}

} // namespace

double effectiveRho(double rho, double strength) {
    return 0.5 + strength * (rho - 0.5);
}

int invariantRelation(const SceneObject& a, const SceneObject& b) {
    if (!isAgent(a.type) || !isAgent(b.type))
        return Relation::None;
    const double dx = b.x - a.x, dy = b.y - a.y;
    const double wx = b.vx - a.vx, wy = b.vy - a.vy;
    const double w2 = wx * wx + wy * wy;
    const double t = w2 > 1e-12 ? std::clamp(-(dx * wx + dy * wy) / w2, 0.0, kHorizon) : 0.0;
    const double mx = dx + wx * t, my = dy + wy * t;
    const bool vulnerable = a.type != ObjectType::Car || b.type != ObjectType::Car;
    if (std::hypot(mx, my) < (vulnerable ? 1.5 : 2.0))
        return Relation::Approaching;
    const double sa = std::hypot(a.vx, a.vy), sb = std::hypot(b.vx, b.vy);
    if (sa > 0.5 && sb > 0.5) {
        const double cosv = (a.vx * b.vx + a.vy * b.vy) / (sa * sb);
        const double ux = a.vx / sa, uy = a.vy / sa;
        const double along = dx * ux + dy * uy, lateral = std::abs(-dx * uy + dy * ux);
        if (cosv > 0.9 && along >= 3.0 && along <= 20.0 && lateral < 1.5)
            return Relation::Following;
    }
    return Relation::None;
}

namespace {

/// The ego car and n - 1 other agents: type, speed, position and heading.
void placeAgents(Scene& sc, const EnvironmentSpec& s, int n, Rng& rng) {
    const double lanes[] = {-5.25, -1.75, 1.75, 5.25};
    for (int i = 0; i < n; ++i) {
        SceneObject o;
        o.id = i == 0 ? "ego" : "a" + std::to_string(i);
        if (i > 0) {
            const double u = rng.uniform();
            o.type = u < s.pedestrianShare                    ? ObjectType::Pedestrian
                     : u < s.pedestrianShare + s.cyclistShare ? ObjectType::Cyclist
                                                              : ObjectType::Car;
        }
        const double speed = speedOf(o.type, s, rng);
        if (i == 0) {
            o.x = 0;
            o.y = -1.75;
            setHeading(o, speed, 0.0);
        } else if (o.type == ObjectType::Pedestrian || rng.uniform() < 0.3) {
            // crossing or free heading
            o.x = rng.uniform(-10, 50);
            o.y = rng.uniform(-15, 15);
            setHeading(o, speed, rng.uniform(-std::numbers::pi, std::numbers::pi));
        } else {
            const int lane = int(rng.uniformInt(4));
            o.x = rng.uniform(-10, 50);
            o.y = lanes[lane] + rng.normal(0, 0.2);
            setHeading(o, speed, lane < 2 ? 0.0 : std::numbers::pi);
        }
        sc.objects.push_back(o);
    }
}

/// Plant an approaching pair (meeting point in t seconds) and a following pair so that both
/// relations are frequent; the labels come from the rule alone.
void plantPairs(Scene& sc, int n, Rng& rng) {
    if (n >= 2 && rng.uniform() < 0.6) {
        const int i = int(rng.uniformInt(uint64_t(n)));
        int j = int(rng.uniformInt(uint64_t(n - 1)));
        if (j >= i)
            ++j;
        const double mx = rng.uniform(5, 40), my = rng.uniform(-8, 8), t = rng.uniform(0.8, 2.8);
        for (int k : {i, j}) {
            SceneObject& o = sc.objects[size_t(k)];
            o.x = mx - o.vx * t + rng.normal(0, 0.4);
            o.y = my - o.vy * t + rng.normal(0, 0.4);
        }
    }
    if (n >= 3 && rng.uniform() < 0.5) {
        const int k = 1 + int(rng.uniformInt(uint64_t(n - 1)));
        int l = int(rng.uniformInt(uint64_t(n - 1)));
        if (l >= k)
            ++l;
        SceneObject& lead = sc.objects[size_t(l)];
        const SceneObject& follower = sc.objects[size_t(k)];
        if (follower.type != ObjectType::Pedestrian) {
            const double sp = std::hypot(follower.vx, follower.vy);
            const double ux = follower.vx / sp, uy = follower.vy / sp, gap = rng.uniform(5, 16);
            const double f = 1.0 + rng.normal(0, 0.05);
            lead.type = follower.type;
            lead.vx = follower.vx * f;
            lead.vy = follower.vy * f;
            const double lat = rng.normal(0, 0.3);
            lead.x = follower.x + ux * gap - uy * lat;
            lead.y = follower.y + uy * gap + ux * lat;
        }
    }
}

/// Labels every ordered agent pair by the invariant rule; marks the agents in an approaching pair.
/// Returns whether any pair approaches.
bool labelRelations(Scene& sc, int n, std::vector<bool>& involved) {
    bool anyApproach = false;
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j) {
            if (i == j)
                continue;
            const int r = invariantRelation(sc.objects[size_t(i)], sc.objects[size_t(j)]);
            if (r != Relation::None)
                sc.relations.push_back({i, j, r});
            if (r == Relation::Approaching) {
                involved[size_t(i)] = involved[size_t(j)] = true;
                anyApproach = true;
            }
        }
    return anyApproach;
}

/// Spurious context: cue objects near involved agents with probability rho, distractors, and the
/// weather object (rain with probability rho when a pair approaches).
void addContext(Scene& sc, const EnvironmentSpec& s, int n, const std::vector<bool>& involved,
                bool anyApproach, Rng& rng) {
    int bg = 0;
    for (int i = 0; i < n && bg < s.backgroundMax; ++i) {
        const double p = involved[size_t(i)] ? s.rho : 1.0 - s.rho;
        if (rng.uniform() < p) {
            SceneObject o;
            o.type = ObjectType::Background;
            o.id = "b" + std::to_string(bg);
            const double r = rng.uniform(0.8, 3.0), a = rng.uniform(-std::numbers::pi, std::numbers::pi);
            o.x = sc.objects[size_t(i)].x + r * std::cos(a);
            o.y = sc.objects[size_t(i)].y + r * std::sin(a);
            sc.objects.push_back(o);
            ++bg;
        }
    }
    const int extra = int(rng.uniformInt(uint64_t(s.distractors + 1)));
    for (int k = 0; k < extra && bg < s.backgroundMax; ++k) {
        SceneObject o;
        o.type = ObjectType::Background;
        o.id = "b" + std::to_string(bg++);
        o.x = rng.uniform(-10, 50);
        o.y = rng.uniform(-15, 15);
        sc.objects.push_back(o);
    }
    SceneObject w;
    w.type = ObjectType::Weather;
    w.id = "weather";
    w.rain = rng.uniform() < (anyApproach ? s.rho : 1.0 - s.rho) ? 1.0 : 0.0;
    sc.objects.push_back(w);
}

/// Observation shift (sim-to-real): noise and missed detections after labelling.
void shiftObservations(Scene& sc, const EnvironmentSpec& s, Rng& rng) {
    if (!(s.positionNoise > 0 || s.velocityNoise > 0 || s.missRate > 0))
        return;
    std::vector<int> keep;
    for (int i = 0; i < int(sc.objects.size()); ++i) {
        SceneObject& o = sc.objects[size_t(i)];
        if (isAgent(o.type)) {
            o.x += rng.normal(0, s.positionNoise);
            o.y += rng.normal(0, s.positionNoise);
            o.vx += rng.normal(0, s.velocityNoise);
            o.vy += rng.normal(0, s.velocityNoise);
            if (i > 0 && rng.uniform() < s.missRate)
                continue;
        }
        keep.push_back(i);
    }
    std::vector<int> map(sc.objects.size(), -1);
    std::vector<SceneObject> objs;
    for (int i : keep) {
        map[size_t(i)] = int(objs.size());
        objs.push_back(sc.objects[size_t(i)]);
    }
    std::vector<SceneRelation> rels;
    for (const SceneRelation& r : sc.relations)
        if (map[size_t(r.source)] >= 0 && map[size_t(r.target)] >= 0)
            rels.push_back({map[size_t(r.source)], map[size_t(r.target)], r.relation});
    sc.objects = std::move(objs);
    sc.relations = std::move(rels);
}

} // namespace

Scene generateScene(const EnvironmentSpec& s, int env, Split split, Rng& rng) {
    Scene sc;
    sc.env = env;
    sc.split = split;
    const int n = s.agentsMin + int(rng.uniformInt(uint64_t(std::max(1, s.agentsMax - s.agentsMin + 1))));
    placeAgents(sc, s, n, rng);
    plantPairs(sc, n, rng);
    std::vector<bool> involved(size_t(n), false);
    const bool anyApproach = labelRelations(sc, n, involved);
    addContext(sc, s, n, involved, anyApproach, rng);
    shiftObservations(sc, s, rng);
    return sc;
}

} // namespace pl::curve
