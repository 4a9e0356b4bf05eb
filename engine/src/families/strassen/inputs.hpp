// What the strassen family's ops work on besides the device buffers (ExecutionRequest::inputs):
// the host matrices and the leaf settings. Checked by checkInputs before an executor touches memory.
#pragma once

#include "gigacheck/backend.hpp"
#include "gigacheck/faults.hpp"
#include "gigacheck/strassen.hpp"

#include <atomic>
#include <string>

namespace gigacheck::strassen {

struct Inputs final : FamilyInputs {
    HostMatrix* a = nullptr;  // m x n, copied in, and back out after recovery
    HostMatrix* b = nullptr;  // n x q
    HostMatrix* c = nullptr;  // m x q: C += A*B
    Precision precision = Precision::F32;
    bool tf32 = false;         // TF32 tensor-core cuBLAS leaves
    bool multiTarget = false;  // the multi-target kernel for products with several targets (CUDA)
    bool cutlassLeaves = false;  // CUTLASS TF32 leaves (CUDA; the CPU rounds the operands to TF32 as cuBLAS TF32 leaves)
    // --leaf cutlass: what each leaf GEMM ran on, counted as the products are issued.
    struct LeafGemmCount {
        std::atomic<int> cutlass{0}, fallback{0};  // the CPU executor may run queues on several threads
        std::string fallbackReason;  // the first one
    };
    LeafGemmCount* leafGemms = nullptr;
    // --check-leaves: each leaf's largest residual / threshold, filled by kStoreLeafChecks.
    std::vector<double>* leafResults = nullptr;
    // What each fault does to its cell, by its index (kInject's Operation::aux): a bit flip (model,
    // bit, bit2); a fault missing here adds its region's coefficient (the delta).
    std::vector<Injection> faults;
};

Inputs& inputsOf(const ExecutionRequest& request);
void checkInputs(const ExecutionRequest& request, const std::string& backendName);
// Inputs::faults for a run: --fault's bit flip (bits resolved for the precision, checked) for every
// fault without a delta of its own; deltas add. Throws InputError for a bit outside the element.
std::vector<Injection> faultActions(const StrassenConfig& config);
// What the kInject op does: its fault's bit flip, or adding the region's coefficient.
Injection injectionOf(const ExecutionRequest& request, const Operation& inject);

}  // namespace gigacheck::strassen
