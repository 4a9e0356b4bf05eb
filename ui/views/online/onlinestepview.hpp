// The step slider of an online ABFT run (the online-ABFT paper's Figures 2 and 3 animated from
// a real run): C as it is built step by step with its checksum rows and columns (beyond the grey
// lines), the faults appearing at their step (red) and caught at the next check (green), the
// check's mismatching rows and columns shaded. Shown in the heatmap tab in place of the blocked
// family's error animation while the current record is an online one. A TMR run has no steps to
// picture: the slider walks its three replicas, the faults struck into them and the vote.
#pragma once

#include "models/onlinestepmodel.hpp"

#include <QWidget>

class QCPColorMap;
class QCPGraph;
class QCustomPlot;
class QLabel;
class QPushButton;
class QSlider;
class QTimer;

namespace gigacheck::ui {

class LabSession;

class OnlineStepView : public QWidget {
    Q_OBJECT
public:
    explicit OnlineStepView(QWidget* parent = nullptr);
    void subscribe(LabSession* session);
    void setRun(OnlinePtr run);
    const OnlineStepModel& model() const { return model_; }
    int position() const;
    void setPosition(int position);
    QString description() const;
    QString verdictText() const;

signals:
    // The record has no frames (opened from a file): run its configuration again on the CPU.
    void replayRequested(const gigacheck::OnlineConfig& config);

protected:
    void changeEvent(QEvent* event) override;

private:
    void showPosition(int position);
    // A TMR run (no frames): C, the replica the position is at, and the faults struck or voted out.
    void showTmrPosition(int position);

    OnlineStepModel model_;
    QCustomPlot* plot_ = nullptr;
    QCPColorMap* map_ = nullptr;
    QCPGraph* open_ = nullptr;    // struck, not caught yet
    QCPGraph* caught_ = nullptr;  // caught by a check
    QSlider* slider_ = nullptr;
    QPushButton* play_ = nullptr;
    QPushButton* replay_ = nullptr;
    QLabel* text_ = nullptr;
    QLabel* verdict_ = nullptr;  // the run's verdict, as the status bar says it
    QTimer* timer_ = nullptr;
};

}  // namespace gigacheck::ui
