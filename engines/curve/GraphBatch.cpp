#include "curve/GraphBatch.h"

#include <algorithm>
#include <cmath>

namespace pl::curve {

const char* edgeKindName(int k) {
    switch (k) {
    case BackgroundAgent:
        return "background→agent";
    case WeatherAgent:
        return "weather→agent";
    default:
        return "agent→agent";
    }
}

namespace {

void edgeFeatures(const SceneObject& a, const SceneObject& b, double* f) {
    // a -> b, relative to a. Weather has no geometry: zeros (its type is in the node features).
    if (a.type == ObjectType::Weather || b.type == ObjectType::Weather) {
        std::fill(f, f + kEdgeFeatures, 0.0);
        return;
    }
    const double dx = b.x - a.x, dy = b.y - a.y, wx = b.vx - a.vx, wy = b.vy - a.vy;
    const double d = std::hypot(dx, dy), w2 = wx * wx + wy * wy;
    const double closing = d > 1e-9 ? -(dx * wx + dy * wy) / d : 0.0;
    const double ttca = w2 > 1e-9 ? std::clamp(-(dx * wx + dy * wy) / w2, -3.0, 6.0) : 6.0;
    f[0] = dx / 10;
    f[1] = dy / 10;
    f[2] = wx / 10;
    f[3] = wy / 10;
    f[4] = d / 10;
    f[5] = closing / 10;
    f[6] = ttca / 3;
    const double tc = std::clamp(ttca, 0.0, 3.0);
    f[7] = std::hypot(dx + wx * tc, dy + wy * tc) / 10;
    const double sa = std::hypot(a.vx, a.vy), sb = std::hypot(b.vx, b.vy);
    const double ux = sa > 1e-9 ? a.vx / sa : 1.0, uy = sa > 1e-9 ? a.vy / sa : 0.0;
    f[8] = (dx * ux + dy * uy) / 10;
    f[9] = (-dx * uy + dy * ux) / 10;
    f[10] = sa > 1e-9 && sb > 1e-9 ? (a.vx * b.vx + a.vy * b.vy) / (sa * sb) : 0.0;
}

} // namespace

GraphBatch buildBatch(const std::vector<const Scene*>& scenes) {
    GraphBatch b;
    int nodes = 0;
    size_t edges = 0;
    for (const Scene* s : scenes)
        nodes += int(s->objects.size());
    b.nodeX = Eigen::MatrixXd::Zero(nodes, kNodeFeatures);
    std::vector<double> ef;
    int base = 0;
    for (size_t si = 0; si < scenes.size(); ++si) {
        const Scene& s = *scenes[si];
        const int n = int(s.objects.size());
        for (int i = 0; i < n; ++i) {
            const SceneObject& o = s.objects[size_t(i)];
            b.nodeX(base + i, int(o.type)) = 1.0;
            b.nodeX(base + i, kObjectTypes + 0) = o.vx / 10;
            b.nodeX(base + i, kObjectTypes + 1) = o.vy / 10;
            b.nodeX(base + i, kObjectTypes + 2) = std::hypot(o.vx, o.vy) / 10;
            b.nodeX(base + i, kObjectTypes + 3) = o.rain;
        }
        for (int j = 0; j < n; ++j) { // target agent
            const SceneObject& t = s.objects[size_t(j)];
            if (!isAgent(t.type))
                continue;
            for (int i = 0; i < n; ++i) {
                if (i == j)
                    continue;
                const SceneObject& o = s.objects[size_t(i)];
                int kind = AgentAgent;
                if (o.type == ObjectType::Background) {
                    if (std::hypot(o.x - t.x, o.y - t.y) > 10.0)
                        continue;
                    kind = BackgroundAgent;
                } else if (o.type == ObjectType::Weather) {
                    kind = WeatherAgent;
                }
                double f[kEdgeFeatures];
                edgeFeatures(o, t, f);
                ef.insert(ef.end(), f, f + kEdgeFeatures);
                b.src.push_back(base + i);
                b.dst.push_back(base + j);
                b.edgeKind.push_back(kind);
                b.edgeEnv.push_back(s.env);
                b.edgeScene.push_back(int(si));
                b.edgeLocalSrc.push_back(i);
                b.edgeLocalDst.push_back(j);
                if (kind == AgentAgent) {
                    b.pairEdge.push_back(int(edges));
                    b.pairLabel.push_back(s.relationOf(i, j));
                    b.pairEnv.push_back(s.env);
                }
                ++edges;
            }
        }
        base += n;
    }
    b.edgeX.resize(Eigen::Index(edges), kEdgeFeatures);
    for (size_t e = 0; e < edges; ++e)
        for (int k = 0; k < kEdgeFeatures; ++k)
            b.edgeX(Eigen::Index(e), k) = ef[e * kEdgeFeatures + size_t(k)];
    b.nodes = nodes;
    b.scenes = int(scenes.size());
    return b;
}

} // namespace pl::curve
