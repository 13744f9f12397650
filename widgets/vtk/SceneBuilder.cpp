#include "SceneBuilder.h"

#include "SceneBuilderItems.h"
#include "ScenePicker.h"
#include "widgets/Colormap.h"

#include <vtkActor.h>
#include <vtkBillboardTextActor3D.h>
#include <vtkCamera.h>
#include <vtkLookupTable.h>
#include <vtkNew.h>
#include <vtkProperty.h>
#include <vtkRenderer.h>
#include <vtkScalarBarActor.h>
#include <vtkSmartPointer.h>
#include <vtkSphereSource.h>
#include <vtkTextProperty.h>

#include <algorithm>
#include <cmath>

namespace pl::gui {

namespace {

/// A vtkLookupTable with the 256 colours of a widgets Colormap over [lo, hi].
vtkSmartPointer<vtkLookupTable> makeLut(const QString& name, double lo, double hi) {
    const Colormap map = Colormap::byName(name);
    auto lut = vtkSmartPointer<vtkLookupTable>::New();
    lut->SetNumberOfTableValues(Colormap::TableSize);
    for (int i = 0; i < Colormap::TableSize; ++i) {
        const QRgb c = map.table().value(i);
        lut->SetTableValue(i, qRed(c) / 255.0, qGreen(c) / 255.0, qBlue(c) / 255.0, 1.0);
    }
    const QRgb nan = map.nanColor();
    lut->SetNanColor(qRed(nan) / 255.0, qGreen(nan) / 255.0, qBlue(nan) / 255.0, 1.0);
    lut->SetTableRange(lo, hi);
    return lut;
}

/// Widens an empty range so that a constant field still maps to the middle of the map.
void widen(double* lo, double* hi) {
    if (!(*hi > *lo)) {
        const double pad = std::max(1e-12, std::fabs(*lo) * 0.01 + 0.5);
        *lo -= pad;
        *hi += pad;
    }
}

void extend(const QVector<double>& v, bool* any, double* lo, double* hi) {
    for (double x : v)
        if (std::isfinite(x)) {
            *lo = *any ? std::min(*lo, x) : x;
            *hi = *any ? std::max(*hi, x) : x;
            *any = true;
        }
}

void setText(vtkTextProperty* t, const QColor& c, int size, bool bold) {
    t->SetColor(c.redF(), c.greenF(), c.blueF());
    t->SetFontSize(size);
    t->SetBold(bold);
    t->ItalicOff();
    t->ShadowOff();
    t->SetFontFamilyToArial();
}

} // namespace

struct SceneBuilder::Impl {
    SceneSpec scene;
    Theme theme;
    double pixelScale = 1.0;
    QVector<scenepick::Entry> entries;
    QVector<vtkSmartPointer<vtkLookupTable>> luts;
    QVector<vtkSmartPointer<vtkScalarBarActor>> bars;
    QVector<vtkSmartPointer<vtkBillboardTextActor3D>> labels;
    QVector<QPair<vtkActor*, double>> lineWidths; ///< line actors and their logical width
    QVector<QPair<vtkActor*, double>> pointSizes; ///< point actors and their logical size
    QVector<QPair<vtkSphereSource*, qsizetype>> sphereSources; ///< instanced spheres, set sizes
    bool interactive = false;
    int props = 0;

    void applySphereResolution() {
        for (const auto& [source, count] : sphereSources) {
            const auto [theta, phi] = sceneitems::sphereResolution(count, interactive);
            source->SetThetaResolution(theta);
            source->SetPhiResolution(phi);
        }
    }

    sceneitems::Coloring coloring(const SceneItemStyle& style, const QVector<double>& values, bool usesValues,
                                  vtkLookupTable* shared, double lo, double hi) {
        sceneitems::Coloring c;
        const Rgba& own = style.color;
        const QColor solid = own.isValid() ? QColor(own.red(), own.green(), own.blue(), own.alpha())
                                           : theme.seriesColor(style.colorIndex);
        c.rgb[0] = solid.redF();
        c.rgb[1] = solid.greenF();
        c.rgb[2] = solid.blueF();
        c.opacity = style.opacity;
        if (!usesValues)
            return c;
        if (style.colormap.isEmpty()) {
            c.lut = shared;
            c.lo = lo;
            c.hi = hi;
            return c;
        }
        bool any = false;
        double olo = 0, ohi = 1;
        extend(values, &any, &olo, &ohi);
        widen(&olo, &ohi);
        auto lut = makeLut(style.colormap, olo, ohi);
        luts.append(lut);
        c.lut = lut;
        c.lo = olo;
        c.hi = ohi;
        if (!style.colorBarTitle.isEmpty())
            bars.append(makeBar(lut, style.colorBarTitle));
        return c;
    }

