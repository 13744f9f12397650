#include "RobustnessCheck.h"

#include "sdk/PanelModel.h"
#include "sdk/SweepRunner.h"

#include <QtConcurrent/QtConcurrent>

#include <mutex>

namespace pl {

RobustnessCheck::RobustnessCheck(QObject* parent) : QObject(parent) {}

RobustnessCheck::~RobustnessCheck() {
    cancel();
    // Older, cancelled checks may still be finishing their current run: wait for every one.
    for (auto* w : findChildren<QFutureWatcher<Outcome>*>())
        w->waitForFinished();
}

bool RobustnessCheck::isRunning() const {
    return m_watcher && m_watcher->isRunning();
}

void RobustnessCheck::cancel() {
    if (m_cancel)
        m_cancel->store(true);
    ++m_generation; // a finishing check of an older generation no longer reports
}

void RobustnessCheck::start(const PanelModel& model, int seeds, int jobs) {
    cancel();
    const int generation = ++m_generation;
    auto cancelFlag = std::make_shared<std::atomic<bool>>(false);
    m_cancel = cancelFlag;
    m_pending = model.params();
    m_pendingSeeds = seeds;
    const PanelModel::RunFn run = model.snapshot();
    const int threads = model.engineThreads();
    const ParamSet base = model.params();
    const SweepPlan plan = SweepPlan::parse(model.engine().params(), {}, "1.." + std::to_string(seeds));
    QPointer<RobustnessCheck> self(this);
    auto work = [run, threads, base, plan, jobs, cancelFlag, self, generation]() {
        const std::vector<SweepCell> runs = plan.runs();
        std::vector<int> pending(runs.size());
        for (size_t i = 0; i < pending.size(); ++i)
            pending[i] = int(i);
        std::vector<ResultDocument> docs(runs.size());
        auto done = [&docs](size_t i, ResultDocument& d) { docs[i] = std::move(d); };
        auto progress = [self, generation](int n, int total) {
            QMetaObject::invokeMethod(
                self.data(),
                [self, generation, n, total] {
                    if (self && self->m_generation == generation)
                        emit self->progress(n, total);
                },
                Qt::QueuedConnection);
        };
        Outcome out;
        const std::exception_ptr e =
            SweepRunner::run(run, threads, plan, base, runs, pending, jobs, done, progress, cancelFlag.get());
        if (e) {
            try {
                std::rethrow_exception(e);
            } catch (const std::exception& x) {
                out.error = QString::fromUtf8(x.what());
            } catch (...) {
                out.error = QStringLiteral("the engine failed");
            }
            return out;
        }
        std::vector<const ResultDocument*> ptrs;
        for (const ResultDocument& d : docs)
            ptrs.push_back(&d);
        out.tallies = tallyClaims(ptrs);
        return out;
    };
    auto* watcher = new QFutureWatcher<Outcome>(this);
    connect(watcher, &QFutureWatcher<Outcome>::finished, this, [this, watcher, generation, cancelFlag] {
        const Outcome out = watcher->result();
        watcher->deleteLater();
        if (m_watcher == watcher)
            m_watcher = nullptr;
        if (generation != m_generation || cancelFlag->load())
            return;
        if (!out.error.isEmpty()) {
            emit failed(out.error);
            return;
        }
        m_params = m_pending;
        m_seeds = m_pendingSeeds;
        m_tallies = out.tallies;
        emit finished();
    });
    m_watcher = watcher; // a cancelled older check finishes on its own and reports nothing
    watcher->setFuture(QtConcurrent::run(work));
}

} // namespace pl
