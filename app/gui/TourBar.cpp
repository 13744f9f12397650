#include "TourBar.h"

#include "sdk/TourPlayer.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QStyle>
#include <QToolButton>
#include <QVBoxLayout>

namespace pl::gui {

TourBar::TourBar(QWidget* parent) : QFrame(parent) {
    setObjectName(QStringLiteral("TourBar"));
    setFrameShape(QFrame::StyledPanel);
    setAutoFillBackground(true);
    setBackgroundRole(QPalette::AlternateBase);
    setAccessibleName(tr("Guided tour"));
    m_title = new QLabel(this);
    QFont bold = m_title->font();
    bold.setBold(true);
    m_title->setFont(bold);
    m_caption = new QLabel(this);
    m_caption->setObjectName(QStringLiteral("TourCaption"));
    m_caption->setWordWrap(true);
    m_caption->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_caption->setAccessibleName(tr("Tour step caption"));
    m_step = new QLabel(this);
    m_step->setAccessibleName(tr("Tour progress"));
    auto button = [this](QStyle::StandardPixmap icon, const QString& text, const QString& tip) {
        auto* b = new QToolButton(this);
        b->setIcon(style()->standardIcon(icon));
        b->setText(text);
        b->setToolTip(tip);
        b->setAccessibleName(text);
        b->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
        return b;
    };
    m_prev = button(QStyle::SP_MediaSeekBackward, tr("Previous"), tr("Previous step of the tour"));
    m_play = button(QStyle::SP_MediaPlay, tr("Play"), tr("Move on by itself after each result"));
    m_next = button(QStyle::SP_MediaSeekForward, tr("Next"), tr("Next step of the tour"));
    m_close =
        button(QStyle::SP_DialogCloseButton, tr("End tour"), tr("End the tour and put the parameters back"));
    auto* top = new QHBoxLayout;
    top->addWidget(m_title, 1);
    top->addWidget(m_step);
    top->addWidget(m_prev);
    top->addWidget(m_play);
    top->addWidget(m_next);
    top->addWidget(m_close);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 4, 6, 4);
    layout->addLayout(top);
    layout->addWidget(m_caption);
    connect(m_prev, &QToolButton::clicked, this, [this] {
        if (m_player)
            m_player->previous();
    });
    connect(m_next, &QToolButton::clicked, this, [this] {
        if (m_player)
            m_player->next();
    });
    connect(m_play, &QToolButton::clicked, this, [this] {
        if (m_player)
            m_player->isPlaying() ? m_player->pause() : m_player->play();
    });
    connect(m_close, &QToolButton::clicked, this, &TourBar::closeRequested);
    hide();
}

void TourBar::setPlayer(TourPlayer* player) {
    if (m_player)
        disconnect(m_player, nullptr, this, nullptr);
    m_player = player;
    setVisible(player != nullptr);
    if (!player)
        return;
    connect(player, &TourPlayer::stepChanged, this, &TourBar::refresh);
    connect(player, &TourPlayer::stepReady, this, &TourBar::refresh);
    connect(player, &TourPlayer::playingChanged, this, &TourBar::refresh);
    refresh();
}

QString TourBar::caption() const {
    return m_caption->text();
}
QString TourBar::stepText() const {
    return m_step->text();
}

void TourBar::refresh() {
    if (!m_player)
        return;
    const Tour& t = m_player->tour();
    m_title->setText(t.title.isEmpty() ? t.name : t.title);
    const int i = m_player->currentIndex();
    const TourStep* s = m_player->currentStep();
    m_caption->setText(s ? s->caption : QString());
    m_step->setText(i < 0 ? QString()
                    : m_player->isWaiting()
                        ? tr("Step %1 of %2 (computing…)").arg(i + 1).arg(m_player->count())
                        : tr("Step %1 of %2").arg(i + 1).arg(m_player->count()));
    m_prev->setEnabled(i > 0);
    m_next->setEnabled(i + 1 < m_player->count());
    const bool playing = m_player->isPlaying();
    m_play->setText(playing ? tr("Pause") : tr("Play"));
    m_play->setAccessibleName(m_play->text());
    m_play->setIcon(style()->standardIcon(playing ? QStyle::SP_MediaPause : QStyle::SP_MediaPlay));
}

} // namespace pl::gui
