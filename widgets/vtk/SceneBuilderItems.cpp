#include "SceneBuilderItems.h"

#include <vtkActor.h>
#include <vtkArrowSource.h>
#include <vtkCellArray.h>
#include <vtkDataArray.h>
#include <vtkDoubleArray.h>
#include <vtkFloatArray.h>
#include <vtkGlyph3DMapper.h>
#include <vtkLookupTable.h>
#include <vtkNew.h>
#include <vtkParametricFunctionSource.h>
#include <vtkParametricTorus.h>
#include <vtkPointData.h>
#include <vtkPoints.h>
#include <vtkPolyData.h>
#include <vtkPolyDataMapper.h>
#include <vtkPolyDataNormals.h>
#include <vtkProperty.h>
#include <vtkRenderer.h>
#include <vtkSphereSource.h>
#include <vtkTubeFilter.h>

#include <algorithm>
#include <cmath>

namespace pl::gui::sceneitems {

namespace {

/// Colours \a mapper by the point scalars of its input through the lookup table, or switches
/// scalar colouring off and uses the solid colour.
template <class Mapper> void applyColoring(Mapper* mapper, vtkActor* actor, const Coloring& c, bool values) {
    if (values && c.lut) {
        mapper->SetLookupTable(c.lut);
        mapper->SetScalarRange(c.lo, c.hi);
        mapper->SetScalarModeToUsePointData();
        mapper->SetColorModeToMapScalars();
        mapper->ScalarVisibilityOn();
    } else {
        mapper->ScalarVisibilityOff();
    }
    actor->GetProperty()->SetColor(c.rgb[0], c.rgb[1], c.rgb[2]);
    actor->GetProperty()->SetOpacity(std::clamp(c.opacity, 0.0, 1.0));
}

vtkNew<vtkDoubleArray> valueArray(const QVector<double>& values) {
    vtkNew<vtkDoubleArray> a;
    a->SetName("value");
    a->SetNumberOfValues(values.size());
    for (qsizetype i = 0; i < values.size(); ++i)
        a->SetValue(i, values[i]);
    return a;
}

vtkNew<vtkPoints> pointsOf(const QVector<Vec3>& pts) {
    vtkNew<vtkPoints> p;
    p->SetNumberOfPoints(pts.size());
    for (qsizetype i = 0; i < pts.size(); ++i)
        p->SetPoint(i, pts[i].x(), pts[i].y(), pts[i].z());
    return p;
}

vtkActor* finish(vtkRenderer* r, vtkActor* actor) {
    r->AddActor(actor);
    return actor;
}

} // namespace

QPair<int, int> sphereResolution(qsizetype n, bool coarse) {
    if (coarse && n > 1000)
        return {6, 4};
    const int res = n <= 500 ? 24 : n <= 5000 ? 14 : 10;
    return {res, std::max(6, res * 3 / 4)};
}

vtkActor* addSpheres(vtkRenderer* r, const SphereSetSpec& s, const Coloring& c, vtkSphereSource** source) {
    const qsizetype n = s.centers.size();
    if (n == 0)
        return nullptr;
    vtkNew<vtkPolyData> pd;
    pd->SetPoints(pointsOf(s.centers));
    vtkNew<vtkFloatArray> radius;
    radius->SetName("radius");
    radius->SetNumberOfValues(n);
    for (qsizetype i = 0; i < n; ++i) {
        const double rr = i < s.radii.size() ? s.radii[i] : s.radius;
        radius->SetValue(i, float(std::isfinite(rr) && rr > 0 ? rr : 0.0));
    }
    pd->GetPointData()->AddArray(radius);
    const bool values = usesValues(s.values, n);
    if (values)
        pd->GetPointData()->SetScalars(valueArray(s.values));
    // Fewer facets when there are many spheres (one instanced sphere for the whole set).
    const auto [theta, phi] = sphereResolution(n, false);
    vtkNew<vtkSphereSource> sphere;
    sphere->SetRadius(1.0);
    sphere->SetThetaResolution(theta);
    sphere->SetPhiResolution(phi);
    if (source)
        *source = sphere;
    vtkNew<vtkGlyph3DMapper> mapper;
    mapper->SetInputData(pd);
    mapper->SetSourceConnection(sphere->GetOutputPort());
    mapper->SetScaleArray("radius");
    mapper->SetScaleModeToScaleByMagnitude();
    mapper->ScalingOn();
    mapper->SetScaleFactor(1.0);
    mapper->OrientOff();
    vtkNew<vtkActor> actor;
    actor->SetMapper(mapper);
    applyColoring(mapper.Get(), actor, c, values);
    actor->GetProperty()->SetSpecular(0.25);
    actor->GetProperty()->SetSpecularPower(20);
    return finish(r, actor);
}

vtkActor* addPolyline(vtkRenderer* r, const PolylineSpec& s, const Coloring& c, double pixelScale) {
    // Drop repeated points (a tube cannot orient a zero-length segment).
    QVector<Vec3> pts;
    QVector<double> vals;
    const bool values = usesValues(s.values, s.points.size());
    for (qsizetype i = 0; i < s.points.size(); ++i) {
        if (!pts.isEmpty() && (s.points[i] - pts.last()).lengthSquared() < 1e-14f)
            continue;
        pts.append(s.points[i]);
        if (values)
            vals.append(s.values[i]);
    }
    if (pts.size() < 2)
        return nullptr;
    vtkNew<vtkPolyData> pd;
    pd->SetPoints(pointsOf(pts));
    vtkNew<vtkCellArray> lines;
    lines->InsertNextCell(vtkIdType(pts.size()));
    for (qsizetype i = 0; i < pts.size(); ++i)
        lines->InsertCellPoint(vtkIdType(i));
    pd->SetLines(lines);
    if (values)
        pd->GetPointData()->SetScalars(valueArray(vals));
    vtkNew<vtkPolyDataMapper> mapper;
    vtkNew<vtkActor> actor;
    if (s.radius > 0) {
        vtkNew<vtkTubeFilter> tube;
        tube->SetInputData(pd);
        tube->SetRadius(s.radius);
        tube->SetNumberOfSides(16);
        tube->CappingOn();
        mapper->SetInputConnection(tube->GetOutputPort());
    } else {
        mapper->SetInputData(pd);
        actor->GetProperty()->SetLineWidth(float(std::max(1.0, s.lineWidth * pixelScale)));
        actor->GetProperty()->SetRenderLinesAsTubes(true);
        actor->GetProperty()->LightingOff();
    }
    actor->SetMapper(mapper);
    applyColoring(mapper.Get(), actor, c, values);
    return finish(r, actor);
}

vtkActor* addSurface(vtkRenderer* r, const SurfaceSpec& s, const Coloring& c, const QColor& edges) {
    vtkNew<vtkPolyDataMapper> mapper;
    vtkNew<vtkActor> actor;
    bool values = false;
    if (s.kind == SurfaceSpec::Kind::Torus) {
        vtkNew<vtkParametricTorus> torus;
        torus->SetRingRadius(s.ringRadius);
        torus->SetCrossSectionRadius(s.tubeRadius);
        vtkNew<vtkParametricFunctionSource> source;
        source->SetParametricFunction(torus);
        const int res = std::clamp(s.resolution, 8, 512);
        source->SetUResolution(res);
        source->SetVResolution(std::max(6, res / 2));
        source->GenerateTextureCoordinatesOn();
        source->SetScalarModeToNone();
        source->Update();
        vtkNew<vtkPolyData> pd;
        pd->ShallowCopy(source->GetOutput());
        values = torusHasValues(s);
        vtkDataArray* tc = pd->GetPointData()->GetTCoords();
        if (values && tc) {
            // Each vertex interpolates the grid bilinearly at its (u, v) (texture coordinates in
            // [0, 1], periodic in both directions; grid values sit at cell centres).
            QVector<double> v(pd->GetNumberOfPoints());
            auto at = [&](int iu, int iv) {
                iu = ((iu % s.gridU) + s.gridU) % s.gridU;
                iv = ((iv % s.gridV) + s.gridV) % s.gridV;
                return s.values[qsizetype(iu) * s.gridV + iv];
            };
            for (vtkIdType i = 0; i < pd->GetNumberOfPoints(); ++i) {
                double st[2];
                tc->GetTuple(i, st);
                const double fu = st[0] * s.gridU - 0.5, fv = st[1] * s.gridV - 0.5;
                const int u0 = int(std::floor(fu)), v0 = int(std::floor(fv));
                const double au = fu - u0, av = fv - v0;
                v[i] = (1 - au) * ((1 - av) * at(u0, v0) + av * at(u0, v0 + 1)) +
                       au * ((1 - av) * at(u0 + 1, v0) + av * at(u0 + 1, v0 + 1));
            }
            pd->GetPointData()->SetScalars(valueArray(v));
        } else {
            values = false;
        }
        mapper->SetInputData(pd);
        actor->SetPosition(s.center.x(), s.center.y(), s.center.z());
    } else {
        const qsizetype n = s.vertices.size();
        if (n == 0 || s.triangles.size() < 3)
            return nullptr;
        vtkNew<vtkPolyData> pd;
        pd->SetPoints(pointsOf(s.vertices));
        vtkNew<vtkCellArray> tris;
        for (qsizetype t = 0; t + 2 < s.triangles.size(); t += 3) {
            const int a = s.triangles[t], b = s.triangles[t + 1], cc = s.triangles[t + 2];
            if (a < 0 || b < 0 || cc < 0 || a >= n || b >= n || cc >= n)
                continue;
            const vtkIdType ids[3] = {a, b, cc};
            tris->InsertNextCell(3, ids);
        }
        pd->SetPolys(tris);
        values = usesValues(s.values, n);
        if (values)
            pd->GetPointData()->SetScalars(valueArray(s.values));
        vtkNew<vtkPolyDataNormals> normals;
        normals->SetInputData(pd);
        normals->SplittingOff(); // keeps one output point per vertex (picks map back)
        normals->ConsistencyOn();
        mapper->SetInputConnection(normals->GetOutputPort());
    }
    actor->SetMapper(mapper);
    applyColoring(mapper.Get(), actor, c, values);
    if (s.showEdges) {
        actor->GetProperty()->EdgeVisibilityOn();
        actor->GetProperty()->SetEdgeColor(edges.redF(), edges.greenF(), edges.blueF());
    }
    if (c.opacity < 1.0)
        actor->GetProperty()->BackfaceCullingOff();
    return finish(r, actor);
}

vtkActor* addPoints(vtkRenderer* r, const PointCloudSpec& s, const Coloring& c, double pixelScale) {
    const qsizetype n = s.points.size();
    if (n == 0)
        return nullptr;
    vtkNew<vtkPolyData> pd;
    pd->SetPoints(pointsOf(s.points));
    vtkNew<vtkCellArray> verts;
    for (qsizetype i = 0; i < n; ++i) {
        const vtkIdType id = vtkIdType(i);
        verts->InsertNextCell(1, &id);
    }
    pd->SetVerts(verts);
    const bool values = usesValues(s.values, n);
    if (values)
        pd->GetPointData()->SetScalars(valueArray(s.values));
    vtkNew<vtkPolyDataMapper> mapper;
    mapper->SetInputData(pd);
    vtkNew<vtkActor> actor;
    actor->SetMapper(mapper);
    applyColoring(mapper.Get(), actor, c, values);
    actor->GetProperty()->SetPointSize(float(std::max(1.0, s.pointSize * pixelScale)));
    actor->GetProperty()->SetRenderPointsAsSpheres(true);
    return finish(r, actor);
}

vtkActor* addArrows(vtkRenderer* r, const ArrowSetSpec& s, const Coloring& c) {
    const qsizetype n = std::min(s.origins.size(), s.vectors.size());
    if (n == 0)
        return nullptr;
    vtkNew<vtkPolyData> pd;
    pd->SetPoints(pointsOf(s.origins.mid(0, n)));
    vtkNew<vtkFloatArray> dir;
    dir->SetName("direction");
    dir->SetNumberOfComponents(3);
    dir->SetNumberOfTuples(n);
    vtkNew<vtkFloatArray> length;
    length->SetName("length");
    length->SetNumberOfValues(n);
    for (qsizetype i = 0; i < n; ++i) {
        const Vec3 v = s.vectors[i];
        const float t[3] = {v.x(), v.y(), v.z()};
        dir->SetTypedTuple(i, t);
        length->SetValue(i, float(v.length() * s.scale));
    }
    pd->GetPointData()->AddArray(dir);
    pd->GetPointData()->AddArray(length);
    const bool values = usesValues(s.values, n);
    if (values)
        pd->GetPointData()->SetScalars(valueArray(s.values.mid(0, n)));
    vtkNew<vtkArrowSource> arrow;
    arrow->SetTipResolution(16);
    arrow->SetShaftResolution(12);
    vtkNew<vtkGlyph3DMapper> mapper;
    mapper->SetInputData(pd);
    mapper->SetSourceConnection(arrow->GetOutputPort());
    mapper->SetOrientationArray("direction");
    mapper->SetOrientationModeToDirection();
    mapper->OrientOn();
    mapper->SetScaleArray("length");
    mapper->SetScaleModeToScaleByMagnitude();
    mapper->ScalingOn();
    vtkNew<vtkActor> actor;
    actor->SetMapper(mapper);
    applyColoring(mapper.Get(), actor, c, values);
    return finish(r, actor);
}

} // namespace pl::gui::sceneitems
