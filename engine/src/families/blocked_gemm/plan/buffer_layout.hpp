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

// The streams a strategy runs its block products on (none, s1: stream 0; s2-s4: streams 0 and 1,
// strategies.cpp): each has its own GEMM workspace, as two products on two streams may overlap.
int productStreamsOf(StrategyKind strategy);

// The GEMM workspace of one product stream (gemm/gemm_workspace.hpp), for blocks of at most
// bm x bn x bq (augmented with ABFT): the operand copies first, then C's row-sum partials, each
// part 256-byte aligned. Empty (0 bytes) for a GEMM that takes nothing beside the blocks.
struct GemmWorkspaceParts {
    std::size_t operandCopies = 0, rowSumPartials = 0;
    std::size_t bytes() const;  // saturating
};
GemmWorkspaceParts gemmWorkspaceParts(GemmVariant gemm, Precision precision, bool abft, std::int64_t blockM,
                                      std::int64_t blockN, std::int64_t blockQ);

// The sentence the plan texts add after "N buffers use X of the cap." where the buffers hold GEMM
// workspaces (" 2 x 12.6 MB of them are the GEMM's workspaces, ..."); empty where they hold none.
std::string workspaceSentence(const std::vector<BufferSpec>& buffers);

struct BufferSizes {
    BufferSpec a, b, c, aux, workspace;  // workspace.bytes 0: none
};
// Augmented extents with ABFT: A (bm+1) x bn, B bn x (bq+1) (ld >= bq+2), C (bm+1) x (bq+1). Aux holds four
// vectors of doubles (row and column bound scales, row and column control checksums).
BufferSizes bufferSizes(Precision precision, bool abft, std::int64_t blockM, std::int64_t blockN,
                        std::int64_t blockQ, GemmVariant gemm = GemmVariant::Cublas);

// The buffers in slot order: A buffers, then B buffers, then C buffers, then Aux buffers (aux of
// C buffer c is slot auxBase + c), then one GEMM workspace per product stream where `gemm` takes one
// (the workspace of stream s is the s-th).
std::vector<BufferSpec> bufferLayout(StrategyKind strategy, Precision precision, bool abft,
                                     std::int64_t blockM, std::int64_t blockN, std::int64_t blockQ,
                                     GemmVariant gemm = GemmVariant::Cublas);

}  // namespace gigacheck
