// What the strassen family's ops work on besides the device buffers (ExecutionRequest::inputs):
// the host matrices and the leaf settings. Checked by checkInputs before an executor touches memory.
#pragma once

#include "gigacheck/backend.hpp"

namespace gigacheck::strassen {

struct Inputs final : FamilyInputs {
    HostMatrix* a = nullptr;  // m x n, copied in, and back out after recovery
    HostMatrix* b = nullptr;  // n x q
    HostMatrix* c = nullptr;  // m x q: C += A*B
    Precision precision = Precision::F32;
    bool tf32 = false;         // TF32 tensor-core cuBLAS leaves
    bool multiTarget = false;  // the multi-target kernel for products with several targets (CUDA)
    // --check-leaves: each leaf's largest residual / threshold, filled by kStoreLeafChecks.
    std::vector<double>* leafResults = nullptr;
};

Inputs& inputsOf(const ExecutionRequest& request);
void checkInputs(const ExecutionRequest& request, const std::string& backendName);

}  // namespace gigacheck::strassen
