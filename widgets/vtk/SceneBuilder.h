#pragma once
/// Turns a SceneSpec into the content of a vtkRenderer: glyph-instanced spheres and arrows, tubes
/// or lines for polylines, meshes and parametric tori, point clouds, billboard labels, colour maps
/// (widgets' Colormap as vtkLookupTable), scalar bars, the theme's background and the camera
/// hints. The same builder serves the on-screen viewport and the offscreen renderer, so both show
/// the same picture; it also answers picks. VTK types appear only as forward declarations.
/// Thread affinity: the thread that renders (GUI).

#include "sdk/figure/FigureSpec.h"
#include "widgets/Theme.h"

#include <limits>
#include <memory>

class vtkRenderer;

namespace pl::gui {

/// What a pick hit (hit == false: nothing).
struct ScenePick {
    bool hit = false;
    QString item;       ///< the item's name, or "<kind> <index>"
    QString kind;       ///< "sphere" | "polyline" | "surface" | "point" | "arrow"
    int itemIndex = -1; ///< index in its SceneSpec list
    int element = -1;   ///< sphere / point / arrow index; nearest point or vertex for lines, surfaces
    Vec3 position; ///< picked position (scene units)
    double value = std::numeric_limits<double>::quiet_NaN(); ///< colour value of the element, if any
    QString text;                                            ///< one-line read-out
};

class SceneBuilder {
public:
    SceneBuilder();
    ~SceneBuilder();
    SceneBuilder(const SceneBuilder&) = delete;
    SceneBuilder& operator=(const SceneBuilder&) = delete;

    /// Replaces everything in \a renderer (not owned) by \a scene drawn in \a theme.
    /// \a pixelScale: device pixels per logical pixel (line widths, point and font sizes).
    /// \a resetCamera: apply the camera hints (else keep the current camera).
    void build(vtkRenderer* renderer, const SceneSpec& scene, const Theme& theme, double pixelScale = 1.0,
               bool resetCamera = true);
    /// Applies the scene's camera hints to \a renderer (frames the scene).
    void resetCamera(vtkRenderer* renderer) const;
    /// Rescales line widths, point and text sizes for a new device-pixel scale.
    void setPixelScale(double pixelScale);
    /// Interaction frames (camera drag): large sphere sets use coarse spheres until switched back.
    void setInteractive(bool interactive);
    bool isInteractive() const;
    /// What is under display position (\a x, \a y) in device pixels, origin bottom-left.
    ScenePick pick(vtkRenderer* renderer, double x, double y) const;

    const SceneSpec& scene() const;
    /// Number of props (actors, scalar bars, labels) added by the last build.
    int propCount() const;

private:
    struct Impl;
    std::unique_ptr<Impl> d;
};

} // namespace pl::gui
