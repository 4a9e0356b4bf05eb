// The fq sweep view: the online scheme's overhead against the check
// frequency fq (left axis) and the share of runs whose faults, scattered over time, all ended
// corrected (right axis, one line per fault count) — the seed's trade-off, measured here.
#pragma once

#include "views/online/fqsweepmodel.hpp"

#include <QWidget>

class QComboBox;
class QCustomPlot;
class QLabel;
class QSpinBox;

namespace gigacheck::ui {

class OnlineSweepView : public QWidget {
    Q_OBJECT
public:
    explicit OnlineSweepView(QWidget* parent = nullptr);
    FqSweepModel* model() const { return model_; }
    FqSweepOptions options() const;
    // N, b and trials into the controls; reps as given (the controls have none).
    void setOptions(const FqSweepOptions& options);
    // Starts the sweep (the Run dock's Start while this view is shown; its Cancel stops it).
    void start();
    QCustomPlot* plot() const { return plot_; }

protected:
    void changeEvent(QEvent* event) override;

private:
    void replot();

    FqSweepModel* model_ = nullptr;
    QSpinBox* n_ = nullptr;
    QSpinBox* panel_ = nullptr;
    QSpinBox* trials_ = nullptr;
    int reps_ = 3;
    QComboBox* backend_ = nullptr;
    QLabel* status_ = nullptr;
    QCustomPlot* plot_ = nullptr;
};

}  // namespace gigacheck::ui
