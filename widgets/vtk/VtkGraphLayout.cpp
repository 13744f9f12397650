#include "VtkGraphLayout.h"

#include <vtkCircularLayoutStrategy.h>
#include <vtkDataSetAttributes.h>
#include <vtkDoubleArray.h>
#include <vtkFast2DLayoutStrategy.h>
#include <vtkForceDirectedLayoutStrategy.h>
#include <vtkGraph.h>
#include <vtkGraphLayout.h>
#include <vtkMutableUndirectedGraph.h>
#include <vtkNew.h>
#include <vtkPoints.h>
#include <vtkSmartPointer.h>

#include <cmath>
#include <mutex>

namespace pl::gui {

namespace {

std::mutex& vtkRandomMutex() {
    static std::mutex m; // vtkMath::RandomSeed / Random share one global sequence
    return m;
}

constexpr int kForceDirectedMaxNodes = 300;

} // namespace

QVector<QPointF> computeLayout(const GraphSpec& spec, int seed) {
    const int n = int(spec.nodes.size());
    if (n == 0 || (spec.layout != GraphLayout::Force && spec.layout != GraphLayout::Circular))
        return {};
    vtkNew<vtkMutableUndirectedGraph> graph;
    for (int i = 0; i < n; ++i)
        graph->AddVertex();
    vtkNew<vtkDoubleArray> weights;
    weights->SetName("weight");
    double wMin = 0, wMax = 0;
    bool first = true;
    for (const GraphEdgeSpec& e : spec.edges) {
        if (e.source < 0 || e.target < 0 || e.source >= n || e.target >= n || e.source == e.target)
            continue;
        graph->AddEdge(e.source, e.target);
        const double w = std::isfinite(e.weight) && e.weight != 0 ? std::fabs(e.weight) : 1.0;
        weights->InsertNextValue(w);
        wMin = first ? w : std::min(wMin, w);
        wMax = first ? w : std::max(wMax, w);
        first = false;
    }
    graph->GetEdgeData()->AddArray(weights);
    const bool weighted = !first && wMax > wMin * 1.0001;

    vtkSmartPointer<vtkGraphLayoutStrategy> strategy;
    const int safeSeed = seed < 0 ? -(seed + 1) : seed;
    if (spec.layout == GraphLayout::Circular) {
        strategy = vtkSmartPointer<vtkCircularLayoutStrategy>::New();
    } else if (n <= kForceDirectedMaxNodes) {
        auto s = vtkSmartPointer<vtkForceDirectedLayoutStrategy>::New();
        s->SetRandomSeed(safeSeed);
        s->SetMaxNumberOfIterations(200);
        s->SetIterationsPerLayout(200);
        s->ThreeDimensionalLayoutOff();
        s->RandomInitialPointsOn();
        strategy = s;
    } else {
        auto s = vtkSmartPointer<vtkFast2DLayoutStrategy>::New();
        s->SetRandomSeed(safeSeed);
        s->SetMaxNumberOfIterations(200);
        s->SetIterationsPerLayout(200);
        strategy = s;
    }
    if (weighted) {
        strategy->SetEdgeWeightField("weight");
        strategy->SetWeightEdges(true);
    }
    vtkNew<vtkGraphLayout> layout;
    layout->SetInputData(graph);
    layout->SetLayoutStrategy(strategy);

    QVector<QPointF> out(n);
    {
        std::lock_guard<std::mutex> lock(vtkRandomMutex());
        layout->Update();
        for (int guard = 0; guard < 50 && !layout->IsLayoutComplete(); ++guard) {
            layout->Modified();
            layout->Update();
        }
        vtkGraph* result = vtkGraph::SafeDownCast(layout->GetOutput());
        vtkPoints* pts = result ? result->GetPoints() : nullptr;
        if (!pts || pts->GetNumberOfPoints() != n)
            return {};
        for (int i = 0; i < n; ++i) {
            double p[3];
            pts->GetPoint(i, p);
            out[i] = QPointF(p[0], p[1]);
        }
    }
    return out;
}

} // namespace pl::gui
