// The kernel gallery in the lab: pick a family, a backend and kernels, sweep sizes, and see time or
// GB/s / GFLOP/s against N (log-log) with the seed's figures dashed beside and the memory roof;
// beside it each kernel as a point on the roofline; below, the access-pattern animation
// (step / play) that explains the curves.
#pragma once

#include "views/gallery/accesspattern.hpp"
#include "views/gallery/gallerysweep.hpp"

#include <QWidget>

#include <atomic>
#include <memory>

class QCheckBox;
class QComboBox;
class QCPTextElement;
class QCustomPlot;
class QLabel;
class QListWidget;
class QPushButton;
class QSpinBox;
class QThread;
class QTimer;

namespace gigacheck::ui::gallery {

class AccessPatternWidget;

class GalleryView : public QWidget {
    Q_OBJECT
public:
    explicit GalleryView(QWidget* parent = nullptr);
    ~GalleryView() override;

    const std::vector<SweepPoint>& points() const { return points_; }
    bool sweeping() const { return worker_ != nullptr; }
    int animationStep() const { return step_; }
    int animationSteps() const { return int(steps_.size()); }
    QCustomPlot* plot() const { return plot_; }
    QCustomPlot* roofline() const { return roofline_; }
    // The largest size exponent the view sweeps (CPU: what finishes in seconds).
    static int maxExponent(Family family, bool gpu);
    // Sweep workers still running, views destroyed or not (tests: closing does not wait for them).
    static int sweepsRunning() { return sweepsRunning_.load(); }

public slots:
    // Sweeps the checked kernels over 2^from ... 2^to on the chosen backend, on a worker thread.
    void startSweep();
    void stopSweep();
    void setPattern(int index);
    void stepForward();
    void stepBack();
    void togglePlay();
    // Stops playing and shows step index (tests, screenshots).
    void goToStepForScreenshot(int index);

signals:
    void sweepFinished();

private:
    void fillVariants();
    void addPoint(const SweepPoint& p);
    void replot();
    void replotRoofline();
    void showStep();
    Family family() const;
    bool gpu() const;

    QComboBox* familyBox_ = nullptr;
    QComboBox* backendBox_ = nullptr;
    QListWidget* variantList_ = nullptr;
    QSpinBox* fromBox_ = nullptr;
    QSpinBox* toBox_ = nullptr;
    QComboBox* axisBox_ = nullptr;
    QPushButton* sweepButton_ = nullptr;
    QLabel* status_ = nullptr;
    QCustomPlot* plot_ = nullptr;
    QCustomPlot* roofline_ = nullptr;
    QCPTextElement* rooflineTitle_ = nullptr;
    QCPTextElement* rooflineNote_ = nullptr;

    QComboBox* patternBox_ = nullptr;
    QPushButton* playButton_ = nullptr;
    QLabel* stepTitle_ = nullptr;
    QLabel* stepCost_ = nullptr;
    AccessPatternWidget* pattern_ = nullptr;
    QTimer* timer_ = nullptr;
    std::vector<AccessStep> steps_;
    int step_ = 0;

    std::vector<SweepPoint> points_;
    QThread* worker_ = nullptr;
    std::shared_ptr<std::atomic<bool>> cancel_;
    static inline std::atomic<int> sweepsRunning_{0};
};

}  // namespace gigacheck::ui::gallery
