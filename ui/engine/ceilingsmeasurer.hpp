// "Measure this machine…": the roofline ceilings of one device (what `gigacheck devices --measure`
// measures) as a run job of BackgroundJobs, a progress report per point, Cancel within a stage, and
// the result stored where the CLI stores it (defaultCeilingsPath). Closing never waits for the
// job; it is told to stop and ends alone when its current point returns.
#pragma once

#include <gigacheck/backend.hpp>

#include <QObject>
#include <QString>

namespace gigacheck::ui {

class CeilingsMeasurer : public QObject {
    Q_OBJECT
public:
    explicit CeilingsMeasurer(QObject* parent = nullptr);
    ~CeilingsMeasurer() override;

    // Starts measuring `device`, or queues it behind the run job going on (BackgroundJobs); false
    // (nothing started) while a measurement goes on or waits.
    bool start(const DeviceInfo& device);
    // Stops before the next point (within a stage); nothing is stored, `cancelled` follows.
    void cancel();
    bool isRunning() const { return job_ != 0; }  // measuring or waiting in the queue
    quint64 job() const { return job_; }
    // The device being (or last) measured.
    const DeviceInfo& device() const { return device_; }
    // MeasureOptions::quick (fewer, smaller points): for the tests only, which keeps them short.
    void setQuick(bool quick) { quick_ = quick; }
    // Measurements still running, measurers destroyed or not (tests: closing does not wait for them).
    static int workersRunning();
    static QString jobName() { return QStringLiteral("ceilings measurement"); }

signals:
    // Before each point: its stage, the points done and the points in all.
    void progressed(const QString& stage, int done, int total);
    // Stored in `path`; device carries the ceilings.
    void measured(const gigacheck::DeviceInfo& device, const QString& path);
    void cancelled();
    void failed(const QString& message);
    // After measured, cancelled or failed: isRunning() is false again.
    void finished();

private:
    struct Outcome;
    void conclude(const Outcome& outcome);

    quint64 job_ = 0;  // BackgroundJobs' id while measuring
    DeviceInfo device_;
    bool quick_ = false;
};

}  // namespace gigacheck::ui
