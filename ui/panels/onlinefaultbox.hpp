// Where and when the faults of an online ABFT run strike: the target (C, its checksum
// row or column, the input A or B) of the faults placed on the heatmap, and the step after which
// they strike. Part of the Faults panel; blocked ABFT runs ignore it.
#pragma once

#include "panels/onlineschemebox.hpp"

#include <gigacheck/blocked_gemm/record.hpp>
#include <gigacheck/online_abft.hpp>

#include <QWidget>

class QComboBox;
class QFormLayout;
class QLabel;
class QSpinBox;

namespace gigacheck::ui {

struct OnlineFaultSettings {
    OnlineTarget target = OnlineTarget::Result;
    int step = -1;  // -1: the default, a middle step (online / offline; TMR: the engine's replica 0)
    bool operator==(const OnlineFaultSettings&) const = default;
};

class OnlineFaultBox : public QWidget {
    Q_OBJECT
public:
    explicit OnlineFaultBox(QWidget* parent = nullptr);
    // The two fields as rows of the panel's own form (one label column: nothing squeezed).
    void addRowsTo(QFormLayout* form);
    OnlineFaultSettings settings() const;
    void setSettings(const OnlineFaultSettings& settings);
    // The scheme the panels describe and its step count: the rows show for online / offline (the
    // step 0 .. steps - 1, "middle step (k)" by default) and TMR (the replica instead).
    void setScheme(Scheme scheme, int steps);

signals:
    void changed();

private:
    QComboBox* target_ = nullptr;
    QSpinBox* step_ = nullptr;
    QLabel* targetLabel_ = nullptr;
    QLabel* stepLabel_ = nullptr;
    QFormLayout* form_ = nullptr;
};

// The step a placed fault of an online / offline run strikes after when it names none: the middle
// one, so that a first try lands where a check can still catch and correct it.
int defaultFaultStep(int steps);
// The steps of the online run `scheme` makes of `shape` (0 for TMR and blocked).
int onlineStepCount(const OnlineSchemeSettings& scheme, const Shape& shape);

// The online run the panels describe: setup, random faults and placed faults of `base` (the
// blocked-GEMM config the window builds), the scheme and its parameters, and the placed faults'
// target and step (a fault that carries its own step keeps it). Placed cells map to targets as:
// checksum row: C(m + 0, col); checksum column: C(row, q + 0); A: A(row, min(col, n - 1)) (it
// spreads along row `row` of C); B: B(min(row, n - 1), col) (along column `col`).
OnlineConfig makeOnlineConfig(const RunConfig& base, const OnlineSchemeSettings& scheme, const OnlineFaultSettings& faults);

// The other way: what the panels show for an online record's configuration, so that a reopened
// record runs again as it ran. `base` keeps what an online config does not carry (the memory cap,
// the strategy); the placed faults take the record's cells, steps and deltas, and their target
// the first fault's.
struct OnlinePanels {
    RunConfig base;
    OnlineSchemeSettings scheme;
    OnlineFaultSettings faults;
};
OnlinePanels onlinePanelsOf(const OnlineConfig& config, RunConfig base);

}  // namespace gigacheck::ui
