// Sessions: round trip through a panel model, refusal of corrupted / foreign / newer files with
// nothing changed, records of missing plugins kept verbatim, atomic writes.
#include "sdk/PanelModel.h"
#include "sdk/PluginManager.h"
#include "sdk/Session.h"

#include <QJsonArray>
#include <QtTest>

class TstSession : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void roundTrip();
    void refusesBadFiles_data();
    void refusesBadFiles();
    void keepsUnknownPluginRecords();
    void restoreRefusesBadStateAndChangesNothing();
    void writeIsAtomic();

private:
    pl::PluginManager m_pm;
    QTemporaryDir m_dir;
};

void TstSession::initTestCase() {
    m_pm.scan({QStringLiteral(FIXTURE_DIR)});
    QVERIFY(m_pm.load("fixture-good"));
}

void TstSession::roundTrip() {
    pl::JobRunner runner;
    pl::PanelModel a(*m_pm.info("fixture-good"), m_pm.load("fixture-good"), &runner);
    a.setParam("n", int64_t(77));
    a.setSeed(18446744073709551557ull);
    pl::Session s;
    s.panels << a.saveState();
    s.layout = QJsonObject{{"current", 0}};
    const QString path = m_dir.filePath("a.paperlab.json");
    QString err;
    QVERIFY2(s.write(path, &err), qPrintable(err));
    pl::Session back;
    QVERIFY2(pl::Session::read(path, &back, &err), qPrintable(err));
    QCOMPARE(back.panels.size(), 1);
    pl::PanelModel b(*m_pm.info("fixture-good"), m_pm.load("fixture-good"), &runner);
    QVERIFY2(b.restoreState(back.panels.first(), m_dir.path(), &err), qPrintable(err));
    QCOMPARE(b.params().getInt("n"), int64_t(77));
    QCOMPARE(b.seed(), 18446744073709551557ull);
    QCOMPARE(back.layout.value("current").toInt(), 0);
}

void TstSession::refusesBadFiles_data() {
    QTest::addColumn<QByteArray>("content");
    QTest::addColumn<QString>("reason");
    QTest::newRow("truncated") << QByteArray(R"({"format":"paperlab-session","version":1,"panels":[{"plu)") << "corrupted";
    QTest::newRow("binary") << QByteArray("\x89PNG\r\n\x1a\n\0\0", 10) << "corrupted";
    QTest::newRow("empty") << QByteArray() << "corrupted";
    QTest::newRow("array") << QByteArray("[1,2]") << "not a session";
    QTest::newRow("foreign") << QByteArray(R"({"format":"other","version":1})") << "not a Paperlab session";
    QTest::newRow("newer") << QByteArray(R"({"format":"paperlab-session","version":99,"panels":[]})") << "newer";
    QTest::newRow("noplugin") << QByteArray(R"({"format":"paperlab-session","version":1,"panels":[{"params":{}}]})")
                              << "no plugin id";
}

void TstSession::refusesBadFiles() {
    QFETCH(QByteArray, content);
    QFETCH(QString, reason);
    const QString path = m_dir.filePath("bad.paperlab.json");
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(content);
    f.close();
    pl::Session s;
    s.panels << QJsonObject{{"plugin", "untouched"}};
    QString err;
    QVERIFY(!pl::Session::read(path, &s, &err));
    QVERIFY2(err.contains(reason) && err.contains("bad.paperlab.json"), qPrintable(err));
    QCOMPARE(s.panels.first().value("plugin").toString(), QStringLiteral("untouched"));
}

void TstSession::keepsUnknownPluginRecords() {
    pl::Session s;
    QJsonObject alien{{"plugin", "not-installed"}, {"params", QJsonObject{{"x", 1}}}, {"custom", "kept"}};
    s.panels << alien;
    const QString path = m_dir.filePath("alien.paperlab.json");
    QString err;
    QVERIFY(s.write(path, &err));
    pl::Session back;
    QVERIFY(pl::Session::read(path, &back, &err));
    QCOMPARE(back.panels.first().value("custom").toString(), QStringLiteral("kept"));
}

void TstSession::restoreRefusesBadStateAndChangesNothing() {
    pl::JobRunner runner;
    pl::PanelModel m(*m_pm.info("fixture-good"), m_pm.load("fixture-good"), &runner);
    m.setParam("n", int64_t(5));
    QString err;
    QJsonObject bad{{"plugin", "fixture-good"}, {"seed", "1"}, {"params", QJsonObject{{"n", -3}}}};
    QVERIFY(!m.restoreState(bad, {}, &err));
    QVERIFY(err.contains("'n'"));
    QJsonObject unknown{{"plugin", "fixture-good"}, {"seed", "1"}, {"params", QJsonObject{{"zz", 1}}}};
    QVERIFY(!m.restoreState(unknown, {}, &err));
    QJsonObject missingInput{{"plugin", "fixture-good"}, {"seed", "1"},
                             {"inputs", QJsonArray{QJsonObject{{"path", "/nonexistent/game.nfg"}}}}};
    QVERIFY(!m.restoreState(missingInput, {}, &err));
    QJsonObject newer{{"plugin", "fixture-good"}, {"seed", "1"}, {"stateVersion", 9}};
    QVERIFY(!m.restoreState(newer, {}, &err));
    QCOMPARE(m.params().getInt("n"), int64_t(5));
}

void TstSession::writeIsAtomic() {
    const QString path = m_dir.filePath("keep.paperlab.json");
    pl::Session s;
    s.panels << QJsonObject{{"plugin", "first"}};
    QString err;
    QVERIFY(s.write(path, &err));
    // A write into a folder that does not exist fails cleanly and leaves nothing behind.
    QVERIFY(!s.write(m_dir.filePath("missing/dir/x.paperlab.json"), &err));
    QVERIFY(!err.isEmpty());
    pl::Session back;
    QVERIFY(pl::Session::read(path, &back, &err));
    QCOMPARE(back.panels.first().value("plugin").toString(), QStringLiteral("first"));
}

QTEST_GUILESS_MAIN(TstSession)
#include "tst_session.moc"
