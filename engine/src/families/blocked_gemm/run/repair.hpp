// runGemm's repair step (abft README "Repair pass"); the pass itself is in gigacheck/blocked_gemm/repair.hpp.
#pragma once

#include "gigacheck/blocked_gemm/record.hpp"
#include "gigacheck/blocked_gemm/repair.hpp"

namespace gigacheck {

// After execution: runs the repair pass over the record's verifications (the arithmetic model of
// the run: TF32 for cublas-tf32 on CUDA), stores its events in record.repairs and adds one
// "recompute" span per event on the compute queue after the run (also reported to the observer).
// recompute: C blocks recomputed whole whatever their verifications said (operand copies that
// failed their entry check fed them).
void repairRun(RunRecord& record, const HostMatrix& a, const HostMatrix& b, HostMatrix& c, int scheduledOps,
               RunObserver* observer, const std::vector<BlockToRecompute>& recompute = {});

}  // namespace gigacheck
