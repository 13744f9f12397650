// Every example input that ships with Paperlab (resources/examples/<panel-id>/) runs through
// `paperlab run <panel-id> --input FILE...` with exit code 0, and the result JSON records exactly
// those files (name and sha256, in order). Every panel that takes input files has an example and
// every example folder belongs to a panel; resources/examples/README.md names every file.
#include <QCryptographicHash>
#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QtTest>

namespace {

const QString kExamples = QStringLiteral(PAPERLAB_SOURCE_DIR "/resources/examples");

struct Run {
    int code = -1;
    QByteArray out, err;
};

Run paperlab(const QStringList& args, int timeoutMs = 280000) {
    QProcess p;
    p.start(QStringLiteral(PAPERLAB_BINARY_DIR "/bin/paperlab"), args);
    Run r;
    if (!p.waitForFinished(timeoutMs)) {
        p.kill();
        p.waitForFinished();
        r.err = "timed out";
        return r;
    }
    r.code = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -2;
    r.out = p.readAllStandardOutput();
    r.err = p.readAllStandardError();
    return r;
}

bool isExample(const QFileInfo& fi) {
    return !fi.fileName().startsWith(QLatin1Char('.')) && fi.suffix() != QLatin1String("md") &&
           fi.suffix() != QLatin1String("py");
}

/// panel id -> example name -> files in load order (a folder's files by name).
/// Example sets per panel: a file, or a folder's files (`recursive`: with its subfolders', e.g. the
/// caption archives of inslen-hallucination/synthetic-captions/captions/).
QMap<QString, QMap<QString, QStringList>> examples(bool recursive = false) {
    QMap<QString, QMap<QString, QStringList>> out;
    const QDir root(kExamples);
    for (const QFileInfo& panel : root.entryInfoList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name))
        for (const QFileInfo& e :
             QDir(panel.absoluteFilePath())
                 .entryInfoList(QDir::Files | QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name)) {
            if (!isExample(e))
                continue;
            QStringList files;
            if (e.isDir()) {
                for (const QFileInfo& f : QDir(e.absoluteFilePath()).entryInfoList(QDir::Files, QDir::Name))
                    if (isExample(f))
                        files << f.absoluteFilePath();
                if (recursive)
                    for (const QFileInfo& sub :
                         QDir(e.absoluteFilePath())
                             .entryInfoList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name))
                        for (const QFileInfo& f :
                             QDir(sub.absoluteFilePath()).entryInfoList(QDir::Files, QDir::Name))
                            if (isExample(f))
                                files << f.absoluteFilePath();
            } else {
                files << e.absoluteFilePath();
            }
            out[panel.fileName()][e.fileName()] = files;
        }
    return out;
}

QString sha256(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    QCryptographicHash h(QCryptographicHash::Sha256);
    h.addData(&f);
    return QString::fromLatin1(h.result().toHex());
}

} // namespace

class TstExamples : public QObject {
    Q_OBJECT
private slots:
    void everyPanelWithInputsHasExamples();
    void readmeNamesEveryFile();
    void examplesRun_data();
    void examplesRun();

private:
    QTemporaryDir m_tmp;
};

void TstExamples::everyPanelWithInputsHasExamples() {
    const Run r = paperlab({"list", "--json"});
    QCOMPARE(r.code, 0);
    QStringList panels;
    for (const auto& v : QJsonDocument::fromJson(r.out).array())
        panels << v.toObject().value("id").toString();
    QVERIFY(panels.contains(QStringLiteral("ssn-nash")));
    const auto all = examples();
    for (const QString& id : all.keys())
        QVERIFY2(panels.contains(id), qPrintable(id + QStringLiteral(": example folder of no panel")));
    int withInputs = 0;
    for (const QString& id : panels) {
        const Run p = paperlab({"params", id, "--json"});
        QCOMPARE(p.code, 0);
        const QJsonObject inputs = QJsonDocument::fromJson(p.out).object().value("inputs").toObject();
        if (inputs.value("max").toInt() <= 0)
            continue;
        ++withInputs;
        QVERIFY2(!all.value(id).isEmpty(),
                 qPrintable(id + QStringLiteral(" takes files but has no example")));
        // Each file has an extension the panel accepts; a set has at most `max` files.
        const QJsonArray exts = inputs.value("extensions").toArray();
        for (const QStringList& files : all.value(id)) {
            QVERIFY(files.size() <= inputs.value("max").toInt());
            for (const QString& f : files) {
                bool ok = exts.isEmpty();
                for (const auto& e : exts)
                    ok = ok || f.endsWith(QLatin1Char('.') + e.toString(), Qt::CaseInsensitive);
                QVERIFY2(ok, qPrintable(f));
            }
        }
    }
    QVERIFY(withInputs >= 2);
}

void TstExamples::readmeNamesEveryFile() {
    QFile f(kExamples + QStringLiteral("/README.md"));
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QString readme = QString::fromUtf8(f.readAll());
    const auto all = examples();
    for (auto p = all.begin(); p != all.end(); ++p)
        for (const QStringList& files : p.value())
            for (const QString& file : files) {
                const QString rel = QDir(kExamples).relativeFilePath(file);
                QVERIFY2(readme.contains(QLatin1Char('`') + rel + QLatin1Char('`')), qPrintable(rel));
                QVERIFY2(QFileInfo(file).size() < 1024 * 1024,
                         qPrintable(rel + QStringLiteral(": over 1 MB")));
            }
}

void TstExamples::examplesRun_data() {
    QTest::addColumn<QString>("panel");
    QTest::addColumn<QStringList>("files");
    const auto all = examples(true);
    for (auto p = all.begin(); p != all.end(); ++p)
        for (auto e = p.value().begin(); e != p.value().end(); ++e)
            QTest::newRow(qPrintable(p.key() + QLatin1Char('/') + e.key())) << p.key() << e.value();
}

void TstExamples::examplesRun() {
    QFETCH(QString, panel);
    QFETCH(QStringList, files);
    QVERIFY(!files.isEmpty());
    const QString out =
        m_tmp.filePath(panel + QStringLiteral("-") + QString::number(qHash(files.join(""))) + ".json");
    QStringList args{"run", panel};
    for (const QString& f : files)
        args << "--input" << f;
    args << "--out" << out;
    const Run r = paperlab(args);
    QVERIFY2(r.code == 0,
             qPrintable(QStringLiteral("exit %1: %2").arg(r.code).arg(QString::fromUtf8(r.err))));
    QFile f(out);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QJsonObject j = QJsonDocument::fromJson(f.readAll()).object();
    QCOMPARE(j.value("panel").toString(), panel);
    const QJsonArray inputs = j.value("inputs").toArray();
    QCOMPARE(inputs.size(), files.size());
    for (int i = 0; i < files.size(); ++i) {
        QCOMPARE(inputs.at(i).toObject().value("path").toString(), QFileInfo(files.at(i)).fileName());
        QCOMPARE(inputs.at(i).toObject().value("sha256").toString(), sha256(files.at(i)));
    }
}

QTEST_GUILESS_MAIN(TstExamples)
#include "tst_examples.moc"
