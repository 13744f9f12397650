// Every key a figure reads exists in the result: each installed panel (and the template) runs
// its "paper defaults" (or its first preset; seed fixed, in-process through PanelModel) and builds every
// figure with a ResultKeyRecorder active; a required lookup of an absent key fails the test (a renamed or
// misspelt key fails here, not in front of a user). The first cases show that the check
// catches a deliberately wrong key.
#include "sdk/DeclarativePlugin.h"
#include "sdk/FigureHelpers.h"
#include "sdk/PanelModel.h"
#include "sdk/PluginManager.h"

#include <QtTest>

namespace {

/// Builds every figure of `plugin` from `d` with a recorder active; one line per figure that
/// read a key `d` does not hold (or that threw), empty when every key was there.
QStringList figureKeyProblems(const pl::IPaperPlugin& plugin, const QStringList& figureIds,
                              const pl::ResultDocument& d) {
    QStringList problems;
    for (const QString& id : figureIds) {
        pl::fig::ResultKeyRecorder rec;
        try {
            (void)plugin.buildFigure(id, d);
        } catch (const std::exception& e) {
            problems << QStringLiteral("figure '%1' threw: %2").arg(id, QString::fromUtf8(e.what()));
            continue;
        }
        QStringList missing;
        for (const std::string& m : rec.missing())
            missing << QString::fromStdString(m);
        if (!missing.isEmpty())
            problems
                << QStringLiteral("figure '%1' reads %2, absent from the result").arg(id, missing.join(", "));
    }
    return problems;
}

class NullEngine : public pl::Engine {
public:
    std::string id() const override { return "keys-fixture"; }
    std::vector<pl::ParamSpec> params() const override { return {}; }
    pl::ResultDocument run(const pl::InputList&, const pl::ParamSet&, pl::RunContext&) const override {
        return {};
    }
};

pl::ResultDocument fixtureResult() {
    pl::ResultDocument d;
    d.series["gap_hybrid"] = pl::Series{{1, 2}, {1e-2, 1e-9}, "iteration", "gap"};
    d.metrics["switch_iteration"] = 1;
    d.matrices["payoff"] = pl::Matrix{1, 1, {0.5}, {}, {}};
    return d;
}

/// A panel whose second figure reads a misspelt series key, and whose third probes an
/// optional key that is absent (allowed).
const pl::PanelDefinition& fixturePanel() {
    using pl::gui::FigureKind;
    static const auto def = pl::PanelDefinition::of<NullEngine>({
        {"good", FigureKind::Chart, "Good",
         [](const pl::ResultDocument& d, pl::gui::FigureSpec& f) {
             f.chart.series << pl::fig::series(d, "gap_hybrid", QStringLiteral("hybrid"));
             (void)pl::fig::metric(d, "switch_iteration");
         }},
        {"typo", FigureKind::Chart, "Typo",
         [](const pl::ResultDocument& d, pl::gui::FigureSpec& f) {
             f.chart.series << pl::fig::series(d, "gap_hybird", QStringLiteral("hybrid"));
         }},
        {"optional", FigureKind::Heatmap, "Optional",
         [](const pl::ResultDocument& d, pl::gui::FigureSpec& f) {
             if (pl::fig::findVector(d, "support_x"))
                 f.caption = QStringLiteral("with support");
             f.heatmap = pl::fig::heatmap(d, "payoff");
         }},
    });
    return def;
}

} // namespace

class TstPanelKeys : public QObject {
    Q_OBJECT
private slots:
    void recorderSeesEveryLookup();
    void wrongKeyIsCaught();
    void everyPanelsFiguresFindTheirKeys_data();
    void everyPanelsFiguresFindTheirKeys();

private:
    pl::PluginManager m_pm;
};

