// Which buffers each strategy needs and what each costs: the single source of the cap accounting.
#pragma once

#include "gigacheck/blocked_gemm/plan.hpp"

namespace gigacheck {

// Leading dimensions are padded to a multiple of this many elements (aligned rows for the
// kernels); the padding is charged to the cap.
inline constexpr std::int64_t kLeadingDimensionPad = 32;

// Number of A, B and C buffers of a strategy (each C buffer gets one Aux buffer with ABFT):
//   none, s1: A B C    s2: A A' B B' C    s3: A A' B B' C C'    s4: A B B' C C'
struct BufferCounts {
    int a = 1, b = 1, c = 1;
};
BufferCounts bufferCounts(StrategyKind strategy);

// With ABFT, B's leading dimension leaves room for one column after r_B: the 2-norms of B's rows,
// which the CUDA backend computes in the checksum pass over B and keeps with the block, since every
// block product that uses the B block needs them for its round-off bound (the CPU backend leaves
// the column unused). Not part of the block's extent (cols), but charged to the cap.
inline constexpr std::int64_t kBNormRoom = 1;

struct BufferSizes {
    BufferSpec a, b, c, aux;
};
// Augmented extents with ABFT: A (bm+1) x bn, B bn x (bq+1) (ld >= bq+2), C (bm+1) x (bq+1). Aux holds four
// vectors of doubles (row and column bound scales, row and column control checksums).
BufferSizes bufferSizes(Precision precision, bool abft, std::int64_t blockM, std::int64_t blockN,
                        std::int64_t blockQ);

// The buffers in slot order: A buffers, then B buffers, then C buffers, then Aux buffers (aux of
// C buffer c is slot auxBase + c).
std::vector<BufferSpec> bufferLayout(StrategyKind strategy, Precision precision, bool abft,
                                     std::int64_t blockM, std::int64_t blockN, std::int64_t blockQ);

}  // namespace gigacheck
