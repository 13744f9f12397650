#pragma once
// main() for the GL tests: VTK's surface format and shared contexts before QApplication, the VTK
// views registered. With an X display the tests use Qt's xcb platform even when the environment
// says offscreen (tests/run-tests.sh exports QT_QPA_PLATFORM=offscreen for every test, and
// QOpenGLWidget does not work on the offscreen platform); PAPERLAB_GL_PLATFORM overrides that.
// Without a display: offscreen, and the tests skip.

#include "widgets/vtk/VtkViews.h"

#include <QApplication>
#include <QSurfaceFormat>
#include <QtTest>

inline void paperlabChooseGlPlatform() {
    if (qEnvironmentVariableIsEmpty("DISPLAY"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    else if (!qEnvironmentVariableIsEmpty("PAPERLAB_GL_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", qgetenv("PAPERLAB_GL_PLATFORM"));
    else
        qputenv("QT_QPA_PLATFORM", "xcb");
}

#define PAPERLAB_GL_TEST_MAIN(TestClass)                                                                     \
    int main(int argc, char** argv) {                                                                        \
        paperlabChooseGlPlatform();                                                                          \
        QApplication::setAttribute(Qt::AA_ShareOpenGLContexts);                                              \
        QSurfaceFormat::setDefaultFormat(pl::gui::vtkSurfaceFormat());                                       \
        QApplication app(argc, argv);                                                                        \
        pl::gui::registerVtkViews();                                                                         \
        TestClass t;                                                                                         \
        QTEST_SET_MAIN_SOURCE_PATH                                                                           \
        return QTest::qExec(&t, argc, argv);                                                                 \
    }