void TstPanelKeys::recorderSeesEveryLookup() {
    const pl::ResultDocument d = fixtureResult();
    pl::fig::ResultKeyRecorder outer;
    (void)pl::fig::metric(d, "absent_outer");
    {
        pl::fig::ResultKeyRecorder inner;
        QVERIFY(pl::fig::hasSeries(d, "gap_hybrid"));
        QVERIFY(!pl::fig::findMatrix(d, "nope"));
        QVERIFY(!pl::fig::vector(d, "x"));
        QVERIFY(std::isnan(pl::fig::metric(d, "absent_inner")));
        QCOMPARE(inner.lookups().size(), size_t(4));
        QCOMPARE(inner.missing(), (std::vector<std::string>{"vectors 'x'", "metrics 'absent_inner'"}));
        QCOMPARE(inner.missingOptional(), std::vector<std::string>{"matrices 'nope'"});
    }
    // The inner recorder took the inner lookups; the outer one is active again.
    (void)pl::fig::labels(d, "cluster");
    QCOMPARE(outer.missing(), (std::vector<std::string>{"metrics 'absent_outer'", "labels 'cluster'"}));
}

void TstPanelKeys::wrongKeyIsCaught() {
    pl::DeclarativePlugin plugin(fixturePanel(), QStringLiteral("keys-fixture"));
    const pl::ResultDocument d = fixtureResult();
    QCOMPARE(figureKeyProblems(plugin, {"good", "optional"}, d), QStringList());
    const QStringList problems = figureKeyProblems(plugin, {"good", "typo", "optional"}, d);
    QCOMPARE(problems.size(), 1);
    QVERIFY2(problems.first().contains("figure 'typo' reads series 'gap_hybird'"),
             qPrintable(problems.first()));
    // Without the matrix the heatmap helper throws: reported as well, not a crash.
    pl::ResultDocument noMatrix = d;
    noMatrix.matrices.clear();
    const QStringList thrown = figureKeyProblems(plugin, {"optional"}, noMatrix);
    QCOMPARE(thrown.size(), 1);
    QVERIFY2(thrown.first().contains("payoff"), qPrintable(thrown.first()));
}

void TstPanelKeys::everyPanelsFiguresFindTheirKeys_data() {
    QTest::addColumn<QString>("panel");
    // PAPERLAB_PLUGIN_PATH (the build's plugin folder) and the template's private folder.
    m_pm.scan(pl::PluginManager::defaultSearchPaths() << QStringLiteral(TEMPLATE_DIR));
    int panels = 0;
    for (const pl::PluginInfo& info : m_pm.plugins())
        if (!info.id.startsWith(QLatin1String("fixture-"))) {
            QTest::newRow(qPrintable(info.id)) << info.id;
            ++panels;
        }
    QVERIFY2(panels >= 8, "the seven panels and the template are found");
}

void TstPanelKeys::everyPanelsFiguresFindTheirKeys() {
    QFETCH(QString, panel);
    const pl::PluginInfo* info = m_pm.info(panel);
    QVERIFY(info);
    QString err;
    pl::IPaperPlugin* plugin = m_pm.load(panel, &err);
    QVERIFY2(plugin, qPrintable(err));
    pl::JobRunner runner;
    pl::PanelModel model(*info, plugin, &runner);
    QVERIFY2(info->error.isEmpty(), qPrintable(info->error));
    // The paper defaults; a panel without a preset of that name starts from its first preset.
    QVERIFY(!info->presets.isEmpty());
    const QString preset = info->preset(QStringLiteral("paper defaults")) ? QStringLiteral("paper defaults")
                                                                          : info->presets.first().name;
    QVERIFY2(model.applyPreset(preset, &err), qPrintable(err));
    model.setSeed(7);
    pl::RunContext ctx(model.seed(), 2);
    const pl::ResultDocument d = model.runBlocking(ctx);
    QStringList ids;
    for (const pl::FigureInfo& f : info->figures)
        ids << f.id;
    QVERIFY(!ids.isEmpty());
    const QStringList problems = figureKeyProblems(*plugin, ids, d);
    QVERIFY2(problems.isEmpty(), qPrintable(problems.join('\n')));
}

QTEST_GUILESS_MAIN(TstPanelKeys)
#include "tst_panel_keys.moc"