    vtkSmartPointer<vtkScalarBarActor> makeBar(vtkLookupTable* lut, const QString& title) {
        auto bar = vtkSmartPointer<vtkScalarBarActor>::New();
        bar->SetLookupTable(lut);
        bar->SetTitle(title.toUtf8().constData());
        bar->SetNumberOfLabels(5);
        bar->SetLabelFormat("%-#6.3g");
        bar->SetOrientationToVertical();
        bar->UnconstrainedFontSizeOn();
        bar->SetBarRatio(0.25);
        return bar;
    }

    void styleOverlays() {
        // The first bar (the shared scale) on the right edge, further bars on the left edge, then
        // inwards: titles stay inside the view.
        const int n = int(bars.size());
        for (int i = 0; i < n; ++i) {
            vtkScalarBarActor* bar = bars[i];
            const int slot = i / 2;
            bar->SetPosition(i % 2 == 0 ? 0.89 - 0.12 * slot : 0.015 + 0.12 * slot, 0.07);
            bar->SetWidth(0.1);
            bar->SetHeight(0.78);
            setText(bar->GetTitleTextProperty(), theme.chartText, int(std::lround(13 * pixelScale)), false);
            setText(bar->GetLabelTextProperty(), theme.chartText, int(std::lround(12 * pixelScale)), false);
        }
        for (vtkBillboardTextActor3D* l : labels) {
            setText(l->GetTextProperty(), theme.chartText, int(std::lround(13 * pixelScale)), false);
            l->GetTextProperty()->SetJustificationToCentered();
            l->GetTextProperty()->SetVerticalJustificationToBottom();
            l->SetDisplayOffset(0, int(std::lround(6 * pixelScale)));
        }
        for (const auto& [actor, w] : lineWidths)
            actor->GetProperty()->SetLineWidth(float(std::max(1.0, w * pixelScale)));
        for (const auto& [actor, s] : pointSizes)
            actor->GetProperty()->SetPointSize(float(std::max(1.0, s * pixelScale)));
    }
};

SceneBuilder::SceneBuilder() : d(std::make_unique<Impl>()) {}
SceneBuilder::~SceneBuilder() = default;

const SceneSpec& SceneBuilder::scene() const {
    return d->scene;
}

int SceneBuilder::propCount() const {
    return d->props;
}

void SceneBuilder::build(vtkRenderer* r, const SceneSpec& s, const Theme& theme, double pixelScale,
                         bool resetCameraToo) {
    using namespace sceneitems;
    d->scene = s;
    d->theme = theme;
    d->pixelScale = pixelScale > 0 ? pixelScale : 1.0;
    d->entries.clear();
    d->luts.clear();
    d->bars.clear();
    d->labels.clear();
    d->lineWidths.clear();
    d->pointSizes.clear();
    d->sphereSources.clear();
    r->RemoveAllViewProps();
    const QColor bg = theme.chartBackground;
    r->SetBackground(bg.redF(), bg.greenF(), bg.blueF());
    r->GradientBackgroundOff();

    // Shared colour scale over the items without their own colour map.
    bool any = false, sharedUsed = false;
    double lo = 0, hi = 1;
    auto shares = [](const SceneItemStyle& st) { return st.colormap.isEmpty(); };
    for (const auto& it : s.spheres)
        if (shares(it.style) && usesValues(it.values, it.centers.size()))
            extend(it.values, &any, &lo, &hi);
    for (const auto& it : s.polylines)
        if (shares(it.style) && usesValues(it.values, it.points.size()))
            extend(it.values, &any, &lo, &hi);
    for (const auto& it : s.surfaces)
        if (shares(it.style) &&
            (it.kind == SurfaceSpec::Kind::Torus ? torusHasValues(it)
                                                 : usesValues(it.values, it.vertices.size())))
            extend(it.values, &any, &lo, &hi);
    for (const auto& it : s.pointClouds)
        if (shares(it.style) && usesValues(it.values, it.points.size()))
            extend(it.values, &any, &lo, &hi);
    for (const auto& it : s.arrows)
        if (shares(it.style) && usesValues(it.values, it.origins.size()))
            extend(it.values, &any, &lo, &hi);
    if (s.fixedRange) {
        lo = s.vMin;
        hi = s.vMax;
    }
    widen(&lo, &hi);
    auto shared = makeLut(s.colormap, lo, hi);
    d->luts.append(shared);
    auto note = [&](vtkActor* a, const char* kind, qsizetype i, bool values, const SceneItemStyle& st) {
        if (!a)
            return;
        d->entries.append(scenepick::Entry{a, QLatin1String(kind), int(i)});
        sharedUsed = sharedUsed || (values && shares(st));
    };

    for (qsizetype i = 0; i < s.surfaces.size(); ++i) {
        const SurfaceSpec& it = s.surfaces[i];
        const bool v = it.kind == SurfaceSpec::Kind::Torus ? torusHasValues(it)
                                                           : usesValues(it.values, it.vertices.size());
        note(addSurface(r, it, d->coloring(it.style, it.values, v, shared, lo, hi), theme.axisLine),
             "surface", i, v, it.style);
    }
    for (qsizetype i = 0; i < s.spheres.size(); ++i) {
        const SphereSetSpec& it = s.spheres[i];
        const bool v = usesValues(it.values, it.centers.size());
        note(addSpheres(r, it, d->coloring(it.style, it.values, v, shared, lo, hi)), "sphere", i, v,
             it.style);
    }
    for (qsizetype i = 0; i < s.polylines.size(); ++i) {
        const PolylineSpec& it = s.polylines[i];
        const bool v = usesValues(it.values, it.points.size());
        vtkActor* a = addPolyline(r, it, d->coloring(it.style, it.values, v, shared, lo, hi), d->pixelScale);
        if (a && it.radius <= 0)
            d->lineWidths.append({a, it.lineWidth});
        note(a, "polyline", i, v, it.style);
    }
    for (qsizetype i = 0; i < s.pointClouds.size(); ++i) {
        const PointCloudSpec& it = s.pointClouds[i];
        const bool v = usesValues(it.values, it.points.size());
        vtkActor* a = addPoints(r, it, d->coloring(it.style, it.values, v, shared, lo, hi), d->pixelScale);
        if (a)
            d->pointSizes.append({a, it.pointSize});
        note(a, "point", i, v, it.style);
    }
    for (qsizetype i = 0; i < s.arrows.size(); ++i) {
        const ArrowSetSpec& it = s.arrows[i];
        const bool v = usesValues(it.values, std::min(it.origins.size(), it.vectors.size()));
        note(addArrows(r, it, d->coloring(it.style, it.values, v, shared, lo, hi)), "arrow", i, v, it.style);
    }
    if (sharedUsed && s.showColorBar)
        d->bars.prepend(d->makeBar(shared, s.colorBarTitle));
    if (!s.showColorBar)
        d->bars.clear();
    for (const SceneLabelSpec& l : s.labels) {
        auto t = vtkSmartPointer<vtkBillboardTextActor3D>::New();
        t->SetInput(l.text.toUtf8().constData());
        t->SetPosition(l.position.x(), l.position.y(), l.position.z());
        d->labels.append(t);
        r->AddActor(t);
    }
    for (vtkScalarBarActor* bar : d->bars)
        r->AddViewProp(bar);
    d->styleOverlays();
    d->applySphereResolution();
    d->props = int(d->entries.size() + d->bars.size() + d->labels.size());
    if (resetCameraToo)
        resetCamera(r);
    else
        r->ResetCameraClippingRange();
}

void SceneBuilder::resetCamera(vtkRenderer* r) const {
    const CameraSpec& c = d->scene.camera;
    vtkCamera* cam = r->GetActiveCamera();
    cam->SetParallelProjection(c.parallel);
    if (c.hasPosition) {
        cam->SetPosition(c.position.x(), c.position.y(), c.position.z());
        cam->SetFocalPoint(c.focalPoint.x(), c.focalPoint.y(), c.focalPoint.z());
        cam->SetViewUp(c.viewUp.x(), c.viewUp.y(), c.viewUp.z());
    } else {
        // Look along +y with the hinted up vector, then turn and frame the scene.
        cam->SetFocalPoint(0, 0, 0);
        cam->SetPosition(0, -1, 0);
        cam->SetViewUp(c.viewUp.x(), c.viewUp.y(), c.viewUp.z());
        r->ResetCamera();
        cam->Azimuth(c.azimuth);
        cam->Elevation(c.elevation);
        cam->OrthogonalizeViewUp();
        r->ResetCamera();
    }
    if (c.zoom > 0 && c.zoom != 1.0)
        cam->Zoom(c.zoom);
    r->ResetCameraClippingRange();
}

void SceneBuilder::setPixelScale(double pixelScale) {
    if (!(pixelScale > 0) || pixelScale == d->pixelScale)
        return;
    d->pixelScale = pixelScale;
    d->styleOverlays();
}

void SceneBuilder::setInteractive(bool interactive) {
    if (interactive == d->interactive)
        return;
    d->interactive = interactive;
    d->applySphereResolution();
}

bool SceneBuilder::isInteractive() const {
    return d->interactive;
}

ScenePick SceneBuilder::pick(vtkRenderer* r, double x, double y) const {
    return scenepick::pick(r, d->scene, d->entries, x, y);
}

} // namespace pl::gui
