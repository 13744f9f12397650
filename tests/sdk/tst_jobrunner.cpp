// Job layer: results arrive by signal, "latest wins", cancel latency, and the largest
// event-loop stall while an engine computes on the pool.
#include "core/Errors.h"
#include "sdk/JobRunner.h"

#include <QElapsedTimer>
#include <QtTest>
#include <atomic>

namespace {

/// Busy work that checks for cancellation about every millisecond, for `ms` milliseconds.
pl::ResultDocument spin(pl::RunContext& ctx, int ms, double tag) {
    QElapsedTimer t;
    t.start();
    volatile double x = 0;
    while (t.elapsed() < ms) {
        for (int i = 0; i < 20000; ++i)
            x = x + 1e-9 * i;
        ctx.throwIfCancelled();
        ctx.progress(double(t.elapsed()) / ms);
    }
    pl::ResultDocument d;
    d.metrics["tag"] = tag;
    return d;
}

} // namespace

class TstJobRunner : public QObject {
    Q_OBJECT
private slots:
    void deliversResult();
    void latestWins();
    void cancelIsFast();
    void errorsAreReported();
    void eventLoopDoesNotStall();
    void shutdownWithRunningJobs();
};

void TstJobRunner::deliversResult() {
    pl::JobRunner r;
    QSignalSpy fin(&r, &pl::JobRunner::finished);
    const quint64 id = r.submit("c", "t", 1, 1, [](pl::RunContext& ctx) { return spin(ctx, 20, 7); });
    QVERIFY(fin.wait(5000));
    QCOMPARE(fin.first().at(0).toULongLong(), id);
    auto out = fin.first().at(1).value<pl::JobOutcome>();
    QCOMPARE(out.status, pl::JobOutcome::Status::Done);
    QCOMPARE(out.result->metrics.at("tag"), 7.0);
}

void TstJobRunner::latestWins() {
    pl::JobRunner r(nullptr, 2);
    QSignalSpy fin(&r, &pl::JobRunner::finished);
    r.submit("slider", "a", 1, 1, [](pl::RunContext& ctx) { return spin(ctx, 2000, 1); });
    r.submit("slider", "b", 1, 1, [](pl::RunContext& ctx) { return spin(ctx, 2000, 2); });
    const quint64 last = r.submit("slider", "c", 1, 1, [](pl::RunContext& ctx) { return spin(ctx, 30, 3); });
    QTRY_COMPARE_WITH_TIMEOUT(fin.size(), 3, 5000);
    int done = 0;
    for (const auto& call : fin) {
        auto out = call.at(1).value<pl::JobOutcome>();
        if (out.status == pl::JobOutcome::Status::Done) {
            ++done;
            QCOMPARE(call.at(0).toULongLong(), last);
            QCOMPARE(out.result->metrics.at("tag"), 3.0);
        } else {
            QCOMPARE(out.status, pl::JobOutcome::Status::Cancelled);
        }
    }
    QCOMPARE(done, 1);
}

void TstJobRunner::cancelIsFast() {
    pl::JobRunner r;
    QSignalSpy fin(&r, &pl::JobRunner::finished);
    // The worker records when it starts and when it really returns, so the measurement covers
    // the engine noticing the stop request, not only the watcher reporting the cancellation.
    // (The watcher reports progress 0 as soon as the task is queued, before it runs.)
    auto workerStarted = std::make_shared<std::atomic<bool>>(false);
    auto workerDone = std::make_shared<std::atomic<bool>>(false);
    const quint64 id = r.submit("c", "long", 1, 1, [workerStarted, workerDone](pl::RunContext& ctx) {
        workerStarted->store(true);
        struct Mark {
            std::shared_ptr<std::atomic<bool>> done;
            ~Mark() { done->store(true); }
        } mark{workerDone};
        return spin(ctx, 60000, 1);
    });
    QTRY_VERIFY_WITH_TIMEOUT(workerStarted->load(), 5000);
    QTest::qWait(100); // well inside the engine's loop
    QElapsedTimer t;
    t.start();
    r.cancel(id);
    QVERIFY(fin.wait(5000));
    QCOMPARE(fin.first().at(1).value<pl::JobOutcome>().status, pl::JobOutcome::Status::Cancelled);
    QTRY_VERIFY_WITH_TIMEOUT(workerDone->load(), 5000);
    const qint64 ms = t.elapsed();
    qInfo("cancel-to-end (engine returned): %lld ms", ms);
    QVERIFY2(ms < 200, qPrintable(QString::number(ms)));
    QVERIFY(r.waitForDone(1000));
}

void TstJobRunner::errorsAreReported() {
    pl::JobRunner r;
    QSignalSpy fin(&r, &pl::JobRunner::finished);
    r.submit("a", "t", 1, 1, [](pl::RunContext&) -> pl::ResultDocument { throw pl::InputError("f.csv", "bad", 3); });
    r.submit("b", "t", 1, 1, [](pl::RunContext&) -> pl::ResultDocument { throw std::runtime_error("boom"); });
    QTRY_COMPARE_WITH_TIMEOUT(fin.size(), 2, 5000);
    QSet<int> statuses;
    for (const auto& call : fin)
        statuses.insert(int(call.at(1).value<pl::JobOutcome>().status));
    QVERIFY(statuses.contains(int(pl::JobOutcome::Status::InputError)));
    QVERIFY(statuses.contains(int(pl::JobOutcome::Status::EngineError)));
}

void TstJobRunner::eventLoopDoesNotStall() {
    pl::JobRunner r;
    QSignalSpy fin(&r, &pl::JobRunner::finished);
    QElapsedTimer clock;
    clock.start();
    qint64 last = 0, worst = 0;
    QTimer tick;
    tick.setInterval(2);
    connect(&tick, &QTimer::timeout, [&] {
        const qint64 now = clock.elapsed();
        worst = std::max(worst, now - last);
        last = now;
    });
    tick.start();
    r.submit("c", "t", 1, 1, [](pl::RunContext& ctx) { return spin(ctx, 1500, 1); });
    QVERIFY(fin.wait(10000));
    tick.stop();
    qInfo("largest event-loop stall while computing: %lld ms", worst);
    QVERIFY2(worst < 50, qPrintable(QString::number(worst)));
}

void TstJobRunner::shutdownWithRunningJobs() {
    QElapsedTimer t;
    t.start();
    {
        pl::JobRunner r;
        r.submit("c", "t", 1, 1, [](pl::RunContext& ctx) { return spin(ctx, 60000, 1); });
        QTest::qWait(50);
    } // destructor cancels and waits
    QVERIFY(t.elapsed() < 1000);
}

QTEST_GUILESS_MAIN(TstJobRunner)
#include "tst_jobrunner.moc"
