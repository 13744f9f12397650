#include "Version.h"

#include <Eigen/Core>
#include <QtGlobal>

namespace pl {

QString paperlabVersion() { return QStringLiteral(PAPERLAB_VERSION); }

QString paperlabCommit() { return QStringLiteral(PAPERLAB_GIT_COMMIT); }

QString libraryVersions() {
    return QStringLiteral("Qt %1 (built with %2), Eigen %3.%4.%5, VTK %6, CUDA: %7")
        .arg(QString::fromLatin1(qVersion()), QStringLiteral(QT_VERSION_STR))
        .arg(EIGEN_WORLD_VERSION)
        .arg(EIGEN_MAJOR_VERSION)
        .arg(EIGEN_MINOR_VERSION)
        .arg(QStringLiteral(PAPERLAB_VTK_VERSION), QStringLiteral(PAPERLAB_CUDA_STATUS));
}

} // namespace pl
