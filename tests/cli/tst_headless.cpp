// The headless core (issue 15, item 5): `paperlab run`, `params`, `list` (and --version/--help)
// load no Qt Gui, Qt Widgets, VTK, OpenGL or X11 library, checked with the dynamic loader's own
// trace (LD_DEBUG); `figure` and `report` still work by opening the frontend module on demand,
// and fail with exit 5 and a clear message when it cannot be loaded.
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QProcessEnvironment>
#include <QRegularExpression>
#include <QSet>
#include <QTemporaryDir>
#include <QtTest>

namespace {

const QString kBinary = QStringLiteral(PAPERLAB_BINARY_DIR "/bin/paperlab");

/// Libraries that must never be loaded by a compute command (Debian 12: libQt6Gui pulls in
/// libEGL, libGLX, libOpenGL and libX11; VTK's rendering modules pull in GL and X11).
const QRegularExpression kForbidden(QStringLiteral(
    R"((?:^|[/=\s])(lib(?:Qt6Gui|Qt6Widgets|Qt6OpenGL|Qt6OpenGLWidgets|vtk\w*|GL\w*|EGL|OpenGL|GLX|X11|xcb)\b[^\s\]]*))"));

struct Traced {
    int code = -1;
    QByteArray out;
    QByteArray err;        ///< stderr without the loader's trace lines
    QSet<QString> loaded;  ///< file names of every object the loader mapped
    QStringList forbidden; ///< trace lines that name a forbidden library
};

/// Runs paperlab with LD_DEBUG=libs,files (the trace goes to stderr, one "PID: ..." line each).
Traced runTraced(const QStringList& args, const QProcessEnvironment& extra = {}) {
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("LD_DEBUG"), QStringLiteral("libs,files"));
    env.remove(QStringLiteral("LD_DEBUG_OUTPUT"));
    for (const QString& k : extra.keys())
        env.insert(k, extra.value(k));
    p.setProcessEnvironment(env);
    p.start(kBinary, args);
    Traced t;
    if (!p.waitForFinished(120000)) {
        p.kill();
        p.waitForFinished();
        return t;
    }
    t.code = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -2;
    t.out = p.readAllStandardOutput();
    static const QRegularExpression traceLine(QStringLiteral(R"(^\s*\d+:\s?(.*)$)"));
    static const QRegularExpression mapped(QStringLiteral(R"(file=(\S+)\s+\[\d+\];\s+generating link map)"));
    for (const QByteArray& raw : p.readAllStandardError().split('\n')) {
        const QString line = QString::fromUtf8(raw);
        const QRegularExpressionMatch m = traceLine.match(line);
        if (!m.hasMatch()) {
            if (!raw.isEmpty())
                t.err += raw + '\n';
            continue;
        }
        const QString body = m.captured(1);
        const QRegularExpressionMatch lib = mapped.match(body);
        if (lib.hasMatch())
            t.loaded.insert(QFileInfo(lib.captured(1)).fileName());
        if (kForbidden.match(body).hasMatch())
            t.forbidden << body.trimmed();
    }
    return t;
}

bool loadedStartsWith(const Traced& t, const QString& prefix) {
    for (const QString& l : t.loaded)
        if (l.startsWith(prefix))
            return true;
    return false;
}

QString sorted(const QSet<QString>& s) {
    QStringList l(s.begin(), s.end());
    l.sort();
    return l.join(QLatin1Char(' '));
}

} // namespace

class TstHeadless : public QObject {
    Q_OBJECT
private slots:
    void computeCommandsLoadNoGuiOrGl_data();
    void computeCommandsLoadNoGuiOrGl();
    void figureLoadsTheFrontend();
    void missingFrontendIsAnExportError_data();
    void missingFrontendIsAnExportError();
    void guiStartsThroughTheFrontend();
    void guiWithoutFrontendSaysWhy();

private:
    QTemporaryDir m_tmp;
};

void TstHeadless::computeCommandsLoadNoGuiOrGl_data() {
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<bool>("loadsPlugin");
    QTest::newRow("run") << QStringList{"run",     "ssn-nash", "--seed",  "42",    "--set",
                                        "rows=10", "--set",    "cols=10", "--out", m_tmp.filePath("run.json")}
                         << true;
    QTest::newRow("params") << QStringList{"params", "ssn-nash"} << true;
    QTest::newRow("params --json") << QStringList{"params", "ssn-nash", "--json"} << true;
    QTest::newRow("list --json") << QStringList{"list", "--json"} << false;
    QTest::newRow("--version") << QStringList{"--version"} << false;
    QTest::newRow("usage error") << QStringList{"run",    "ssn-nash", "--set",
                                                "nope=1", "--out",    m_tmp.filePath("x.json")}
                                 << true;
}

void TstHeadless::computeCommandsLoadNoGuiOrGl() {
    QFETCH(QStringList, args);
    QFETCH(bool, loadsPlugin);
    const Traced t = runTraced(args);
    const bool usageError = args.contains(QStringLiteral("nope=1"));
    QVERIFY2(t.code == (usageError ? 1 : 0),
             qPrintable(QStringLiteral("exit %1: %2").arg(t.code).arg(QString::fromUtf8(t.err))));
    // The trace was read: the executable's own libraries are in it (else the check below is void).
    QVERIFY2(loadedStartsWith(t, QStringLiteral("libQt6Core.so")) &&
                 loadedStartsWith(t, QStringLiteral("libpaperlab_sdk.so")),
             qPrintable(sorted(t.loaded)));
    if (loadsPlugin)
        QVERIFY2(t.loaded.contains(QStringLiteral("paperlab_ssn_nash.so")), qPrintable(sorted(t.loaded)));
    QVERIFY2(t.forbidden.isEmpty(), qPrintable(t.forbidden.mid(0, 10).join(QLatin1Char('\n'))));
    QVERIFY2(!loadedStartsWith(t, QStringLiteral("libpaperlab_frontend")) &&
                 !loadedStartsWith(t, QStringLiteral("libpaperlab_widgets")) &&
                 !loadedStartsWith(t, QStringLiteral("libpaperlab_vtkviews")),
             qPrintable(sorted(t.loaded)));
    qInfo().noquote() << args.first() << "loads" << t.loaded.size() << "objects:" << sorted(t.loaded);
}

