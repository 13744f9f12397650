// The command line contract (docs/cli-contract.md) end to end, on the two game panels:
// every command, determinism, the exit codes and atomic outputs.
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QtTest>

namespace {

struct Run {
    int code = -1;
    QByteArray out;
    QByteArray err;
};

Run paperlab(const QStringList& args, int timeoutMs = 120000) {
    QProcess p;
    p.setProgram(QStringLiteral(PAPERLAB_BINARY_DIR "/bin/paperlab"));
    p.setArguments(args);
    p.start();
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

QJsonObject readJson(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return QJsonDocument::fromJson(f.readAll()).object();
}

const QString games = QStringLiteral(PAPERLAB_SOURCE_DIR "/tests/data/games/");

} // namespace

class TstCli : public QObject {
    Q_OBJECT
private slots:
    void versionAndHelp();
    void listShowsPanelsAndFigureKinds();
    void paramsListsKeysAndPresets();
    void runIsDeterministic_data();
    void runIsDeterministic();
    void ssnNashSolvesONeill();
    void ssnNashResultKeys();
    void ftrlResultKeys();
    void exitCodes_data();
    void exitCodes();
    void badInputLeavesNoOutput();
    void badInputCorpus_data();
    void badInputCorpus();
    void figureFormats();
    void figureAll();
    void reportHtmlAndPdf();
    void reportTour();
    void presetAndSetCombine();
    void replaySession();

private:
    QTemporaryDir m_tmp;
};

void TstCli::versionAndHelp() {
    Run v = paperlab({"--version"});
    QCOMPARE(v.code, 0);
    QVERIFY(v.out.startsWith("paperlab "));
    Run h = paperlab({"--help"});
    QCOMPARE(h.code, 0);
    QVERIFY(h.out.contains("paperlab replay"));
}

void TstCli::listShowsPanelsAndFigureKinds() {
    Run r = paperlab({"list", "--json"});
    QCOMPARE(r.code, 0);
    const QJsonArray arr = QJsonDocument::fromJson(r.out).array();
    QSet<QString> ids;
    for (const auto& v : arr) {
        const QJsonObject o = v.toObject();
        ids << o.value("id").toString();
        QVERIFY(!o.value("title").toString().isEmpty());
        QVERIFY(!o.value("paper").toString().isEmpty());
        for (const auto& f : o.value("figures").toArray()) {
            const QString kind = f.toObject().value("kind").toString();
            QVERIFY2(QStringList({"chart", "heatmap", "graph", "3d"}).contains(kind), qPrintable(kind));
        }
    }
    QVERIFY(ids.contains("ssn-nash"));
    QVERIFY(ids.contains("ftrl-potential-games"));
    Run plain = paperlab({"list"});
    QCOMPARE(plain.code, 0);
    QVERIFY(plain.out.contains("ssn-nash\t"));
}

void TstCli::paramsListsKeysAndPresets() {
    Run r = paperlab({"params", "ssn-nash", "--json"});
    QCOMPARE(r.code, 0);
    const QJsonObject o = QJsonDocument::fromJson(r.out).object();
    QStringList keys;
    for (const auto& p : o.value("params").toArray())
        keys << p.toObject().value("key").toString();
    for (const char* k : {"solver", "switch_gap", "target_gap"})
        QVERIFY2(keys.contains(k), k);
    bool paperDefaults = false;
    for (const auto& p : o.value("presets").toArray())
        paperDefaults |= p.toObject().value("name").toString() == "paper defaults";
    QVERIFY(paperDefaults);
    QCOMPARE(paperlab({"params", "ftrl-potential-games"}).code, 0);
}

void TstCli::runIsDeterministic_data() {
    QTest::addColumn<QString>("panel");
    QTest::newRow("ssn-nash") << "ssn-nash";
    QTest::newRow("ftrl") << "ftrl-potential-games";
    QTest::newRow("fair-linear-bandits") << "fair-linear-bandits";
    QTest::newRow("boba-screening") << "boba-screening";
}

void TstCli::runIsDeterministic() {
    QFETCH(QString, panel);
    const QString a = m_tmp.filePath(panel + "-a.json"), b = m_tmp.filePath(panel + "-b.json"),
                  c = m_tmp.filePath(panel + "-c.json");
    Run ra = paperlab({"run", panel, "--seed", "7", "--out", a});
    QVERIFY2(ra.code == 0, ra.err.constData());
    QCOMPARE(paperlab({"run", panel, "--seed", "7", "--out", b}).code, 0);
    QCOMPARE(paperlab({"run", panel, "--seed", "8", "--out", c}).code, 0);
    QJsonObject ja = readJson(a), jb = readJson(b), jc = readJson(c);
    QCOMPARE(ja.value("seed").toString(), QStringLiteral("7"));
    QCOMPARE(ja.value("panel").toString(), panel);
    // elapsed_ms is a wall-clock measurement; everything else must match bit for bit.
    for (QJsonObject* j : {&ja, &jb, &jc})
        j->remove("elapsed_ms");
    QCOMPARE(QJsonDocument(ja).toJson(), QJsonDocument(jb).toJson());
    QVERIFY(QJsonDocument(ja).toJson() != QJsonDocument(jc).toJson() || panel == "ftrl-potential-games");
}

void TstCli::ssnNashSolvesONeill() {
    const QString out = m_tmp.filePath("oneill.json");
    Run r = paperlab({"run", "ssn-nash", "--input", games + "oneill.nfg", "--out", out});
    QVERIFY2(r.code == 0, r.err.constData());
    const QJsonObject j = readJson(out);
    const QJsonArray x = j["vectors"].toObject()["x"].toArray();
    const QJsonArray y = j["vectors"].toObject()["y"].toArray();
    const double want[] = {0.4, 0.2, 0.2, 0.2};
    QCOMPARE(x.size(), 4);
    for (int i = 0; i < 4; ++i) {
        QVERIFY(std::fabs(x[i].toDouble() - want[i]) < 1e-8);
        QVERIFY(std::fabs(y[i].toDouble() - want[i]) < 1e-8);
    }
    QVERIFY(std::fabs(j["metrics"].toObject()["value"].toDouble() - (-0.2)) < 1e-8);
    QVERIFY(j["metrics"].toObject()["duality_gap"].toDouble() < 1e-9);
    QCOMPARE(j["inputs"].toArray().first().toObject()["path"].toString(), QStringLiteral("oneill.nfg"));
    QCOMPARE(j["inputs"].toArray().first().toObject()["sha256"].toString().size(), 64);
}

void TstCli::ssnNashResultKeys() {
    const QString out = m_tmp.filePath("ssn-keys.json");
    QCOMPARE(paperlab({"run", "ssn-nash", "--set", "rows=20", "--set", "cols=15", "--out", out}).code, 0);
    const QJsonObject j = readJson(out);
    QCOMPARE(j["vectors"].toObject()["x"].toArray().size(), 20);
    QCOMPARE(j["vectors"].toObject()["y"].toArray().size(), 15);
    for (const char* k : {"value", "duality_gap", "iterations"})
        QVERIFY2(j["metrics"].toObject().contains(k), k);
    const QJsonObject s = j["series"].toObject()["gap_vs_iteration"].toObject();
    QVERIFY(!s["x"].toArray().isEmpty());
    QCOMPARE(s["x"].toArray().size(), s["y"].toArray().size());
    QVERIFY(!j["claims"].toArray().isEmpty());
    for (const auto& c : j["claims"].toArray()) {
        const QJsonObject co = c.toObject();
        QVERIFY(co.contains("holds") && co.contains("observed") && co.contains("threshold"));
        QVERIFY(!co["statement"].toString().isEmpty());
    }
}

void TstCli::ftrlResultKeys() {
    const QString out = m_tmp.filePath("ftrl-keys.json");
    Run r = paperlab({"run", "ftrl-potential-games", "--out", out});
    QVERIFY2(r.code == 0, r.err.constData());
    const QJsonObject j = readJson(out);
    for (const char* k : {"x", "y"})
        QVERIFY2(j["vectors"].toObject().contains(k), k);
    for (const char* k : {"nash_gap", "steps_to_equilibrium"})
        QVERIFY2(j["metrics"].toObject().contains(k), k);
    for (const char* k : {"potential_vs_iteration", "nash_gap_vs_iteration"})
        QVERIFY2(j["series"].toObject().contains(k), k);
    QVERIFY(!j["claims"].toArray().isEmpty());
}

void TstCli::exitCodes_data() {
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<int>("code");
    QTest::addColumn<QString>("message");
    const QString out = QDir::temp().filePath("paperlab-tst-cli-never.json");
    QTest::newRow("unknown command") << QStringList{"frobnicate"} << 1 << "unknown command";
    QTest::newRow("unknown option") << QStringList{"run", "ssn-nash", "--bogus", "1", "--out", out} << 1 << "--bogus";
    QTest::newRow("missing out") << QStringList{"run", "ssn-nash"} << 1 << "--out";
    QTest::newRow("bad set key") << QStringList{"run", "ssn-nash", "--set", "nope=1", "--out", out} << 1 << "nope";
    QTest::newRow("out of range") << QStringList{"run", "ssn-nash", "--set", "switch_gap=5", "--out", out} << 1 << "switch_gap";
    QTest::newRow("bad preset") << QStringList{"run", "ssn-nash", "--preset", "nope", "--out", out} << 1 << "preset";
    QTest::newRow("bad seed") << QStringList{"run", "ssn-nash", "--seed", "-4", "--out", out} << 1 << "--seed";
    QTest::newRow("cuda without device") << QStringList{"run", "ssn-nash", "--backend", "cuda", "--out", out} << 1 << "cuda";
    QTest::newRow("unknown panel") << QStringList{"run", "no-such-panel", "--out", out} << 2 << "unknown panel";
    QTest::newRow("unknown figure") << QStringList{"figure", "ssn-nash", "nofig", "--out", out + ".png"} << 2 << "nofig";
    QTest::newRow("missing file") << QStringList{"run", "ssn-nash", "--input", "/nonexistent/g.nfg", "--out", out} << 3
                                  << "/nonexistent/g.nfg";
    QTest::newRow("not zero-sum") << QStringList{"run", "ssn-nash", "--input", games + "prisoners-dilemma.nfg", "--out", out}
                                  << 3 << "prisoners-dilemma.nfg";
    QTest::newRow("unwritable") << QStringList{"run", "ssn-nash", "--set", "rows=5", "--set", "cols=5", "--out", "/nonexistent-dir/r.json"}
                                << 5 << "/nonexistent-dir/r.json";
}

void TstCli::exitCodes() {
    QFETCH(QStringList, args);
    QFETCH(int, code);
    QFETCH(QString, message);
    Run r = paperlab(args);
    QVERIFY2(r.code == code, qPrintable(QString("exit %1, stderr: %2").arg(r.code).arg(QString::fromUtf8(r.err))));
    QVERIFY2(r.err.startsWith("paperlab: error: "), r.err.constData());
    QVERIFY2(QString::fromUtf8(r.err).contains(message), r.err.constData());
    QVERIFY(!QFile::exists(QDir::temp().filePath("paperlab-tst-cli-never.json")));
}

void TstCli::badInputLeavesNoOutput() {
    const QString bad = m_tmp.filePath("broken.nfg");
    QFile f(bad);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("NFG 1 R \"broken\" { \"P1\" \"P2\" } { 2 2 }\n\n1 -1 -1 oops 1 -1\n");
    f.close();
    const QString out = m_tmp.filePath("never.json");
    Run r = paperlab({"run", "ssn-nash", "--input", bad, "--out", out});
    QCOMPARE(r.code, 3);
    QVERIFY2(r.err.contains("broken.nfg:3"), r.err.constData()); // file and line
    QVERIFY(!QFile::exists(out));
}

void TstCli::badInputCorpus_data() {
    QTest::addColumn<QString>("panel");
    QTest::addColumn<QString>("file");
    const QDir bad(QStringLiteral(PAPERLAB_SOURCE_DIR "/tests/data/bad"));
    for (const QFileInfo& fi : bad.entryInfoList({"*.nfg", "*.csv", "*.npy"}, QDir::Files, QDir::Name)) {
        // Files named "<panel>-*" are bad only for that panel (its own CLI test runs them); a
        // one-channel phase table, say, is a valid payoff matrix for the game panels.
        if (fi.fileName().contains(QLatin1Char('-')) && !fi.fileName().startsWith(QLatin1String("ssn-nash-")) &&
            !fi.fileName().startsWith(QLatin1String("ftrl-potential-games-")))
            continue;
        QTest::newRow(qPrintable("ssn-nash/" + fi.fileName())) << "ssn-nash" << fi.absoluteFilePath();
        // The learning-dynamics panel accepts games with more than two players.
        if (fi.fileName() != QLatin1String("threeplayers.nfg"))
            QTest::newRow(qPrintable("ftrl/" + fi.fileName())) << "ftrl-potential-games" << fi.absoluteFilePath();
        // The task CSV reader of continual-forgetting refuses every generic bad CSV too.
        if (fi.suffix() == QLatin1String("csv"))
            QTest::newRow(qPrintable("continual-forgetting/" + fi.fileName()))
                << "continual-forgetting" << fi.absoluteFilePath();
    }
}

void TstCli::badInputCorpus() {
    QFETCH(QString, panel);
    QFETCH(QString, file);
    const QString out = m_tmp.filePath("corpus-never.json");
    QElapsedTimer t;
    t.start();
    Run r = paperlab({"run", panel, "--input", file, "--out", out}, 20000);
    QVERIFY2(r.code == 3, qPrintable(QString("exit %1: %2").arg(r.code).arg(QString::fromUtf8(r.err))));
    QVERIFY2(r.err.startsWith("paperlab: error: ") && r.err.contains(QFileInfo(file).fileName().toUtf8()), r.err.constData());
    QVERIFY2(t.elapsed() < 5000, qPrintable(QString::number(t.elapsed())));
    QVERIFY(!QFile::exists(out));
}

void TstCli::figureFormats() {
    for (const QString& ext : {QStringLiteral("png"), QStringLiteral("svg"), QStringLiteral("pdf")}) {
        const QString out = m_tmp.filePath("gap." + ext);
        Run r = paperlab({"figure", "ssn-nash", "gap_vs_iteration", "--set", "rows=10", "--set", "cols=10", "--dpi", "100", "--out", out});
        QVERIFY2(r.code == 0, r.err.constData());
        QFile f(out);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray head = f.read(8);
        if (ext == "png")
            QVERIFY(head.startsWith("\x89PNG"));
        else if (ext == "svg")
            QVERIFY(f.readAll().contains("<svg") || head.contains("<?xml"));
        else
            QVERIFY(head.startsWith("%PDF"));
        QVERIFY(f.size() > 1000);
    }
    QCOMPARE(paperlab({"figure", "ssn-nash", "gap_vs_iteration", "--out", m_tmp.filePath("x.bmp")}).code, 1);
}

void TstCli::figureAll() {
    for (const QString& panel : {QStringLiteral("ssn-nash"), QStringLiteral("ftrl-potential-games")}) {
        const QString dir = m_tmp.filePath("figs-" + panel);
        Run r = paperlab({"figure", panel, "all", "--format", "png,svg,pdf", "--dpi", "72", "--out", dir});
        QVERIFY2(r.code == 0, r.err.constData());
        Run list = paperlab({"list", "--json"});
        for (const auto& p : QJsonDocument::fromJson(list.out).array()) {
            if (p.toObject()["id"].toString() != panel)
                continue;
            for (const auto& fv : p.toObject()["figures"].toArray())
                for (const char* ext : {"png", "svg", "pdf"}) {
                    const QString file = dir + "/" + fv.toObject()["id"].toString() + "." + ext;
                    QVERIFY2(QFileInfo(file).size() > 500, qPrintable(file));
                }
        }
    }
}

void TstCli::reportHtmlAndPdf() {
    const QString html = m_tmp.filePath("r.html"), pdf = m_tmp.filePath("r.pdf");
    Run a = paperlab({"report", "ssn-nash", "--set", "rows=12", "--set", "cols=12", "--out", html});
    QVERIFY2(a.code == 0, a.err.constData());
    QFile h(html);
    QVERIFY(h.open(QIODevice::ReadOnly));
    const QByteArray text = h.readAll();
    for (const char* part : {"<svg", "Claims", "Provenance", "Parameters", "seed", "Summary"})
        QVERIFY2(text.contains(part), part);
    Run b = paperlab({"report", "ftrl-potential-games", "--out", pdf});
    QVERIFY2(b.code == 0, b.err.constData());
    QFile p(pdf);
    QVERIFY(p.open(QIODevice::ReadOnly));
    QVERIFY(p.read(4) == "%PDF");
    QVERIFY(p.size() > 5000);
    const QString dir = m_tmp.filePath("reports");
    QCOMPARE(paperlab({"report", "all", "--set", "n=3", "--out", dir}).code, 1); // n is not a key of every panel
    // Every panel at its paper defaults, one after another: minutes at 30+ panels.
    Run all = paperlab({"report", "all", "--out", dir}, 900000);
    QVERIFY2(all.code == 0, all.err.constData());
    QVERIFY(QFile::exists(dir + "/ssn-nash.html") && QFile::exists(dir + "/ftrl-potential-games.pdf"));
}

void TstCli::reportTour() {
    const QString html = m_tmp.filePath("tour.html");
    Run a = paperlab({"report", "ssn-nash", "--tour", "second-order", "--out", html});
    QVERIFY2(a.code == 0, a.err.constData());
    QFile h(html);
    QVERIFY(h.open(QIODevice::ReadOnly));
    const QByteArray text = h.readAll();
    QVERIFY(text.contains("Why a second-order method pays off"));
    QVERIFY(text.contains("Step 1 of 6") && text.contains("Step 6 of 6"));
    QCOMPARE(text.count("<svg"), 6); // one figure per step, each computed with that step's parameters
    QVERIFY(text.contains("preset “degenerate game”"));
    const QString dir = m_tmp.filePath("tour");
    Run d = paperlab({"report", "ftrl-potential-games", "--tour", "slow-learning", "--dpi", "96", "--out", dir});
    QVERIFY2(d.code == 0, d.err.constData());
    QVERIFY(QFile::exists(dir + "/ftrl-potential-games-tour-slow-learning.html"));
    QVERIFY(QFile::exists(dir + "/ftrl-potential-games-tour-slow-learning.pdf"));
    Run unknown = paperlab({"report", "ssn-nash", "--tour", "nope", "--out", m_tmp.filePath("x.html")});
    QCOMPARE(unknown.code, 2);
    QVERIFY(unknown.err.contains("second-order"));
    QVERIFY(!QFile::exists(m_tmp.filePath("x.html")));
    QCOMPARE(paperlab({"report", "all", "--tour", "second-order", "--out", dir}).code, 1);
}

void TstCli::presetAndSetCombine() {
    const QString out = m_tmp.filePath("preset.json");
    Run r = paperlab({"run", "ssn-nash", "--preset", "rock-paper-scissors", "--set", "solver=prm_plus", "--out", out});
    QVERIFY2(r.code == 0, r.err.constData());
    const QJsonObject params = readJson(out)["params"].toObject();
    QCOMPARE(params["generator"].toString(), QStringLiteral("rps"));
    QCOMPARE(params["solver"].toString(), QStringLiteral("prm_plus"));
}

void TstCli::replaySession() {
    QFile::copy(games + "oneill.nfg", m_tmp.filePath("oneill.nfg"));
    const QString session = m_tmp.filePath("s.paperlab.json");
    QFile f(session);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(R"({"format": "paperlab-session", "version": 1, "panels": [
      {"plugin": "ssn-nash", "stateVersion": 1, "seed": "3", "params": {"solver": "hybrid"},
       "inputs": [{"path": "oneill.nfg"}]},
      {"plugin": "not-installed-panel", "seed": "1", "params": {}},
      {"plugin": "ftrl-potential-games", "seed": "5", "params": {"n": 3}}],
      "layout": {"figureLayouts": [{"panel": 0, "mode": "quad", "figures": ["payoff", "gap_vs_iteration"]},
                                   {"panel": 2, "mode": "single"}]}})");
    f.close();
    const QString dir = m_tmp.filePath("replay");
    Run r = paperlab({"replay", session, "--out", dir});
    QVERIFY2(r.code == 0, r.err.constData());
    QVERIFY(r.err.contains("not-installed-panel"));
    QVERIFY(QFile::exists(dir + "/01-ssn-nash/result.json"));
    QVERIFY(QFile::exists(dir + "/01-ssn-nash/report.html"));
    QVERIFY(QFile::exists(dir + "/03-ftrl-potential-games/payoff.png"));
    QCOMPARE(readJson(dir + "/03-ftrl-potential-games/result.json")["seed"].toString(), QStringLiteral("5"));
    // The saved split layout comes back as one composite: four panes (two named, the others the
    // panel's figures 3 and 4 as in the GUI) at twice a figure's width and height; tabs give none.
    const auto pngSize = [](const QString& path) {
        QFile png(path);
        const QByteArray head = png.open(QIODevice::ReadOnly) ? png.read(24) : QByteArray();
        const auto be = [&](int at) {
            return head.size() < at + 4 ? -1
                                        : (uchar(head[at]) << 24 | uchar(head[at + 1]) << 16 |
                                           uchar(head[at + 2]) << 8 | uchar(head[at + 3]));
        };
        return QSize(be(16), be(20));
    };
    const QSize one = pngSize(dir + "/01-ssn-nash/payoff.png"), quad = pngSize(dir + "/01-ssn-nash/layout.png");
    QVERIFY(one.width() > 0);
    QCOMPARE(quad, one * 2);
    QFile svg(dir + "/01-ssn-nash/layout.svg");
    QVERIFY(svg.open(QIODevice::ReadOnly));
    const QByteArray svgText = svg.readAll();
    QVERIFY(svgText.contains("<svg") && svgText.count("<title>") >= 1);
    QVERIFY(!QFile::exists(dir + "/03-ftrl-potential-games/layout.png"));
    // A corrupted session is refused with exit code 3.
    QFile bad(m_tmp.filePath("bad.paperlab.json"));
    QVERIFY(bad.open(QIODevice::WriteOnly));
    bad.write("{\"format\": \"paperlab-session\", \"vers");
    bad.close();
    QCOMPARE(paperlab({"replay", bad.fileName(), "--out", dir}).code, 3);
}

QTEST_GUILESS_MAIN(TstCli)
#include "tst_cli.moc"
