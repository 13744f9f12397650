#pragma once
/// The bar shown above a panel's figures while a guided tour plays: the step's caption,
/// "Step n of N", Previous / Pause-Play / Next and Close. A view of a TourPlayer (not owned; the
/// panel owns both). GUI thread.

#include "sdk/TourPlayer.h"

#include <QFrame>
#include <QPointer>

class QLabel;
class QToolButton;

namespace pl::gui {

class TourBar : public QFrame {
    Q_OBJECT
public:
    explicit TourBar(QWidget* parent = nullptr);

    /// Shows `player` (nullptr hides the bar).
    void setPlayer(TourPlayer* player);
    TourPlayer* player() const { return m_player; }
    QString caption() const;
    QString stepText() const;
    QToolButton* previousButton() const { return m_prev; }
    QToolButton* nextButton() const { return m_next; }
    QToolButton* playButton() const { return m_play; }

signals:
    void closeRequested();

private:
    void refresh();

    QPointer<TourPlayer> m_player;
    QLabel* m_title;
    QLabel* m_caption;
    QLabel* m_step;
    QToolButton* m_prev;
    QToolButton* m_play;
    QToolButton* m_next;
    QToolButton* m_close;
};

} // namespace pl::gui
