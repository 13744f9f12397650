#pragma once
/// The jobs area of the status bar: what runs (title and engine status), a progress bar and a
/// cancel button. Always visible; idle when no job runs. Listens to a JobRunner (not owned,
/// must outlive the indicator). GUI thread.

#include <QHash>
#include <QString>
#include <QWidget>

class QLabel;
class QProgressBar;
class QToolButton;

namespace pl {
class JobRunner;
struct JobOutcome;
} // namespace pl

namespace pl::gui {

class JobsIndicator : public QWidget {
    Q_OBJECT
public:
    explicit JobsIndicator(JobRunner* runner, QWidget* parent = nullptr);

    /// Number of jobs the indicator currently shows as running.
    int runningCount() const { return int(m_jobs.size()); }
    /// The text shown next to the bar ("Idle" when nothing runs).
    QString statusText() const;
    QToolButton* cancelButton() const { return m_cancel; }
    QProgressBar* progressBar() const { return m_bar; }

public slots:
    /// Cancels every running job (cooperatively; they end within ~50 ms).
    void cancelAll();

private:
    struct JobState {
        QString title;
        QString status;
        double fraction = 0;
    };
    void onStarted(quint64 id, const QString& title);
    void onProgress(quint64 id, double fraction, const QString& status);
    void onFinished(quint64 id, const pl::JobOutcome& outcome);
    void refresh();

    JobRunner* m_runner;
    QHash<quint64, JobState> m_jobs;
    quint64 m_latest = 0;
    QLabel* m_label;
    QProgressBar* m_bar;
    QToolButton* m_cancel;
};

} // namespace pl::gui
