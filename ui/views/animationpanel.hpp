// Step, play, pause and speed controls of the error animation, with the step's title and the
// seed's formula beside it. It owns the steps and tells the heatmap which one to show.
#pragma once

#include "models/animationmodel.hpp"

#include <QWidget>

class QLabel;
class QLayout;
class QPushButton;
class QScrollArea;
class QSlider;
class QTimer;

namespace gigacheck::ui {

class LabSession;

class AnimationPanel : public QWidget {
    Q_OBJECT
public:
    explicit AnimationPanel(QWidget* parent = nullptr);

    // Follows the session: steps grow with the live events of a run; a record's events replace
    // them only when they differ from what is shown.
    void subscribe(LabSession* session);

    // Rebuilds the steps; keeps the position when the new list extends the old one (live runs).
    void setEvents(const std::vector<InjectEvent>& injections, const std::vector<VerifyEvent>& verifications,
                   const std::vector<RepairEvent>& repairs = {});
    const std::vector<AnimationStep>& steps() const { return steps_; }
    int current() const { return current_; }
    bool playing() const;
    // Milliseconds per step at the current speed.
    int interval() const;

public slots:
    void stepForward();
    void stepBack();
    void play();
    void pause();
    void goTo(int index);
    // The run it showed no longer matches the setup (another shape): no steps, nothing highlighted.
    void clear();
    QString verdictText() const;

signals:
    void stepChanged(const gigacheck::ui::AnimationStep* step);

protected:
    void resizeEvent(QResizeEvent* event) override;
    bool event(QEvent* event) override;

private:
    void show();
    // The explanation gets the height its text needs at the panel's width (the heatmap above gives
    // it up), up to half the page; only a longer one scrolls.
    void fitExplanation();

    std::vector<AnimationStep> steps_;
    std::size_t injectionsShown_ = 0, verificationsShown_ = 0;  // the events steps_ was built from
    int current_ = -1;
    QLabel* position_ = nullptr;
    QLabel* title_ = nullptr;
    QLabel* verdict_ = nullptr;  // the run's verdict, as the status bar says it
    QLabel* formula_ = nullptr;
    QScrollArea* formulaArea_ = nullptr;
    QLayout* controls_ = nullptr;  // the buttons' row
    QLayout* heading_ = nullptr;   // the step's position and title
    QPushButton* playButton_ = nullptr;
    QSlider* speed_ = nullptr;
    QTimer* timer_ = nullptr;
};

}  // namespace gigacheck::ui
