// Collects what the engine reports from its backend threads; the worker drains it on a timer so
// that a run with 100 000 operations reaches the GUI as a few dozen batches per second.
#pragma once

#include <gigacheck/events.hpp>

#include <QVector>

#include <mutex>

namespace gigacheck::ui {

class BatchingObserver : public RunObserver {
public:
    struct Batch {
        QVector<Span> spans;
        QVector<VerifyEvent> verifications;
        QVector<InjectEvent> injections;
        double progress = -1;  // -1: no news
        bool empty() const { return spans.isEmpty() && verifications.isEmpty() && injections.isEmpty() && progress < 0; }
    };

    void onSpan(const Span& s) override;
    void onInject(const InjectEvent& e) override;
    void onVerify(const VerifyEvent& e) override;
    void onProgress(double fraction) override;

    // Takes everything buffered since the last call (thread-safe).
    Batch take();
    void clear();

private:
    std::mutex mutex_;
    Batch pending_;
};

}  // namespace gigacheck::ui
