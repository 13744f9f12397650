#pragma once
/// Plays a Tour on a PanelModel without widgets: goTo(i) sets the parameters of step i (from the
/// parameters the panel had when the tour started, see Tour::paramsAt), requests a run and, when
/// the step waits, reports stepReady() after the model's next resultChanged(). With play(), the
/// player moves on by itself `interval` ms after each step is ready; pause() stops that.
/// The model is not owned and must outlive the player. Main thread.

#include "Tour.h"

#include <QObject>
#include <QPointer>
#include <QTimer>

namespace pl {

class PanelModel;

class TourPlayer : public QObject {
    Q_OBJECT
public:
    TourPlayer(PanelModel* model, const Tour& tour, QObject* parent = nullptr);

    const Tour& tour() const { return m_tour; }
    int count() const { return int(m_tour.steps.size()); }
    /// -1 before start().
    int currentIndex() const { return m_index; }
    const TourStep* currentStep() const;
    /// True while the current step waits for its result.
    bool isWaiting() const { return m_waiting; }
    bool isPlaying() const { return m_playing; }
    void setInterval(int ms) { m_advance.setInterval(ms); }

public slots:
    /// Captures the model's parameters as the base and shows step 1. Returns false with
    /// errorOccurred() when a step cannot be applied (then nothing changes).
    bool start();
    bool next();
    bool previous();
    bool goTo(int index);
    void play();
    void pause();
    /// Puts the parameters back as they were before start().
    void stop();

signals:
    /// Step `index` was applied (the figure to highlight is in the step).
    void stepChanged(int index);
    /// Step `index` has its result (immediately when the step does not wait).
    void stepReady(int index);
    void playingChanged(bool playing);
    void finished();
    void errorOccurred(const QString& message);

private:
    void onResult();

    QPointer<PanelModel> m_model;
    Tour m_tour;
    ParamSet m_base;
    QString m_basePreset;
    int m_index = -1;
    bool m_waiting = false;
    bool m_playing = false;
    bool m_started = false;
    QTimer m_advance;
};

} // namespace pl