void TstHeadless::figureLoadsTheFrontend() {
    const QString out = m_tmp.filePath("gap.svg");
    const Traced t = runTraced(
        {"figure", "ssn-nash", "gap_vs_iteration", "--set", "rows=10", "--set", "cols=10", "--out", out});
    QVERIFY2(t.code == 0, t.err.constData());
    QFile f(out);
    QVERIFY(f.open(QIODevice::ReadOnly));
    QVERIFY(f.readAll().contains("<svg"));
    // On demand: the frontend module, and with it Qt Gui, are loaded for drawing commands.
    QVERIFY2(loadedStartsWith(t, QStringLiteral("libpaperlab_frontend")), qPrintable(sorted(t.loaded)));
    QVERIFY2(loadedStartsWith(t, QStringLiteral("libQt6Gui.so")), qPrintable(sorted(t.loaded)));
}

void TstHeadless::missingFrontendIsAnExportError_data() {
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("out");
    const QString svg = m_tmp.filePath("never.svg");
    const QString html = m_tmp.filePath("never.html");
    QTest::newRow("figure") << QStringList{"figure", "ssn-nash", "gap_vs_iteration",
                                           "--set",  "rows=5",   "--set",
                                           "cols=5", "--out",    svg}
                            << svg;
    QTest::newRow("report") << QStringList{"report", "ssn-nash", "--set", "rows=5",
                                           "--set",  "cols=5",   "--out", html}
                            << html;
}

void TstHeadless::missingFrontendIsAnExportError() {
    QFETCH(QStringList, args);
    QFETCH(QString, out);
    QProcessEnvironment env;
    env.insert(QStringLiteral("PAPERLAB_FRONTEND"), m_tmp.filePath("nowhere/libpaperlab_frontend.so"));
    QProcess p;
    QProcessEnvironment all = QProcessEnvironment::systemEnvironment();
    all.insert(env);
    p.setProcessEnvironment(all);
    p.start(kBinary, args);
    QVERIFY(p.waitForFinished(120000));
    const QByteArray err = p.readAllStandardError();
    QVERIFY2(p.exitCode() == 5, err.constData());
    QVERIFY2(err.startsWith("paperlab: error: ") && err.contains("renderer module"), err.constData());
    QVERIFY(!QFile::exists(out));
    // The compute commands do not need it.
    const Traced run = runTraced(
        {"run", "ssn-nash", "--set", "rows=5", "--set", "cols=5", "--out", m_tmp.filePath("ok.json")}, env);
    QVERIFY2(run.code == 0, run.err.constData());
    // Usage errors keep their own code without the module.
    const Traced usage = runTraced({"figure", "ssn-nash", "nofig", "--out", out}, env);
    QCOMPARE(usage.code, 2);
}

/// Environment of a GUI start: offscreen, start-up log on, empty settings and autosave folders.
QProcessEnvironment guiEnvironment(const QTemporaryDir& tmp) {
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    env.insert(QStringLiteral("QT_LOGGING_RULES"), QStringLiteral("paperlab.startup=true"));
    for (const char* var : {"HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME", "XDG_STATE_HOME"})
        env.insert(QString::fromLatin1(var), tmp.filePath(QStringLiteral("home")));
    return env;
}

void TstHeadless::guiStartsThroughTheFrontend() {
    QDir().mkpath(m_tmp.filePath(QStringLiteral("home")));
    QProcess p;
    p.setProcessEnvironment(guiEnvironment(m_tmp));
    p.setProcessChannelMode(QProcess::MergedChannels);
    p.start(kBinary, {});
    QVERIFY(p.waitForStarted());
    QByteArray log;
    QElapsedTimer t;
    t.start();
    while (!log.contains("ready in") && p.state() == QProcess::Running && t.elapsed() < 60000) {
        p.waitForReadyRead(200);
        log += p.readAll();
    }
    const bool running = p.state() == QProcess::Running;
    p.terminate();
    if (!p.waitForFinished(10000)) {
        p.kill();
        p.waitForFinished();
    }
    QVERIFY2(running && log.contains("ready in"), log.constData());
}

void TstHeadless::guiWithoutFrontendSaysWhy() {
    QDir().mkpath(m_tmp.filePath(QStringLiteral("home")));
    QProcessEnvironment env = guiEnvironment(m_tmp);
    env.insert(QStringLiteral("PAPERLAB_FRONTEND"),
               m_tmp.filePath(QStringLiteral("nowhere/libpaperlab_frontend.so")));
    QProcess p;
    p.setProcessEnvironment(env);
    p.start(kBinary, {});
    QVERIFY(p.waitForFinished(60000));
    const QByteArray err = p.readAllStandardError();
    QCOMPARE(p.exitCode(), 1);
    QVERIFY2(err.startsWith("paperlab: error: cannot start the GUI") && err.contains("renderer module"),
             err.constData());
}

QTEST_GUILESS_MAIN(TstHeadless)
#include "tst_headless.moc"
