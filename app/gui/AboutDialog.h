#pragma once
/// "About Paperlab": version and build commit (PAPERLAB_GIT_COMMIT, through sdk/Version.h), Qt
/// (build and runtime), Eigen, VTK (when known at build time) and whether CUDA is used. GUI thread.

#include <QDialog>
#include <QJsonObject>
#include <QList>
#include <QPair>

namespace pl::gui {

class AboutDialog : public QDialog {
    Q_OBJECT
public:
    explicit AboutDialog(QWidget* parent = nullptr);

    /// (label, value) rows in display order: Paperlab, Build commit, Qt, Eigen, VTK, CUDA.
    static QList<QPair<QString, QString>> buildInfo();
    /// Provenance as JSON: { "app", "commit", "libraries" }.
    static QJsonObject buildInfoJson();
    /// buildInfo() as plain text lines "label: value".
    static QString buildInfoText();
};

} // namespace pl::gui
