// Run › Measure this machine… and the Roofline view's button: the ceilings of
// the device Matrix setup picks, measured on the measurer's worker thread, stored where
// `gigacheck devices --measure` stores them and drawn as the roofs at once.
#include "mainwindow.hpp"

#include "engine/backgroundjobs.hpp"
#include "engine/ceilingsmeasurer.hpp"
#include "panels/runpanel.hpp"
#include "panels/setuppanel.hpp"
#include "views/rooflineview.hpp"

#include <QAction>
#include <QStatusBar>

namespace gigacheck::ui {

void MainWindow::measureCeilings()
{
    if (measurer_->isRunning()) {
        showView(View::Roofline);  // where its progress and Cancel are
        return;
    }
    DeviceInfo device;
    QString why;
    if (!setup_->selectedDevice(&device, &why)) {
        reportError(QStringLiteral("Cannot measure the ceilings: %1.").arg(why));
        return;
    }
    // A run going on first: it would skew the roofs, so the measurement waits in the queue.
    if (!measurer_->start(device))
        return;
    roofline_->setMeasuring(true);
    measureAction_->setEnabled(false);
    showView(View::Roofline);
    const QString queued = BackgroundJobs::instance()->queuedNote(measurer_->job());
    const QString text = queued.isEmpty()
                             ? QStringLiteral("Measuring the ceilings of %1 …").arg(QString::fromStdString(device.name))
                             : QStringLiteral("Measuring the ceilings of %1 %2.").arg(QString::fromStdString(device.name), queued);
    run_->log(text);
    statusBar()->showMessage(text);
}

void MainWindow::connectMeasurer()
{
    connect(roofline_, &RooflineView::measureRequested, this, &MainWindow::measureCeilings);
    connect(roofline_, &RooflineView::measureCancelRequested, measurer_, &CeilingsMeasurer::cancel);
    connect(measurer_, &CeilingsMeasurer::progressed, roofline_, &RooflineView::showMeasureProgress);
    connect(measurer_, &CeilingsMeasurer::measured, this, [this](const DeviceInfo& device, const QString& path) {
        roofline_->showMeasured(device);
        const QString text = QStringLiteral("Measured %1: the roofline shows its measured roofs (stored in %2).")
                                 .arg(QString::fromStdString(device.name), path);
        run_->log(text);
        statusBar()->showMessage(text);
    });
    connect(measurer_, &CeilingsMeasurer::cancelled, this, [this] {
        const QString text = QStringLiteral("Measurement cancelled: nothing stored, the roofs are as they were.");
        run_->log(text);
        statusBar()->showMessage(text, 10000);
    });
    connect(measurer_, &CeilingsMeasurer::failed, this, [this](const QString& message) {
        reportError(QStringLiteral("Cannot measure %1: %2").arg(QString::fromStdString(measurer_->device().name), message));
    });
    connect(measurer_, &CeilingsMeasurer::finished, this, [this] {
        roofline_->setMeasuring(false);
        measureAction_->setEnabled(true);
    });
}

}  // namespace gigacheck::ui
