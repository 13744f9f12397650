#pragma once
/// "How often do the claims hold?": runs a panel's current parameters over seeds 1..K in the
/// background (SweepRunner on a snapshot of the model, so the user may keep working) and tallies
/// every claim (fraction holding, 95% Wilson interval). One check at a time per object: start()
/// cancels the previous one and only the latest reports (latest wins, as for runs). Lives on the GUI
/// thread; its signals arrive there. Destroying it cancels and waits for the check.

#include "core/ParamSpec.h"
#include "sdk/ClaimRobustness.h"

#include <QFutureWatcher>
#include <QObject>

#include <atomic>
#include <memory>
#include <vector>

namespace pl {

class PanelModel;

class RobustnessCheck : public QObject {
    Q_OBJECT
public:
    explicit RobustnessCheck(QObject* parent = nullptr);
    ~RobustnessCheck() override;

    /// Starts checking `model`'s parameters on seeds 1..seeds with `jobs` worker threads.
    void start(const PanelModel& model, int seeds, int jobs = 1);
    /// Stops the running check (no finished() follows).
    void cancel();
    bool isRunning() const;
    /// Parameters and tallies of the last finished check.
    const ParamSet& params() const { return m_params; }
    const std::vector<ClaimTally>& tallies() const { return m_tallies; }
    int seeds() const { return m_seeds; }

signals:
    void progress(int done, int total);
    void finished();
    void failed(const QString& message);

private:
    struct Outcome {
        std::vector<ClaimTally> tallies;
        QString error;
    };
    QFutureWatcher<Outcome>* m_watcher = nullptr;
    std::shared_ptr<std::atomic<bool>> m_cancel;
    int m_generation = 0;
    ParamSet m_pending, m_params;
    int m_pendingSeeds = 0, m_seeds = 0;
    std::vector<ClaimTally> m_tallies;
};

} // namespace pl
