#include "FrontendLoader.h"

#include "Frontend.h"

#include <QDir>
#include <QFileInfo>
#include <QLibrary>

namespace pl {

namespace {

/// Directory of the running executable, without a QCoreApplication (Linux: /proc/self/exe).
QString executableDir() {
    const QFileInfo exe(QStringLiteral("/proc/self/exe"));
    const QString target = exe.canonicalFilePath();
    return target.isEmpty() ? QString() : QFileInfo(target).absolutePath();
}

} // namespace

QStringList frontendCandidates() {
    QStringList paths;
    const QString env = qEnvironmentVariable("PAPERLAB_FRONTEND");
    if (!env.isEmpty())
        return {env};
    const QString dir = executableDir();
    if (dir.isEmpty())
        return paths;
    const QString name = QStringLiteral(PAPERLAB_FRONTEND_FILE);
    paths << QDir(dir).absoluteFilePath(QStringLiteral("../lib/") + name);
    paths << QDir(dir).absoluteFilePath(QStringLiteral(PAPERLAB_FRONTEND_RELDIR "/") + name);
    for (QString& p : paths)
        p = QDir::cleanPath(p);
    paths.removeDuplicates();
    return paths;
}

Frontend* loadFrontend(QString* error) {
    const QStringList candidates = frontendCandidates();
    QString path;
    for (const QString& c : candidates)
        if (QFileInfo::exists(c)) {
            path = c;
            break;
        }
    if (path.isEmpty()) {
        if (error)
            *error = QStringLiteral("the renderer module %1 was not found (looked in: %2)")
                         .arg(QStringLiteral(PAPERLAB_FRONTEND_FILE), candidates.join(QStringLiteral(", ")));
        return nullptr;
    }
    // ~QLibrary does not unload: the module stays loaded for the rest of the process.
    static QLibrary library;
    library.setFileName(path);
    auto entry = reinterpret_cast<PaperlabFrontendEntry>(library.resolve(PAPERLAB_FRONTEND_ENTRY));
    if (!entry) {
        if (error)
            *error = QStringLiteral("cannot load the renderer module: %1").arg(library.errorString());
        return nullptr;
    }
    Frontend* frontend = entry(kPaperlabFrontendVersion);
    if (!frontend && error)
        *error = QStringLiteral("the renderer module %1 was built for another version of paperlab").arg(path);
    return frontend;
}

} // namespace pl
