// The online family's step-sums path on the GPU (README "C kept across the steps"): the whole
// product as one CUTLASS kernel that keeps C in registers across the steps and writes C's sums after
// each; every step's checksums made beside it; the checks screened a group of steps at a time.
#pragma once

#include "families/online_abft/cuda/op_state.hpp"

namespace gigacheck::online_abft::device_ops {

// Whether the run takes the step-sums kernel (stepSumsProduct, and steps of one depth).
bool takesStepSums(const gigacheck::cuda::OpContext& c);
// makeState's part: the steps' slots, the pass lane, the groups' events, the screen.
void setUpStepSums(State& state, const gigacheck::cuda::OpContext& c);
// A panel-product op: the first launches the kernel and the checksum passes.
void stepSumsProductOp(const gigacheck::cuda::OpContext& c, const Operation& op, cudaStream_t s);
// A check op (call: checkCallOf's).
void stepSumsCheck(const gigacheck::cuda::OpContext& c, const Operation& op, VerifyCall call, cudaStream_t s);

}  // namespace gigacheck::online_abft::device_ops
