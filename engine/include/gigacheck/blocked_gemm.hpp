// The blocked GEMM family's public API in one include (the Gigacheck report; engine/src/families/blocked_gemm/).
// Its headers keep their names beside the shared ones, so that code written against them is
// unchanged:
//   shared by every family: types.hpp, matrix.hpp, schedule.hpp, events.hpp, backend.hpp,
//                           record_envelope.hpp, bench.hpp (devices, ceilings)
//   blocked GEMM's:         plan.hpp (splits under the cap, S1-S4, GemmSchedule), faults.hpp,
//                           abft.hpp, run.hpp (runGemm), record.hpp (RunRecord: config, plan,
//                           fault report, reference), and Inputs below
#pragma once

#include "gigacheck/abft.hpp"
#include "gigacheck/backend.hpp"
#include "gigacheck/faults.hpp"
#include "gigacheck/blocked_gemm/operand_checks.hpp"
#include "gigacheck/blocked_gemm/plan.hpp"
#include "gigacheck/blocked_gemm/record.hpp"
#include "gigacheck/blocked_gemm/run.hpp"

namespace gigacheck::blocked_gemm {

// What the family's ops work on (ExecutionRequest::inputs): the host matrices, the fault plan,
// the GEMM settings and the plan the schedule was built from. Checked against the plan by the
// family's checkInputs before an executor touches memory.
struct Inputs final : FamilyInputs {
    Plan plan;                    // the schedule's (its buffers, extents, precision)
    HostMatrix* a = nullptr;      // m x n
    HostMatrix* b = nullptr;      // n x q
    HostMatrix* c = nullptr;      // m x q, written block by block
    FaultPlan* faults = nullptr;  // may be null; injections get before/after/applied filled in
    GemmVariant gemm = GemmVariant::Cublas;
    int tile = 32;
    double thresholdLambda = 4.0;
    H2dStaging h2dStaging = H2dStaging::Auto;  // CUDA: which block loads are packed on the host first
    // End-to-end operand checks (gigacheck/blocked_gemm/operand_checks.hpp): the checksums A and B had where
    // they entered, and the log the Checksum ops add each copy's comparison to; null: none.
    const EntryChecksums* entry = nullptr;
    OperandCheckLog* operandLog = nullptr;
};

}  // namespace gigacheck::blocked_gemm
