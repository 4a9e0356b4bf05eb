// The CUDA side of a family's op table (see core/op_table.hpp): how each op kind is issued onto a
// CUDA stream and what is read back once its "done" event has passed. The executor
// (cuda_backend.cpp) owns the buffers, streams, events, dependencies and the reporting thread;
// the family owns whatever else its kernels need for a run (library handles, side streams,
// pinned result slots) in its RunState.
#pragma once

#include "core/op_table.hpp"

#include <cuda_runtime.h>

namespace gigacheck::cuda {

class RunState {
public:
    virtual ~RunState() = default;
};

struct OpContext {
    const ExecutionRequest& request;
    const Schedule& schedule;
    const std::vector<void*>& buffers;  // device memory of each buffer slot
    int lanes = 1;                      // schedule streams (each has an H2D, compute and D2H CUDA stream)
    RunState* state = nullptr;          // the family's (null when it keeps none)
};

// Enqueues the op on stream s (after its dependencies; before its "done" event). Must not block.
using IssueFunction = void (*)(const OpContext&, const Operation&, cudaStream_t s);
// Runs on the reporting thread once the op's "done" event has passed: fills the outcome (results
// from pinned memory) and may adjust the span's counted flops and bytes. Optional.
using ReportFunction = void (*)(const OpContext&, const Operation&, Span&, OpOutcome&);

struct OpEntry {
    OpKind kind;
    IssueFunction issue;
    ReportFunction report = nullptr;
};

struct OpTable {
    // Called with the device current, after the buffers and streams exist and before any op is
    // issued; throws BackendError. Optional.
    std::unique_ptr<RunState> (*makeState)(const OpContext&) = nullptr;
    // Refuses request settings only the CUDA implementation has limits for (blocked GEMM: the
    // tiled kernel's tile side), before anything is allocated. Optional.
    void (*checkInputs)(const ExecutionRequest&) = nullptr;
    // One-time untimed loading of the family's kernels on a device (see the family's warm_up.hpp),
    // and forgetting it after a device reset. Optional.
    void (*warmUp)(int device) = nullptr;
    void (*forgetWarmUp)() = nullptr;
    std::vector<OpEntry> ops;
    const OpEntry* find(OpKind kind) const;
};

}  // namespace gigacheck::cuda
