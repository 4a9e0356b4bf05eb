// Strategy: none / s1-s4 with a short explanation each, and the plan the chosen cap implies
// (splits, block sizes, buffers against the cap), updated on every change.
#pragma once

#include <gigacheck/plan.hpp>

#include <QWidget>

class QButtonGroup;
class QLabel;
class QTableWidget;

namespace gigacheck::ui {

class MemoryBar;
class OnlineSchemeBox;

class StrategyPanel : public QWidget {
    Q_OBJECT
public:
    explicit StrategyPanel(QWidget* parent = nullptr);
    StrategyKind strategy() const;
    void setStrategy(StrategyKind s);
    // The scheme (blocked ABFT or the online family's) and its parameters, above the strategies.
    OnlineSchemeBox* schemeBox() const { return scheme_; }
    void showPlan(const Plan& plan);
    // Nothing fits (or the setup is invalid): the InputError text, in red.
    void showPlanError(const QString& message);

signals:
    void changed();

private:
    OnlineSchemeBox* scheme_ = nullptr;
    QButtonGroup* group_ = nullptr;
    QLabel* explanation_ = nullptr;  // what the chosen strategy does
    QLabel* summary_ = nullptr;
    MemoryBar* bar_ = nullptr;
    QTableWidget* buffers_ = nullptr;
};

}  // namespace gigacheck::ui
