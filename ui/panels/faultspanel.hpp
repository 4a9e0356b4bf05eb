// Faults: random faults (count, collinearity, model, bit, target, scope, seed) and the list of
// explicit faults placed on the heatmap.
#pragma once

#include <gigacheck/faults.hpp>

#include <QWidget>

class QComboBox;
class QListWidget;
class QSpinBox;

namespace gigacheck::ui {

class OnlineFaultBox;
class SeedEdit;

class FaultsPanel : public QWidget {
    Q_OBJECT
public:
    explicit FaultsPanel(QWidget* parent = nullptr);
    // Writes everything but the explicit positions, which the heatmap owns.
    void apply(FaultSpec& spec) const;
    void load(const FaultSpec& spec);
    void setExplicitFaults(const std::vector<FaultAt>& faults);
    // Target and step of the placed faults in online / offline / TMR runs.
    OnlineFaultBox* onlineFaultBox() const { return online_; }

signals:
    void changed();
    // The user removed faults from the list.
    void explicitFaultsEdited(const std::vector<gigacheck::FaultAt>& faults);

private:
    QSpinBox* count_ = nullptr;
    QComboBox* collinear_ = nullptr;
    QComboBox* model_ = nullptr;
    QSpinBox* bit_ = nullptr;
    QSpinBox* bit2_ = nullptr;  // a second bit of the same word (-1: none)
    QComboBox* target_ = nullptr;
    QComboBox* scope_ = nullptr;
    SeedEdit* seed_ = nullptr;
    QListWidget* list_ = nullptr;
    OnlineFaultBox* online_ = nullptr;
    std::vector<FaultAt> faults_;
};

}  // namespace gigacheck::ui
