// TMR's element-wise majority on the device (the rule of vote_rule.hpp): replica 0 gets the
// majority value of each cell; the counts and the first cells without a majority go to a small
// device scratch and from there to pinned host memory.
#pragma once

#include "gigacheck/types.hpp"

#include <cuda_runtime.h>

namespace gigacheck::online_abft::cuda {

inline constexpr int kVoteListed = 1024;  // kMaxDisputedCells (the plan's "vote" buffer holds VoteOut)

struct VoteOut {
    unsigned long long outvoted, withoutMajority;
    unsigned int listed;
    // Disputed cells: the row-major index x of an outvoted cell, -(x + 1) of one without a majority.
    long long cells[kVoteListed];
};

// r0, r1, r2: count contiguous elements each; scratch: device memory of sizeof(VoteOut); hostOut
// pinned. FLOPs: none; bytes: 3 reads and one write of count elements.
void vote(Precision p, void* r0, const void* r1, const void* r2, std::int64_t count, VoteOut* scratch,
          VoteOut* hostOut, cudaStream_t s);

// Loads the vote's kernels (lazy module loading), untimed: the family's warm-up.
void loadVoteKernels();

}  // namespace gigacheck::online_abft::cuda
