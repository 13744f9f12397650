#include "ExampleInputs.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>

namespace pl::gui {

namespace {

bool isExampleEntry(const QFileInfo& fi) {
    return !fi.fileName().startsWith(QLatin1Char('.')) &&
           !fi.fileName().endsWith(QLatin1String(".md"), Qt::CaseInsensitive);
}

} // namespace

QStringList ExampleInputs::searchPaths() {
    QStringList dirs;
    const QString appDir = QCoreApplication::applicationDirPath();
    if (!appDir.isEmpty())
        dirs << QDir::cleanPath(QDir(appDir).absoluteFilePath(QStringLiteral(PAPERLAB_EXAMPLES_RELDIR)));
    dirs << QDir::cleanPath(QStringLiteral(PAPERLAB_EXAMPLES_SOURCE_DIR));
    return dirs;
}

QString ExampleInputs::root() {
    for (const QString& d : searchPaths())
        if (QFileInfo(d).isDir())
            return d;
    return {};
}

QList<ExampleInput> ExampleInputs::forPanel(const QString& panelId, const QString& root) {
    QList<ExampleInput> out;
    if (root.isEmpty() || panelId.isEmpty() || panelId.contains(QLatin1Char('/')))
        return out;
    const QDir dir(QDir(root).filePath(panelId));
    const auto filters = QDir::Files | QDir::Dirs | QDir::NoDotAndDotDot | QDir::Readable;
    for (const QFileInfo& fi : dir.entryInfoList(filters, QDir::Name)) {
        if (!isExampleEntry(fi))
            continue;
        ExampleInput e;
        e.name = fi.fileName();
        if (fi.isDir()) {
            for (const QFileInfo& f :
                 QDir(fi.absoluteFilePath()).entryInfoList(QDir::Files | QDir::Readable, QDir::Name))
                if (isExampleEntry(f))
                    e.files << f.absoluteFilePath();
        } else {
            e.files << fi.absoluteFilePath();
        }
        if (!e.files.isEmpty())
            out << e;
    }
    return out;
}

} // namespace pl::gui
