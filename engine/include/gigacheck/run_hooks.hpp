// Hooks into one run of any family: observer, cancel, the result, a reused backend, the inputs.
#pragma once

#include "gigacheck/backend.hpp"

#include <atomic>
#include <functional>

namespace gigacheck {

// Optional hooks into a run (all may be null).
struct RunHooks {
    RunObserver* observer = nullptr;
    const std::atomic<bool>* cancel = nullptr;
    // The GUI keeps the result matrix to draw it; receives C once the run ends.
    HostMatrix* resultOut = nullptr;
    // Reuse a backend across runs (the GUI does); when null the run makes its own from config.
    Backend* backend = nullptr;
    // Called once A and B are filled, before anything runs: campaigns corrupt an operand here (a
    // fault that strikes before the checksums are taken).
    std::function<void(HostMatrix& a, HostMatrix& b)> onInputs;
    // The user's own A and B (gigacheck run --load-a / --load-b, the lab's File > Import), used
    // instead of generated ones: config.shape must be theirs (shapeOfOperands), their values are
    // converted to config.precision; both or neither. Non-finite values are refused.
    const HostMatrix* givenA = nullptr;
    const HostMatrix* givenB = nullptr;
};

}  // namespace gigacheck
