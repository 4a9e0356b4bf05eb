// Strategy: none / s1-s4 / auto with a short explanation each, and the plan the chosen cap implies
// (splits, block sizes, buffers against the cap), updated on every change. With auto the window
// has the cost-model planner choose (AutoPlanner, on a worker thread): the panel shows its choice
// in bold beside the buttons ("auto → s2") and the planner's text explaining why.
#pragma once

#include <gigacheck/blocked_gemm/plan.hpp>

#include <QWidget>

#include <optional>

class QBoxLayout;
class QButtonGroup;
class QLabel;
class QTableWidget;

namespace gigacheck::ui {

class MemoryBar;
class OnlineSchemeBox;
struct OnlineSchemeSettings;

class StrategyPanel : public QWidget {
    Q_OBJECT
public:
    explicit StrategyPanel(QWidget* parent = nullptr);
    // The strategy the run uses: the button checked, or with auto the planner's latest choice (s1
    // before the first).
    StrategyKind strategy() const;
    void setStrategy(StrategyKind s);  // checks that button (auto off)
    bool isAuto() const;
    void setAuto(bool on);
    // Sizes in binary units (the cap was typed in MiB / GiB): the bar, the plan text, the table.
    void setBinaryUnits(bool binary);
    // The run has no cap of its own: the memory bar says "the whole device" beside its size.
    void setWholeDevice(bool whole);
    // Auto: planning (the previous plan stays shown, marked as being updated), its choice, or why
    // nothing fits (the planner's message, in red in the panel).
    void showAutoPlanning();
    // calibrated: the device's rates were measured; else the time is labelled uncalibrated with the
    // command that measures them.
    void showAutoPlan(const Plan& plan, double predictedSeconds, bool calibrated = true);
    void showAutoError(const QString& message);
    // The planner's choice shown (nullopt: none yet or it failed).
    std::optional<StrategyKind> autoChoice() const { return autoChoice_; }
    // The scheme (blocked ABFT or the online family's) and its parameters, above the strategies.
    OnlineSchemeBox* schemeBox() const { return scheme_; }
    void showPlan(const Plan& plan);
    // The planner's text in brief for the panel (the predictions per strategy and why the chosen
    // one wins; the fits it refused by name); the whole text is the summary's tooltip.
    static QString briefPlannerText(const QString& explanation);
    // Nothing fits (or the setup is invalid): the InputError text, in red.
    void showPlanError(const QString& message);
    // An online-family scheme is chosen: the strategies, the cap and the plan are blocked ABFT's,
    // so they are greyed out and the panel says what the scheme will run instead.
    void showScheme(const OnlineSchemeSettings& scheme, const Shape& shape);
    // The strategies back (blocked ABFT chosen).
    void enableStrategies();

signals:
    void changed();

protected:
    void changeEvent(QEvent* event) override;

private:
    void placeAutoButton();
    // The buffer table as tall as its rows where the dock has room (no scrollbar beside empty
    // space), at least its header and two rows where it has not.
    void fitBufferTable();
    void showPlanText(const Plan& plan, const QString& explanation);
    // The plan's sizes in the units the cap was typed in (cap, total, the workspaces' size).
    QString planSizesIn(QString text, const Plan& plan) const;

    OnlineSchemeBox* scheme_ = nullptr;
    QButtonGroup* group_ = nullptr;
    QLabel* explanation_ = nullptr;  // what the chosen strategy does
    QLabel* summary_ = nullptr;
    MemoryBar* bar_ = nullptr;
    QTableWidget* buffers_ = nullptr;
    QLabel* autoChoiceLabel_ = nullptr;  // "auto → s2" in bold
    QBoxLayout* choices_ = nullptr;  // none .. s4 (and auto, when they fit one row)
    QBoxLayout* autoRow_ = nullptr;  // auto, in presentation mode
    std::optional<StrategyKind> autoChoice_;
    bool binary_ = false;
};

}  // namespace gigacheck::ui
