#pragma once
// Deterministic sample graphs and 3D scenes shared by the graph tests, the GL tests, the visual
// benchmark and the screenshot baselines.

#include "sdk/figure/FigureSpec.h"

#include <cmath>
#include <cstdint>
#include <numbers>

namespace pl::gui::samples {

/// Small deterministic generator (splitmix64) so samples are identical everywhere.
struct SampleRng {
    uint64_t state;
    explicit SampleRng(uint64_t seed) : state(seed) {}
    uint64_t next() {
        uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        return z ^ (z >> 31);
    }
    double uniform() { return double(next() >> 11) / double(1ULL << 53); }
    int below(int n) { return int(next() % uint64_t(n)); }
};

/// Two communities of players joined by a few bridges: categories, values, labels, weights,
/// dashed and directed edges, a legend and a colour bar.
inline FigureSpec communityGraph(GraphLayout layout = GraphLayout::Force) {
    FigureSpec f;
    f.id = QStringLiteral("communities");
    f.title = QStringLiteral("Best-response graph");
    f.caption =
        QStringLiteral("Node colour: payoff; size: degree; dashed: weak links; arrows: improvements.");
    f.kind = FigureKind::Graph;
    GraphSpec& g = f.graph;
    g.layout = layout;
    g.layoutSeed = 7;
    g.colorTitle = QStringLiteral("payoff");
    const int n = 24;
    for (int i = 0; i < n; ++i) {
        GraphNodeSpec v;
        v.id = QStringLiteral("p%1").arg(i);
        v.label = i % 4 == 0 ? QStringLiteral("player %1").arg(i) : QString();
        v.group = i < n / 2 ? QStringLiteral("A") : QStringLiteral("B");
        v.value = std::sin(0.7 * i) * 2.0 + 1.0;
        v.size = 1.0 + (i % 5) * 0.6;
        if (i == 0 || i == n / 2)
            v.category = i == 0 ? 1 : 2; // the two hubs in series colours
        g.nodes << v;
    }
    SampleRng rng(11);
    for (int c = 0; c < 2; ++c)
        for (int k = 0; k < 26; ++k) {
            GraphEdgeSpec e;
            e.source = c * n / 2 + rng.below(n / 2);
            e.target = c * n / 2 + rng.below(n / 2);
            if (e.source == e.target)
                continue;
            e.weight = 0.5 + rng.uniform() * 2.5;
            e.dashed = k % 7 == 0;
            e.directed = k % 5 == 0;
            g.edges << e;
        }
    for (int k = 0; k < 3; ++k) {
        GraphEdgeSpec e;
        e.source = k * 3;
        e.target = n / 2 + k * 2;
        e.weight = 3.0;
        e.value = 2.5;
        g.edges << e;
    }
    g.legend << GraphLegendEntry{QStringLiteral("hub of A"), 1}
             << GraphLegendEntry{QStringLiteral("hub of B"), 2};
    GraphLegendEntry weak;
    weak.label = QStringLiteral("weak link");
    weak.edge = true;
    weak.dashed = true;
    g.legend << weak;
    return f;
}

/// A sparse random graph with \a n nodes and about 3n edges (benchmark size: 2000).
inline FigureSpec randomGraph(int n, uint64_t seed = 3, GraphLayout layout = GraphLayout::Force) {
    FigureSpec f;
    f.id = QStringLiteral("random-graph");
    f.title = QStringLiteral("Random graph (%1 nodes)").arg(n);
    f.kind = FigureKind::Graph;
    GraphSpec& g = f.graph;
    g.layout = layout;
    g.layoutSeed = 1;
    g.colorTitle = QStringLiteral("degree rank");
    g.nodeRadius = 3.5;
    g.edgeWidth = 1.0;
    SampleRng rng(seed);
    for (int i = 0; i < n; ++i) {
        GraphNodeSpec v;
        v.id = QString::number(i);
        v.value = double(i) / n;
        g.nodes << v;
    }
    // A ring (connected) plus random chords with a preference for near indices (communities).
    for (int i = 0; i < n; ++i) {
        g.edges << GraphEdgeSpec{i, (i + 1) % n, 1.0};
        for (int k = 0; k < 2; ++k) {
            const int j = rng.uniform() < 0.8 ? (i + 2 + rng.below(40)) % n : rng.below(n);
            if (j != i)
                g.edges << GraphEdgeSpec{i, j, 0.5 + rng.uniform()};
        }
    }
    return f;
}

/// \a n spheres on a spiral in a unit box, coloured by height.
inline FigureSpec spheresScene(int n = 400) {
    FigureSpec f;
    f.id = QStringLiteral("spheres");
    f.title = QStringLiteral("%1 spheres").arg(n);
    f.kind = FigureKind::Scene3D;
    SphereSetSpec s;
    s.style.name = QStringLiteral("samples");
    const double r = 0.45 / std::cbrt(double(n));
    for (int i = 0; i < n; ++i) {
        const double t = double(i) / std::max(1, n - 1);
        const double a = 2 * std::numbers::pi * 6 * t + 0.37 * i;
        const double rad = 0.15 + 0.35 * std::fmod(i * 0.618034, 1.0);
        s.centers << Vec3(float(0.5 + rad * std::cos(a)), float(0.5 + rad * std::sin(a)), float(t));
        s.values << t;
        s.radii << r * (0.6 + 0.8 * std::fmod(i * 0.414, 1.0));
    }
    f.scene.spheres << s;
    f.scene.colorBarTitle = QStringLiteral("height");
    return f;
}

/// A parametric torus coloured by a value grid, with a point cloud through its hole.
inline FigureSpec torusScene() {
    FigureSpec f;
    f.id = QStringLiteral("torus");
    f.title = QStringLiteral("Conditional density on the torus");
    f.kind = FigureKind::Scene3D;
    SurfaceSpec t;
    t.kind = SurfaceSpec::Kind::Torus;
    t.style.name = QStringLiteral("density");
    t.ringRadius = 1.0;
    t.tubeRadius = 0.38;
    t.gridU = 32;
    t.gridV = 16;
    for (int u = 0; u < t.gridU; ++u)
        for (int v = 0; v < t.gridV; ++v)
            t.values << std::exp(std::cos(2 * std::numbers::pi * u / t.gridU - 1.0) +
                                 0.5 * std::cos(2 * std::numbers::pi * v / t.gridV));
    f.scene.surfaces << t;
    PointCloudSpec p;
    p.style.name = QStringLiteral("samples");
    p.style.colorIndex = 5;
    for (int i = 0; i < 300; ++i) {
        const double z = -0.8 + 1.6 * i / 299.0;
        p.points << Vec3(float(0.08 * std::cos(i * 0.9)), float(0.08 * std::sin(i * 0.9)), float(z));
    }
    f.scene.pointClouds << p;
    f.scene.colorBarTitle = QStringLiteral("density");
    f.scene.colormap = QStringLiteral("magma");
    f.scene.camera.elevation = 35;
    return f;
}

/// Trajectory tubes coloured by time, a line, arrows and labels in the unit cube.
inline FigureSpec tubesScene() {
    FigureSpec f;
    f.id = QStringLiteral("tubes");
    f.title = QStringLiteral("Trajectories");
    f.kind = FigureKind::Scene3D;
    for (int k = 0; k < 2; ++k) {
        PolylineSpec l;
        l.style.name = QStringLiteral("trajectory %1").arg(k + 1);
        l.radius = 0.012;
        for (int i = 0; i <= 300; ++i) {
            const double t = i / 300.0;
            const double a = 8 * t + k * std::numbers::pi;
            l.points << Vec3(float(0.5 + 0.4 * (1 - t) * std::cos(a)),
                                  float(0.5 + 0.4 * (1 - t) * std::sin(a)), float(k == 0 ? t : 1 - t));
            l.values << t;
        }
        f.scene.polylines << l;
    }
    PolylineSpec frame;
    frame.style.name = QStringLiteral("frame");
    frame.style.colorIndex = 7;
    frame.lineWidth = 1.5;
    frame.points = {Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(1, 1, 0), Vec3(0, 1, 0),
                    Vec3(0, 0, 0)};
    f.scene.polylines << frame;
    ArrowSetSpec a;
    a.style.name = QStringLiteral("flow");
    a.style.colorIndex = 5;
    a.origins = {Vec3(0, 0, 0), Vec3(0, 0, 0), Vec3(0, 0, 0)};
    a.vectors = {Vec3(0.3f, 0, 0), Vec3(0, 0.3f, 0), Vec3(0, 0, 0.3f)};
    f.scene.arrows << a;
    f.scene.labels << SceneLabelSpec{Vec3(0.35f, 0, 0), QStringLiteral("x")}
                   << SceneLabelSpec{Vec3(0, 0.35f, 0), QStringLiteral("y")}
                   << SceneLabelSpec{Vec3(0, 0, 0.35f), QStringLiteral("z")};
    f.scene.colorBarTitle = QStringLiteral("time");
    f.scene.colormap = QStringLiteral("viridis");
    return f;
}

} // namespace pl::gui::samples
