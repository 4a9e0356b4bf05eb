// What each operation kind does to the buffers on the CPU (one function per kind). The queue
// threads in cpu_backend.cpp decide when; these decide what.
#pragma once

#include "gigacheck/backend.hpp"
#include "gigacheck/blocked_gemm/operand_checks.hpp"
#include "gigacheck/blocked_gemm/plan.hpp"

namespace gigacheck::cpu {

// Buffers of one run: memory from the pool, its spec, and the bound accumulator of Aux slots.
struct Buffers {
    std::vector<void*> data;
    std::vector<BoundAccumulator> bounds;  // used for Aux slots only
};

template <class T> void copyToDevice(const Operation& op, const Plan& plan, Buffers& bufs,
                                     const HostMatrix& a, const HostMatrix& b);
template <class T> void copyToHost(const Operation& op, const Plan& plan, const Buffers& bufs, HostMatrix& c);
// input (FP32 under --gemm cublas-tf32 / -bf16 / -f16): the operand block is rounded to it first.
template <class T> void checksum(const Operation& op, const Plan& plan, Buffers& bufs, InputFormat input);
// End-to-end operand check: the copy in op.dst (an A or B block, as it arrived) against the
// checksums its operand had where it entered the program; the comparison goes to the log.
template <class T> void checkOperandCopy(const Operation& op, const Plan& plan, Buffers& bufs,
                                         const EntryChecksums& entry, OperandCheckLog& log, double lambda);
// C [+]= A * B over the augmented extents (OpenBLAS), and the round-off bound into aux.
// tf32x3 (FP32 only): the product emulated as three products of TF32 parts (gemm/tf32x3_host.hpp).
template <class T> void product(const Operation& op, const Plan& plan, Buffers& bufs, InputFormat input,
                                bool tf32x3 = false);
// Applies the fault plan's injections for this block product; returns the events (time unset).
template <class T> std::vector<InjectEvent> inject(const Operation& op, const Plan& plan, Buffers& bufs,
                                                   FaultPlan* faults);
// The checksum kernel's faults (targets encoding-a / encoding-b): an entry of the block's new
// c_A / r_B hit right after encoding; returns the events (time unset).
template <class T> std::vector<InjectEvent> injectEncoding(const Operation& op, const Plan& plan, Buffers& bufs,
                                                           FaultPlan* faults);
// Verification; the checker's own faults of this block product (targets check, correction) are
// applied in it and their events appended to `events`.
template <class T> VerifyEvent verify(const Operation& op, const Plan& plan, Buffers& bufs, double lambda,
                                      const RoundoffModel& model, FaultPlan* faults, std::vector<InjectEvent>& events);

}  // namespace gigacheck::cpu
