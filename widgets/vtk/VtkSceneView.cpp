#include "VtkSceneView.h"

#include "SceneBuilder.h"
#include "VtkOffscreenRenderer.h"
#include "VtkViewport.h"
#include "widgets/ThemeManager.h"

#include <QGuiApplication>
#include <QLabel>
#include <QPainter>
#include <QStackedLayout>
#include <QTimer>
#include <QVBoxLayout>

#include <vtkRenderer.h>

namespace pl::gui {

namespace {

/// Qt platforms whose windows cannot host a QOpenGLWidget (Qt warns "not supported on this
/// platform" and the offscreen platform crashes when such a window is flushed).
bool glWidgetsSupported() {
    static const QStringList without = {QStringLiteral("offscreen"),  QStringLiteral("minimal"),
                                        QStringLiteral("minimalegl"), QStringLiteral("vnc"),
                                        QStringLiteral("linuxfb"),    QStringLiteral("vkkhrdisplay")};
    return !without.contains(QGuiApplication::platformName());
}

} // namespace

/// Fallback for platforms without OpenGL widgets: the scene rendered offscreen at the widget's
/// size (re-rendered after resizes settle), not interactive.
class SceneImageWidget : public QWidget {
public:
    explicit SceneImageWidget(VtkSceneView* owner, QWidget* parent) : QWidget(parent), m_owner(owner) {
        m_timer.setSingleShot(true);
        m_timer.setInterval(100);
        QObject::connect(&m_timer, &QTimer::timeout, this, [this] { refresh(); });
    }
    void refresh() {
        const double dpr = devicePixelRatioF();
        QString error;
        m_image = VtkOffscreenRenderer::shared().render(m_owner->m_scene, size() * dpr, m_owner->m_theme,
                                                        &error, dpr);
        m_image.setDevicePixelRatio(dpr);
        m_error = error;
        update();
    }
    const QImage& image() const { return m_image; }

protected:
    void resizeEvent(QResizeEvent*) override { m_timer.start(); }
    void paintEvent(QPaintEvent*) override {
        QPainter p(this);
        p.fillRect(rect(), m_owner->m_theme.chartBackground);
        if (!m_image.isNull())
            p.drawImage(QPointF(0, 0), m_image);
        else if (!m_error.isEmpty()) {
            p.setPen(m_owner->m_theme.mutedText);
            p.drawText(rect().adjusted(8, 8, -8, -8), Qt::AlignCenter | Qt::TextWordWrap, m_error);
        }
    }

private:
    VtkSceneView* m_owner;
    QImage m_image;
    QString m_error;
    QTimer m_timer;
};

VtkSceneView::VtkSceneView(QWidget* parent)
    : AbstractSceneView(parent), m_builder(std::make_unique<SceneBuilder>()), m_theme(Theme::current()) {
    auto* outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    outer->setSpacing(0);
    m_titleLabel = new QLabel(this);
    m_titleLabel->setAlignment(Qt::AlignCenter);
    outer->addWidget(m_titleLabel);
    m_host = new QWidget(this);
    m_stack = new QStackedLayout(m_host);
    m_stack->setContentsMargins(0, 0, 0, 0);
    m_message = new QLabel(m_host);
    m_message->setAlignment(Qt::AlignCenter);
    m_message->setWordWrap(true);
    m_stack->addWidget(m_message);
    outer->addWidget(m_host, 1);
    connect(ThemeManager::instance(), &ThemeManager::themeChanged, this, [this] {
        if (m_followTheme) {
            m_theme = Theme::current();
            applyPalette();
            rebuild(false);
        }
    });
    applyPalette();
}

VtkSceneView::~VtkSceneView() = default;

void VtkSceneView::applyPalette() {
    QPalette pal = palette();
    pal.setColor(QPalette::Window, m_theme.chartBackground);
    pal.setColor(QPalette::WindowText, m_theme.chartText);
    setAutoFillBackground(true);
    setPalette(pal);
    m_titleLabel->setFont(m_theme.font(Theme::FontRole::Title));
}

void VtkSceneView::setTheme(const Theme& theme) {
    m_followTheme = false;
    m_theme = theme;
    applyPalette();
    if (m_built)
        rebuild(false);
}

bool VtkSceneView::isInteractive() const {
    return glWidgetsSupported();
}

void VtkSceneView::ensureView() {
    if (m_viewport || m_image)
        return;
    if (!glWidgetsSupported()) {
        m_image = new SceneImageWidget(this, m_host);
        m_stack->addWidget(m_image);
        return;
    }
    // Created on the first drawable scene only: a window that never shows a 3D scene keeps
    // Qt's plain raster composition.
    m_viewport = new VtkViewport(m_host);
    m_viewport->setAccessibleName(tr("3D view"));
    m_stack->addWidget(m_viewport);
    connect(m_viewport, &VtkViewport::clicked, this, &VtkSceneView::onClicked);
    connect(m_viewport, &VtkViewport::resetCameraRequested, this, &VtkSceneView::resetCamera);
    // Coarser spheres while the camera moves, full quality when it stops.
    connect(m_viewport, &VtkViewport::interactionChanged, this, [this](bool on) {
        m_builder->setInteractive(on);
        m_viewport->requestRender();
    });
    connect(m_viewport, &VtkViewport::glReady, this, [this] {
        if (m_builtScale != m_viewport->pixelRatio())
            rebuild(!m_built);
    });
}

void VtkSceneView::setScene(const SceneSpec& scene, const QString& title, bool resetCameraToo) {
    m_scene = scene;
    m_title = title;
    m_titleLabel->setText(title);
    m_titleLabel->setVisible(!title.isEmpty());
    rebuild(resetCameraToo || !m_built);
}

void VtkSceneView::rebuild(bool resetCameraToo) {
    if (!m_scene.message.isEmpty()) {
        m_message->setText(m_scene.message);
        m_stack->setCurrentWidget(m_message);
        return;
    }
    ensureView();
    if (m_image) {
        m_stack->setCurrentWidget(m_image);
        m_image->refresh();
        return;
    }
    m_stack->setCurrentWidget(m_viewport);
    m_builtScale = m_viewport->pixelRatio();
    m_builder->build(m_viewport->renderer(), m_scene, m_theme, m_builtScale, resetCameraToo);
    m_built = true;
    m_viewport->requestRender();
}

void VtkSceneView::resetCamera() {
    if (m_image)
        m_image->refresh(); // the offscreen render always uses the camera hints
    if (!m_built || !m_viewport)
        return;
    m_builder->resetCamera(m_viewport->renderer());
    m_viewport->requestRender();
}

QImage VtkSceneView::grabScene() {
    if (m_image && m_stack->currentWidget() == m_image)
        return m_image->image();
    if (!m_viewport || m_stack->currentWidget() != m_viewport)
        return QImage();
    return m_viewport->grabFramebuffer();
}

ScenePick VtkSceneView::pickAt(const QPointF& pos) {
    if (!m_viewport || !m_built)
        return {};
    const double dpr = m_viewport->pixelRatio();
    const QPointF local = m_viewport->mapFrom(this, pos);
    const double y = std::max(1, qRound(m_viewport->height() * dpr)) - 1 - local.y() * dpr;
    const ScenePick p = m_builder->pick(m_viewport->renderer(), local.x() * dpr, y);
    m_pickText = p.text;
    return p;
}

void VtkSceneView::onClicked(double x, double y) {
    if (!m_built)
        return;
    const ScenePick p = m_builder->pick(m_viewport->renderer(), x, y);
    m_pickText = p.text;
    emit hoverTextChanged(p.text);
    if (p.hit)
        emit picked(p.item, p.element, QVector3D(p.position.x(), p.position.y(), p.position.z()));
}

} // namespace pl::gui
