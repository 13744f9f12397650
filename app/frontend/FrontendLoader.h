#pragma once
/// Finds and opens libpaperlab_frontend.so (app/frontend/Frontend.h) for the executable. Needs no
/// Q*Application (it runs before one is created, because the module creates the QApplication).
/// Main thread.

#include <QString>
#include <QStringList>

namespace pl {

class Frontend;

/// Where the module is looked for, in order: $PAPERLAB_FRONTEND (a file path), then next to the
/// running executable's libraries: <bindir>/../lib (build tree) and
/// <bindir>/../<libdir>/paperlab (installed, as the private libraries and plugins).
QStringList frontendCandidates();

/// Opens the first candidate that exists and returns its Frontend (process lifetime; the module
/// is never unloaded). nullptr with a one-line reason in *error (not found, cannot be loaded with
/// the loader's message, no entry point, other interface version).
Frontend* loadFrontend(QString* error);

} // namespace pl
