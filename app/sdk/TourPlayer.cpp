#include "TourPlayer.h"

#include "PanelModel.h"

namespace pl {

TourPlayer::TourPlayer(PanelModel* model, const Tour& tour, QObject* parent)
    : QObject(parent), m_model(model), m_tour(tour) {
    m_advance.setSingleShot(true);
    m_advance.setInterval(6000);
    connect(&m_advance, &QTimer::timeout, this, [this] {
        if (m_playing && !next())
            pause();
    });
    connect(model, &PanelModel::resultChanged, this, &TourPlayer::onResult);
}

const TourStep* TourPlayer::currentStep() const {
    return m_index >= 0 && m_index < count() ? &m_tour.steps.at(m_index) : nullptr;
}

bool TourPlayer::start() {
    if (!m_model || count() == 0)
        return false;
    if (!m_started) {
        m_base = m_model->params();
        m_basePreset = m_model->activePreset();
        m_started = true;
    }
    return goTo(0);
}

bool TourPlayer::next() {
    if (m_index + 1 >= count()) {
        emit finished();
        return false;
    }
    return goTo(m_index + 1);
}

bool TourPlayer::previous() {
    return m_index > 0 && goTo(m_index - 1);
}

bool TourPlayer::goTo(int index) {
    if (!m_model || index < 0 || index >= count())
        return false;
    if (!m_started)
        return start();
    ParamSet ps;
    try {
        ps = m_tour.paramsAt(index, m_base, m_model->info());
    } catch (const std::exception& e) {
        emit errorOccurred(
            QStringLiteral("%1: tour '%2': %3").arg(m_model->info().id, m_tour.name, e.what()));
        return false;
    }
    const TourStep& s = m_tour.steps.at(index);
    // Show the preset's name while the step's parameters are exactly the preset's.
    QString preset;
    for (int i = index; i >= 0 && preset.isEmpty(); --i) {
        const TourStep& st = m_tour.steps.at(i);
        if (!st.preset.isEmpty())
            preset = st.preset;
        if (!st.params.isEmpty())
            break;
    }
    m_index = index;
    m_advance.stop();
    m_model->restoreParams(ps, preset);
    m_waiting = s.wait;
    m_model->requestRun();
    emit stepChanged(index);
    if (!m_waiting) {
        emit stepReady(index);
        if (m_playing)
            m_advance.start();
    }
    return true;
}

void TourPlayer::onResult() {
    if (!m_waiting || m_index < 0 || !m_model || m_model->isRunning())
        return;
    m_waiting = false;
    emit stepReady(m_index);
    if (m_playing)
        m_advance.start();
}

void TourPlayer::play() {
    if (m_playing)
        return;
    m_playing = true;
    emit playingChanged(true);
    if (m_index < 0)
        start();
    else if (!m_waiting)
        m_advance.start();
}

void TourPlayer::pause() {
    m_advance.stop();
    if (!m_playing)
        return;
    m_playing = false;
    emit playingChanged(false);
}

void TourPlayer::stop() {
    pause();
    if (m_started && m_model) {
        m_model->restoreParams(m_base, m_basePreset);
        m_model->requestRun();
    }
    m_index = -1;
    m_waiting = false;
    m_started = false;
}

} // namespace pl
