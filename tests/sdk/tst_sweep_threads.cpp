// SweepRunner on two worker threads against one thread, for two panels of one engine library
// (pac-bayes-sac, behavioral-abstraction): the same results run by run. Labelled tsan: the TSan
// gate runs it to show that runs of one PanelModel may overlap (engines are stateless).
#include "core/Errors.h"
#include "sdk/JobRunner.h"
#include "sdk/PanelModel.h"
#include "sdk/PluginManager.h"
#include "sdk/RobustnessCheck.h"
#include "sdk/SweepPlan.h"
#include "sdk/SweepRunner.h"

#include <QtTest>

#include <mutex>

class TstSweepThreads : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { m_pm.scan(pl::PluginManager::defaultSearchPaths()); }
    void twoThreadsEqualOne_data() {
        QTest::addColumn<QString>("panel");
        QTest::addColumn<QStringList>("sets");
        QTest::addColumn<QString>("grid");
        QTest::newRow("pac-bayes-sac")
            << QStringLiteral("pac-bayes-sac")
            << QStringList{QStringLiteral("repetitions=10"), QStringLiteral("n=200")}
            << QStringLiteral("kappa=0,0.5");
        QTest::newRow("behavioral-abstraction")
            << QStringLiteral("behavioral-abstraction") << QStringList{} << QStringLiteral("gamma=0.5,0.9");
    }
    void twoThreadsEqualOne() {
        QFETCH(QString, panel);
        QFETCH(QStringList, sets);
        QFETCH(QString, grid);
        const pl::PluginInfo* info = m_pm.info(panel);
        QVERIFY2(info, qPrintable(panel));
        QString err;
        pl::IPaperPlugin* plugin = m_pm.load(panel, &err);
        QVERIFY2(plugin, qPrintable(err));
        pl::JobRunner runner;
        pl::PanelModel model(*info, plugin, &runner);
        pl::ParamSet base = model.params();
        for (const QString& s : sets)
            base.setText(s.section(QLatin1Char('='), 0, 0).toStdString(),
                         s.section(QLatin1Char('='), 1).toStdString());
        const pl::SweepPlan plan =
            pl::SweepPlan::parse(model.engine().params(), {grid.toStdString()}, "1..2");
        const std::vector<pl::SweepCell> runs = plan.runs();
        std::vector<int> pending(runs.size());
        for (size_t i = 0; i < pending.size(); ++i)
            pending[i] = int(i);
        auto sweep = [&](int jobs) {
            std::vector<std::string> out(runs.size());
            std::mutex m;
            int calls = 0;
            const std::exception_ptr e = pl::SweepRunner::run(model, plan, base, runs, pending, jobs,
                                                              [&](size_t i, pl::ResultDocument& d) {
                                                                  d.elapsedMs = 0;
                                                                  out[i] = d.toJson();
                                                                  std::lock_guard<std::mutex> lock(m);
                                                                  ++calls;
                                                              });
            if (e)
                std::rethrow_exception(e);
            return std::make_pair(out, calls);
        };
        const auto one = sweep(1), two = sweep(2);
        QCOMPARE(one.second, 4);
        QCOMPARE(two.second, 4);
        QVERIFY(one.first == two.first);
        QVERIFY(one.first[0] != one.first[1]); // seeds differ
        if (panel != QLatin1String("behavioral-abstraction"))
            return; // the failure path once is enough (TSan runs this test at ~1/20 speed)
        // A failing callback stops the sweep and reports the first error.
        const std::exception_ptr e =
            pl::SweepRunner::run(model, plan, base, runs, pending, 2,
                                 [](size_t, pl::ResultDocument&) { throw pl::EngineError("disk full"); });
        QVERIFY(e);
        QVERIFY_THROWS_EXCEPTION(pl::EngineError, std::rethrow_exception(e));
    }

    void robustnessCheckInBackground() {
        // The GUI's check: seeds 1..4 of behavioral-abstraction on a snapshot, tallied like a sweep; a second
        // start cancels the first (only the latest reports); cancel() reports nothing.
        const pl::PluginInfo* info = m_pm.info(QStringLiteral("behavioral-abstraction"));
        QString err;
        pl::IPaperPlugin* plugin = m_pm.load(QStringLiteral("behavioral-abstraction"), &err);
        QVERIFY2(info && plugin, qPrintable(err));
        pl::JobRunner runner;
        pl::PanelModel model(*info, plugin, &runner);
        pl::ParamSet p = model.params();
        p.setText("states", "12");
        p.setText("blocks", "3");
        p.setText("formula_samples", "100");
        model.setParams(p);
        pl::RobustnessCheck check;
        QSignalSpy done(&check, &pl::RobustnessCheck::finished);
        QSignalSpy progress(&check, &pl::RobustnessCheck::progress);
        check.start(model, 3);
        check.start(model, 4); // latest wins
        QVERIFY(done.wait(60000));
        QTest::qWait(300);
        QCOMPARE(done.count(), 1);
        QCOMPARE(check.seeds(), 4);
        QVERIFY(check.params() == model.params());
        QVERIFY(!progress.isEmpty());
        QCOMPARE(progress.last().at(0).toInt(), 4);
        // The same tallies as running the seeds one by one.
        std::vector<pl::ResultDocument> docs;
        for (uint64_t seed = 1; seed <= 4; ++seed) {
            pl::RunContext ctx(seed);
            docs.push_back(model.runWith(model.params(), ctx));
        }
        std::vector<const pl::ResultDocument*> ptrs;
        for (const auto& d : docs)
            ptrs.push_back(&d);
        const auto want = pl::tallyClaims(ptrs);
        QCOMPARE(check.tallies().size(), want.size());
        for (size_t i = 0; i < want.size(); ++i) {
            QCOMPARE(check.tallies()[i].id, want[i].id);
            QCOMPARE(check.tallies()[i].holds, want[i].holds);
            QCOMPARE(check.tallies()[i].observedMedian, want[i].observedMedian);
        }
        check.start(model, 4);
        check.cancel();
        QVERIFY(!done.wait(1500));
        QCOMPARE(done.count(), 1);
    }

private:
    pl::PluginManager m_pm;
};

QTEST_GUILESS_MAIN(TstSweepThreads)
#include "tst_sweep_threads.moc"
