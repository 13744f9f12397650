#include "AboutDialog.h"

#include <QApplication>
#include <QClipboard>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

#include "sdk/Version.h"

namespace pl::gui {

namespace {
/// libraryVersions() is one line "Qt a (built with b), Eigen c, VTK d, CUDA: e"; split it into
/// (name, value) rows without assuming more than ", " between the parts.
QList<QPair<QString, QString>> libraryRows() {
    QList<QPair<QString, QString>> rows;
    const QStringList parts = libraryVersions().split(QStringLiteral(", "), Qt::SkipEmptyParts);
    for (QString part : parts) {
        part = part.trimmed();
        qsizetype cut = part.indexOf(QLatin1Char(' '));
        QString name = cut < 0 ? part : part.left(cut);
        QString value = cut < 0 ? QString() : part.mid(cut + 1).trimmed();
        if (name.endsWith(QLatin1Char(':')))
            name.chop(1);
        if (name == QLatin1String("CUDA")) {
            if (value.isEmpty())
                value = QStringLiteral("not used (unknown build status)");
            else if (value.startsWith(QLatin1String("not")))
                value = QStringLiteral("not used (%1)").arg(value);
        }
        rows.append({name, value});
    }
    return rows;
}
} // namespace

QList<QPair<QString, QString>> AboutDialog::buildInfo() {
    QList<QPair<QString, QString>> rows{{tr("Paperlab"), paperlabVersion()},
                                        {tr("Build commit"), paperlabCommit()}};
    rows += libraryRows();
    if (QString::fromLatin1(qVersion()) != QLatin1String(QT_VERSION_STR))
        rows.append({tr("Qt (runtime)"), QString::fromLatin1(qVersion())});
    return rows;
}

QJsonObject AboutDialog::buildInfoJson() {
    QJsonObject o{{QStringLiteral("app"), paperlabVersion()},
                  {QStringLiteral("commit"), paperlabCommit()},
                  {QStringLiteral("libraries"), libraryVersions()}};
    return o;
}

QString AboutDialog::buildInfoText() {
    QStringList lines;
    for (const auto& [label, value] : buildInfo())
        lines << label + QStringLiteral(": ") + value;
    return lines.join(QLatin1Char('\n'));
}

AboutDialog::AboutDialog(QWidget* parent) : QDialog(parent) {
    setObjectName(QStringLiteral("AboutDialog"));
    setWindowTitle(tr("About Paperlab"));
    setMinimumWidth(460);
    auto* heading = new QLabel(
        tr("<h2>Paperlab</h2><p>A desktop workbench for research papers: every paper is a panel that "
           "computes its core idea, checks the paper's claims on its own workload and exports figures "
           "and reports.</p>"),
        this);
    heading->setWordWrap(true);

    auto* form = new QFormLayout;
    for (const auto& [label, value] : buildInfo()) {
        auto* v = new QLabel(value, this);
        v->setTextInteractionFlags(Qt::TextSelectableByMouse);
        v->setObjectName(
            QStringLiteral("about_") +
            label.toLower().remove(QLatin1Char(' ')).remove(QLatin1Char('(')).remove(QLatin1Char(')')));
        form->addRow(label + QLatin1Char(':'), v);
    }

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    auto* copy = buttons->addButton(tr("Copy"), QDialogButtonBox::ActionRole);
    copy->setToolTip(tr("Copy the version information (for bug reports)"));
    connect(copy, &QPushButton::clicked, this, [] { QApplication::clipboard()->setText(buildInfoText()); });
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(heading);
    layout->addLayout(form);
    layout->addWidget(buttons);
}

} // namespace pl::gui
