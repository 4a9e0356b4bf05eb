#include "animationpanel.hpp"

#include "models/runverdict.hpp"

#include "session/labsession.hpp"

#include <QEvent>
#include <QHBoxLayout>

#include <algorithm>
#include <cmath>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QSlider>
#include <QTimer>
#include <QVBoxLayout>

namespace gigacheck::ui {

AnimationPanel::AnimationPanel(QWidget* parent) : QWidget(parent)
{
    auto* first = new QPushButton(QStringLiteral("First"), this);
    auto* back = new QPushButton(QStringLiteral("Back"), this);
    playButton_ = new QPushButton(QStringLiteral("Play"), this);
    playButton_->setObjectName(QStringLiteral("animationPlay"));
    auto* forward = new QPushButton(QStringLiteral("Next"), this);
    forward->setObjectName(QStringLiteral("animationStep"));
    speed_ = new QSlider(Qt::Horizontal, this);
    speed_->setRange(-2, 3);  // 2^value steps per second
    speed_->setValue(0);
    speed_->setToolTip(QStringLiteral("speed"));
    speed_->setMaximumWidth(120);
    position_ = new QLabel(QStringLiteral("no steps"), this);
    title_ = new QLabel(this);
    title_->setObjectName(QStringLiteral("animationTitle"));
    title_->setWordWrap(true);
    QFont bold = title_->font();
    bold.setBold(true);
    title_->setFont(bold);
    formula_ = new QLabel(this);
    formula_->setObjectName(QStringLiteral("animationFormula"));
    formula_->setTextFormat(Qt::RichText);
    formula_->setWordWrap(true);
    formula_->setAlignment(Qt::AlignTop | Qt::AlignLeft);


    auto* controls = new QHBoxLayout;
    controls->addWidget(first);
    controls->addWidget(back);
    controls->addWidget(playButton_);
    controls->addWidget(forward);
    controls->addWidget(new QLabel(QStringLiteral("speed"), this));
    controls->addWidget(speed_);
    // The run's verdict in every view's words (models/runverdict), on a line of its own that
    // wraps: never widens the window, never cut off.
    verdict_ = new QLabel(this);
    verdict_->setObjectName(QStringLiteral("animationVerdict"));
    verdict_->setWordWrap(true);
    controls->addStretch(1);
    controls_ = controls;
    auto* heading = new QHBoxLayout;
    heading_ = heading;  // the step's position beside its title keeps the controls narrow
    heading->addWidget(position_);
    heading->addWidget(title_, 1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(controls);
    layout->addWidget(verdict_);
    layout->addLayout(heading);
    // The explanation as tall as its text (fitExplanation); it scrolls only when that is more than
    // half the page (a long list of residuals, presentation mode on a small screen).
    formulaArea_ = new QScrollArea(this);
    formulaArea_->setObjectName(QStringLiteral("animationExplanation"));
    formulaArea_->setWidget(formula_);
    formulaArea_->setWidgetResizable(true);
    formulaArea_->setFrameShape(QFrame::NoFrame);
    formulaArea_->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    layout->addWidget(formulaArea_, 1);

    timer_ = new QTimer(this);
    connect(timer_, &QTimer::timeout, this, [this] {
        if (current_ + 1 < int(steps_.size()))
            stepForward();
        else
            pause();
    });
    connect(first, &QPushButton::clicked, this, [this] { goTo(0); });
    connect(back, &QPushButton::clicked, this, &AnimationPanel::stepBack);
    connect(forward, &QPushButton::clicked, this, &AnimationPanel::stepForward);
    connect(playButton_, &QPushButton::clicked, this, [this] { playing() ? pause() : play(); });
    connect(speed_, &QSlider::valueChanged, this, [this] { timer_->setInterval(interval()); });
    timer_->setInterval(interval());
    show();
}

void AnimationPanel::subscribe(LabSession* session)
{
    connect(session, &LabSession::runStarted, this, &AnimationPanel::clear);
    connect(session, &LabSession::runStarted, verdict_, &QLabel::clear);
    connect(session, &LabSession::recordChanged, this, [this](const RecordPtr& r) {
        const QString text = runVerdictOf(*r).summary();
        verdict_->setText(text);
        verdict_->setToolTip(text);
    });
    connect(session, &LabSession::injectionsArrived, this,
            [this, session] { setEvents(session->injections(), session->verifications()); });
    connect(session, &LabSession::verificationsArrived, this, [this, session](const QVector<VerifyEvent>& events) {
        // Clean verifications of a run without faults add no step.
        const bool interesting = std::any_of(events.begin(), events.end(),
                                             [](const VerifyEvent& e) { return e.result.verdict != Verdict::Clean; });
        if (interesting || !session->injections().empty())
            setEvents(session->injections(), session->verifications());
    });
    connect(session, &LabSession::recordChanged, this, [this](const RecordPtr& r) {
        // The repair pass's steps (blocked GEMM's) exist only in the finished record.
        const RunRecord* blocked = blockedRecordOf(*r);
        const std::vector<RepairEvent> none;
        const std::vector<RepairEvent>& repairs = blocked ? blocked->repairs : none;
        if (r->injections.size() != injectionsShown_ || r->verifications.size() != verificationsShown_ || !repairs.empty())
            setEvents(r->injections, r->verifications, repairs);
    });
}

int AnimationPanel::interval() const
{
    return int(1000.0 / std::pow(2.0, speed_->value()));
}

bool AnimationPanel::playing() const
{
    return timer_->isActive();
}

void AnimationPanel::setEvents(const std::vector<InjectEvent>& injections, const std::vector<VerifyEvent>& verifications,
                               const std::vector<RepairEvent>& repairs)
{
    steps_ = buildAnimation(injections, verifications, repairs);
    injectionsShown_ = injections.size();
    verificationsShown_ = verifications.size();
    if (current_ >= int(steps_.size()))
        current_ = int(steps_.size()) - 1;
    show();
}

void AnimationPanel::stepForward()
{
    goTo(std::min(current_ + 1, int(steps_.size()) - 1));
}

void AnimationPanel::stepBack()
{
    goTo(std::max(current_ - 1, 0));
}

void AnimationPanel::play()
{
    if (steps_.empty())
        return;
    if (current_ + 1 >= int(steps_.size()))
        current_ = -1;  // play again from the start
    timer_->start(interval());
    playButton_->setText(QStringLiteral("Pause"));
    stepForward();
}

void AnimationPanel::pause()
{
    timer_->stop();
    playButton_->setText(QStringLiteral("Play"));
}

void AnimationPanel::goTo(int index)
{
    if (steps_.empty())
        return;
    current_ = std::clamp(index, 0, int(steps_.size()) - 1);
    show();
}

QString AnimationPanel::verdictText() const
{
    return verdict_->text();
}

void AnimationPanel::clear()
{
    pause();
    current_ = -1;
    setEvents({}, {});
}

void AnimationPanel::show()
{
    if (steps_.empty() || current_ < 0) {
        position_->setText(steps_.empty() ? QStringLiteral("no faults to animate yet")
                                          : QStringLiteral("%1 steps").arg(steps_.size()));
        title_->setText(steps_.empty() ? QStringLiteral("Place faults on the heatmap (or ask for random ones) and run.")
                                       : QStringLiteral("Press play or step to walk through detection and correction."));
        formula_->setText(QString());
        emit stepChanged(nullptr);
        return;
    }
    const AnimationStep& s = steps_[std::size_t(current_)];
    position_->setText(QStringLiteral("step %1 / %2 (%3)").arg(current_ + 1).arg(steps_.size()).arg(stageName(s.stage)));
    title_->setText(s.title);
    // Larger than the body text (it follows the text size and presentation mode): the subscripts
    // of rich text are drawn smaller still and must stay readable from the back of a room.
    formula_->setText(QStringLiteral("<div style='font-size:large'>%1</div>").arg(s.explanation));
    fitExplanation();
    emit stepChanged(&s);
}

void AnimationPanel::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    fitExplanation();
}

bool AnimationPanel::event(QEvent* event)
{
    // A label's new text (the verdict, the step's title) may need another height. Set while the
    // panel was hidden (a run that ended with the timeline shown) it asked for no new layout, so
    // the height is fitted again when the panel is shown (the verdict was cut at its second line).
    if (event->type() == QEvent::LayoutRequest || event->type() == QEvent::Show)
        fitExplanation();
    return QWidget::event(event);
}

void AnimationPanel::fitExplanation()
{
    const QMargins margins = layout()->contentsMargins();
    const int width = this->width() - margins.left() - margins.right();
    if (width <= 0)
        return;
    // The rows above the explanation at this width (the verdict and the title wrap)...
    const int spacing = std::max(0, layout()->spacing());
    const auto heightOf = [width](QLayoutItem* item) {
        return item->hasHeightForWidth() ? item->heightForWidth(width) : item->sizeHint().height();
    };
    const int others = margins.top() + margins.bottom() + 3 * spacing + controls_->sizeHint().height() +
                       verdict_->heightForWidth(width) + heightOf(heading_);
    // ... and the explanation's text, up to half the page (the heatmap keeps the other half).
    const int textWidth = width - formulaArea_->verticalScrollBar()->sizeHint().width();
    const int need = formula_->text().isEmpty() ? 0 : formula_->heightForWidth(textWidth);
    const int page = parentWidget() ? parentWidget()->height() : 2 * (others + need);
    const int shown = std::clamp(need, 0, std::max(0, page / 2 - others));
    if (formulaArea_->minimumHeight() != shown)
        formulaArea_->setMinimumHeight(shown);
    // The panel asks for all of it (an explicit minimum: the splitter above reads it, not the
    // layout's, which counts the wrapped labels at another width).
    const int panel = others + std::max(shown, formulaArea_->minimumSizeHint().height());
    if (minimumHeight() != panel)
        setMinimumHeight(panel);
}

}  // namespace gigacheck::ui
