// Collects what the engine reports from its backend threads; the worker drains it on a timer so
// that a run with 100 000 operations reaches the GUI as a few dozen batches per second.
#pragma once

#include "models/heatmapgrid.hpp"

#include <gigacheck/events.hpp>

#include <QVector>

#include <atomic>
#include <mutex>

namespace gigacheck::ui {

class BatchingObserver : public RunObserver {
public:
    struct Batch {
        QVector<Span> spans;
        QVector<VerifyEvent> verifications;
        QVector<InjectEvent> injections;
        QVector<HeatmapGrid> resultTiles;  // blocks of C final on the host, reduced for the heatmap
        double progress = -1;  // -1: no news
        bool empty() const
        {
            return spans.isEmpty() && verifications.isEmpty() && injections.isEmpty() && resultTiles.isEmpty() &&
                   progress < 0;
        }
    };

    void onSpan(const Span& s) override;
    void onInject(const InjectEvent& e) override;
    void onVerify(const VerifyEvent& e) override;
    void onProgress(double fraction) override;
    void onPlan(const Schedule& schedule) override;
    // Reduces the block on the calling backend thread, with bounded work (sampled), so that the
    // GUI only merges small tiles.
    void onResultBlock(const HostMatrix& c, const Region& region) override;

    // Takes everything buffered since the last call (thread-safe).
    Batch take();
    void clear();

private:
    std::mutex mutex_;
    Batch pending_;
    std::atomic<int> tileCells_{256};  // per axis; fewer when the plan has many blocks
};

}  // namespace gigacheck::ui
