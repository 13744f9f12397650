#pragma once
/// Build provenance: Paperlab version, git commit and library versions, for --version, About,
/// reports and result documents.

#include <QString>

namespace pl {

QString paperlabVersion();  ///< e.g. "0.1.0"
QString paperlabCommit();   ///< short git hash of the build, or "unknown"
/// One line: "Qt 6.4.2, Eigen 3.4.0, VTK 9.1.0, CUDA: not built".
QString libraryVersions();

} // namespace pl
