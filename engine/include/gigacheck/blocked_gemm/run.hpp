// One run end to end: generate inputs, plan, schedule, execute, check against a reference, record.
#pragma once

#include "gigacheck/backend.hpp"
#include "gigacheck/blocked_gemm/record.hpp"

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

// Throws InputError on bad configuration (zero shape, cap too small, bad faults) before anything
// runs. Failures during the run (BackendError) end it with record.status = "failed" and
// record.error set; cancellation gives status "cancelled" and a partial record.
RunRecord runGemm(const RunConfig& config, const RunHooks& hooks = {});

// The backend config asks for with config.devices devices (makeBackend's choice, then: the CPU
// emulates them; CUDA takes the chosen device first and then the other GPUs, repeating ordinals
// when there are fewer GPUs than devices). The first device's whyChosen says which ordinals and
// whether any GPU holds two logical devices. Throws InputError like makeBackend.
std::unique_ptr<Backend> makeGemmBackend(const RunConfig& config);

// Expected |C_ij| for random inputs of this distribution (scales random fault deltas).
double typicalMagnitude(const Shape& s, Distribution d);

}  // namespace gigacheck
