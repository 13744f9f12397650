#pragma once
/// The example input files that ship with Paperlab (resources/examples/<panel-id>/ in the source
/// tree, installed to <prefix>/share/paperlab/examples/<panel-id>/). An example is one file, or a
/// folder whose files are loaded together in name order (e.g. Q, K and V of tilesparse). Found at
/// run time: the install tree next to the executable first, then the source tree of the build
/// (build trees and tests). No paper knowledge; reentrant (reads the file system only).

#include <QList>
#include <QString>
#include <QStringList>

namespace pl::gui {

/// One example input of a panel.
struct ExampleInput {
    QString name;      ///< file or folder name, as shown in File > Open Example
    QStringList files; ///< absolute paths in load order: one file, or a folder's files by name
};

class ExampleInputs {
public:
    /// Folders searched, in order: <exe dir>/../share/paperlab/examples (install tree), then the
    /// source tree's resources/examples (compiled in; exists in build trees only).
    static QStringList searchPaths();
    /// The first search path that exists ("" when none does).
    static QString root();
    /// The examples of panel `panelId` under `root` (default root()), sorted by name. Markdown
    /// files (README.md) and hidden entries are skipped, and so are empty folders.
    static QList<ExampleInput> forPanel(const QString& panelId, const QString& root = ExampleInputs::root());
};

} // namespace pl::gui
