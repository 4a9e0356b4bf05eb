// The blocked GEMM family (the Gigacheck report) as the executors see it: its op kinds, their names and the
// tables of their CPU and CUDA implementations. Adding an op kind to the family touches this
// folder only (README.md "Adding a family").
#pragma once

#include "core/op_table.hpp"
#include "gigacheck/blocked_gemm.hpp"

namespace gigacheck::blocked_gemm {

inline constexpr std::string_view kFamilyName = "blocked_gemm";

// Its kinds are the seven OpKind values named in gigacheck/schedule.hpp, CopyH2D .. Recompute
// (records, the timeline and the roofline have always named them there).
std::span<const OpKindName> opKindNames();

const cpu::OpTable& cpuOps();    // cpu/op_table.cpp
const cuda::OpTable& cudaOps();  // cuda/op_table.cpp (CUDA builds only)

const FamilyOps& family();  // ops.cpp

// request.inputs as the family's Inputs (inputs.cpp); throws BackendError when they are not.
Inputs& inputsOf(const ExecutionRequest& request);
// FamilyOps::checkInputs: the matrices exist and match the plan's shape and precision.
void checkInputs(const ExecutionRequest& request, const std::string& backendName);

}  // namespace gigacheck::blocked_gemm
