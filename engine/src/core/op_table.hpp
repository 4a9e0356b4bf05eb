// How an executor finds what an operation does: each family provides a table from its op kinds
// to their implementations (CPU below, CUDA in core/cuda/op_table.hpp) and the names of its kinds.
// The executors look an op's implementation up here and never switch on a kind, so a family adds
// an op kind by adding a row to its own tables (README.md "Adding a family").
//
// The tables are plain objects that a family returns from a function, listed explicitly in
// families/families.cpp: no self-registration from static initializers (an object nobody
// references in a static library is dropped by the linker, and its registration with it).
#pragma once

#include "gigacheck/backend.hpp"

#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace gigacheck {

// What one operation produced besides its effect on the buffers; the executor stamps the times,
// appends them to the result and hands them to the observer (core/op_reporting.hpp).
struct OpOutcome {
    std::vector<InjectEvent> injections;
    std::optional<VerifyEvent> verification;
};

struct OpKindName {
    OpKind kind;
    std::string_view name;  // the stable name of records and the CLI ("copy-h2d", "product", ...)
    OpRole role = OpRole::Other;  // how the views draw it (gigacheck/schedule.hpp)
};

namespace cpu {

// Per-run data of a family's CPU implementations (blocked GEMM: the round-off bound accumulators
// of its Aux slots). Made by OpTable::makeState before the first op runs.
class RunState {
public:
    virtual ~RunState() = default;
};

struct OpContext {
    const ExecutionRequest& request;
    const Schedule& schedule;
    const std::vector<void*>& buffers;  // memory of each buffer slot, from the capped pool
    RunState* state = nullptr;          // the family's (null when it keeps none)
};

// Runs one operation to completion on the calling thread (the thread of the op's queue).
using OpFunction = void (*)(OpContext&, const Operation&, OpOutcome&);

struct OpEntry {
    OpKind kind;
    OpFunction run;
};

struct OpTable {
    std::unique_ptr<RunState> (*makeState)(const OpContext&) = nullptr;  // optional
    std::vector<OpEntry> ops;
    // nullptr when the family has no CPU implementation of this kind.
    OpFunction find(OpKind kind) const;
};

}  // namespace cpu

namespace cuda {
struct OpTable;  // core/cuda/op_table.hpp (CUDA builds only)
}

// One algorithm family as the executors and the record see it.
struct FamilyOps {
    std::string_view name;             // Schedule::family, the record's family section
    std::span<const OpKindName> kinds;  // names of its op kinds
    const cpu::OpTable* cpu = nullptr;
    const cuda::OpTable* cuda = nullptr;  // null in a build without CUDA
    // Refuses (BackendError, or InputError for a bad setting) request.inputs that its ops cannot
    // run with: missing, of another family, or not matching the schedule (blocked GEMM: the host
    // matrices against the plan's shape and precision). Called by checkExecutionRequest before any
    // memory is touched. Optional.
    void (*checkInputs)(const ExecutionRequest& request, const std::string& backendName) = nullptr;
};

// request.inputs as the family's own type; throws BackendError when they are missing or another's.
template <class Inputs> Inputs& familyInputs(const ExecutionRequest& request, std::string_view family)
{
    auto* inputs = dynamic_cast<Inputs*>(request.inputs);
    if (!inputs)
        throw BackendError("the request for family '" + std::string(family) + "' lacks its inputs");
    return *inputs;
}

// Every family of this build (families/families.cpp).
std::span<const FamilyOps* const> allFamilies();
// Throws BackendError when no family has that name.
const FamilyOps& familyOps(std::string_view name);
// The tables a request runs with: its own (tests) or those of its schedule's family.
const FamilyOps& familyOf(const ExecutionRequest& request);

}  // namespace gigacheck
