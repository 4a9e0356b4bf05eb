// The kernel gallery in the lab: pick a family, a backend and kernels, sweep sizes, and see time or
// GB/s / GFLOP/s against N (log-log) with the seed's figures dashed beside and the memory roof;
// beside it each kernel on the roofline (reduced matmul) or its bandwidth against the memory roof
// (transpose); below, the access-pattern animation (step / play) that explains the curves, opened
// on a pattern of the family and backend chosen.
#pragma once

#include "views/gallery/accesspattern.hpp"
#include "views/gallery/galleryroofline.hpp"
#include "views/gallery/gallerysweep.hpp"

#include <QWidget>

class QCheckBox;
class QComboBox;
class QCustomPlot;
class QLabel;
class QListWidget;
class QPushButton;
class QSpinBox;
class QTimer;

namespace gigacheck::ui::gallery {

class AccessPatternWidget;

class GalleryView : public QWidget {
    Q_OBJECT
public:
    explicit GalleryView(QWidget* parent = nullptr);
    ~GalleryView() override;

    const std::vector<SweepPoint>& points() const { return points_; }
    bool sweeping() const { return job_ != 0; }
    int animationStep() const { return step_; }
    int animationSteps() const { return int(steps_.size()); }
    QCustomPlot* plot() const { return plot_; }
    QCustomPlot* roofline() const { return roofline_; }
    // What the sweep plot shows, for an exported picture's title ("Transpose on the CPU: GB/s against N").
    QString plotTitle() const;
    // The largest size exponent the view sweeps (CPU: what finishes in seconds).
    static int maxExponent(Family family, bool gpu);
    // Sweeps still running, views destroyed or not (tests: closing does not wait for them).
    static int sweepsRunning();
    static QString jobName() { return QStringLiteral("gallery sweep"); }
    // The lab shows the view in a scroll area: it scrolls only below the view's minimum, not below
    // the height its plots and wrapped labels would like (a 768-pixel screen scrolled it).
    int heightForWidth(int width) const override;

    // A record of `gigacheck reduced` / `gigacheck transpose` (File › Open): the view switches to
    // its family and backend and draws its point, said in the status line. InputError while a
    // sweep goes on (its points would mix with the record's) or for another family's record.
    void openRecord(const RecordEnvelope& record, const QString& path);
    // The set-up panels, for the lab's docks: backend and sizes (Matrix setup), the family and its
    // kernels (Algorithm), and the Faults dock's words on why the gallery places none. The row
    // above the plots that held the first two goes.
    struct Panels {
        QWidget* inputs = nullptr;
        QWidget* algorithm = nullptr;
        QWidget* faults = nullptr;
    };
    Panels dockPanels();

public slots:
    // Sweeps the checked kernels over 2^from ... 2^to on the chosen backend, as a background run
    // job (refused, with the reason in the status line, while another run job goes on). The Run
    // dock's Start, Cancel and progress drive it while the Kernel gallery is the family shown.
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
    // Shows the first access pattern of the family and backend chosen, unless the one shown is theirs.
    void followFamilyWithPattern();
    Family family() const;
    bool gpu() const;

    QWidget* inputsPanel_ = nullptr;
    QWidget* algorithmPanel_ = nullptr;
    QWidget* faultPanel_ = nullptr;
    QWidget* panelRow_ = nullptr;
    QComboBox* familyBox_ = nullptr;
    QComboBox* backendBox_ = nullptr;
    QListWidget* variantList_ = nullptr;
    QSpinBox* fromBox_ = nullptr;
    QSpinBox* toBox_ = nullptr;
    QComboBox* axisBox_ = nullptr;
    QLabel* status_ = nullptr;
    QCustomPlot* plot_ = nullptr;
    QCustomPlot* roofline_ = nullptr;
    KernelPlot kernelPlot_;  // roofline_ with its title and note

    QComboBox* patternBox_ = nullptr;
    QPushButton* playButton_ = nullptr;
    QLabel* stepTitle_ = nullptr;
    QLabel* stepCost_ = nullptr;
    AccessPatternWidget* pattern_ = nullptr;
    QTimer* timer_ = nullptr;
    std::vector<AccessStep> steps_;
    int step_ = 0;

    std::vector<SweepPoint> points_;
    quint64 job_ = 0;  // BackgroundJobs' id while sweeping
};

}  // namespace gigacheck::ui::gallery
