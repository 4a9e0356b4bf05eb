// What a run reports while it goes on: timeline spans, fault injections, verification verdicts.
#pragma once

#include "gigacheck/abft.hpp"
#include "gigacheck/faults.hpp"
#include "gigacheck/matrix.hpp"
#include "gigacheck/schedule.hpp"

namespace gigacheck {

// One finished operation on the timeline. Times in seconds from the start of the run
// (CUDA events on the GPU, a steady clock on the CPU).
struct Span {
    int opId = 0;
    Queue queue = Queue::Compute;
    int stream = 0;
    int device = 0;  // index among the run's devices (Operation::device)
    OpKind kind = OpKind::Product;
    BlockIndex block;
    double start = 0, end = 0;
    double bytes = 0, flops = 0;
};

// The span of an operation, everything but its times (which each backend measures its own way).
inline Span spanOf(const Operation& op)
{
    Span s;
    s.opId = op.id;
    s.queue = op.queue;
    s.stream = op.stream;
    s.device = op.device;
    s.kind = op.kind;
    s.block = op.block;
    s.bytes = op.bytes;
    s.flops = op.flops;
    return s;
}

// Verdict of one block product's verification, in global C coordinates where they exist.
struct VerifyEvent {
    int opId = 0;
    BlockIndex block;
    std::int64_t rowOffset = 0, colOffset = 0, rows = 0, cols = 0;  // the block inside C
    VerifyResult result;  // indices local to the augmented block
    double time = 0;      // when it finished (seconds from run start)
};

struct InjectEvent {
    int opId = 0;
    Injection injection;
    double time = 0;
};

class RunObserver {
public:
    virtual ~RunObserver() = default;
    virtual void onPlan(const Schedule&) {}
    // Called from backend threads, possibly concurrently: implementations must be thread-safe.
    virtual void onSpan(const Span&) {}
    virtual void onInject(const InjectEvent&) {}
    virtual void onVerify(const VerifyEvent&) {}
    // fraction of operations done, 0..1
    virtual void onProgress(double) {}
    // A block of C is final in host memory (its copy back is done; runGemm reports it after the
    // CopyD2H span): lets a viewer draw C while it fills. c is valid only during the call, which
    // runs on a backend thread as onSpan does: read the region, keep it short.
    virtual void onResultBlock(const HostMatrix& /*c*/, const Region& /*region*/) {}
};

}  // namespace gigacheck
