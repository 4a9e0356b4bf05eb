// One run end to end: generate inputs, plan, schedule, execute, check against a reference, record.
#pragma once

#include "gigacheck/backend.hpp"
#include "gigacheck/blocked_gemm/record.hpp"
#include "gigacheck/run_hooks.hpp"

#include <memory>

namespace gigacheck {

// Throws InputError on bad configuration (zero shape, cap too small, bad faults) before anything
// runs. Failures during the run (BackendError) end it with record.status = "failed" and
// record.error set; cancellation gives status "cancelled" and a partial record.
RunRecord runGemm(const RunConfig& config, const RunHooks& hooks = {});

// The backend config asks for with config.devices devices (makeBackend's choice, then: the CPU
// emulates them; CUDA takes the chosen device first and then the other GPUs, repeating ordinals
// when there are fewer GPUs than devices). The first device's whyChosen says which ordinals and
// whether any GPU holds two logical devices. Throws InputError like makeBackend.
std::unique_ptr<Backend> makeGemmBackend(const RunConfig& config);

}  // namespace gigacheck
