// Blocking under a device-memory cap (the Gigacheck report's section 5): splits, block sizes, buffers.
#pragma once

#include "gigacheck/schedule.hpp"
#include "gigacheck/types.hpp"

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace gigacheck {

// C is cut into splitM x splitQ blocks; the common dimension n into splitN steps (the seed's
// num_split_common_dim). Block (i, j, k) (BlockIndex, schedule.hpp) multiplies A(i, k) by B(k, j)
// into C(i, j). Buffers (BufferSpec, schedule.hpp): with ABFT on, A blocks carry one extra row
// (the column checksum c_A), B blocks one extra column (r_B) and C blocks both; Aux holds the
// small per-block vectors of the round-off bound and the control checksums.

struct Plan {
    Shape shape;
    Precision precision = Precision::F32;
    StrategyKind strategy = StrategyKind::S1;
    bool abft = true;
    std::uint64_t capBytes = 0;  // the memory cap the plan was made for
    int splitM = 1, splitN = 1, splitQ = 1;
    std::int64_t blockM = 0, blockN = 0, blockQ = 0;  // largest block extents (other blocks may be smaller)
    std::vector<BufferSpec> buffers;
    std::size_t bytesNeeded = 0;  // sum of buffers
    std::string explanation;       // one paragraph for reports and the GUI

    int blockCount() const { return splitM * splitQ; }
    // In 64 bits, as three int splits multiply past 2^31 (a run schedules at most
    // kMaxScheduleProducts; a record claiming more is refused when read). Splits of a hand-made
    // plan may even pass 2^63: the count then stops at INT64_MAX instead of wrapping.
    std::int64_t productCount() const
    {
        const std::int64_t blocks = std::int64_t(splitM) * splitQ;  // < 2^62
        if (splitN > 0 && blocks > std::numeric_limits<std::int64_t>::max() / splitN)
            return std::numeric_limits<std::int64_t>::max();
        return blocks * splitN;
    }
    // Extents and offsets of block i / j / k (the last block takes the remainder).
    std::int64_t rowsOf(int i) const;
    std::int64_t colsOf(int j) const;
    std::int64_t depthOf(int k) const;
    std::int64_t rowOffset(int i) const;
    std::int64_t colOffset(int j) const;
    std::int64_t depthOffset(int k) const;
    // The block row / column holding a row / column of C.
    int rowBlockOf(std::int64_t row) const;
    int colBlockOf(std::int64_t col) const;
    bool tapered() const { return !rowStarts.empty() || !colStarts.empty(); }

    // Unequal blocks (the planner's tapered ends): where each block row / column of C
    // starts (size splitM / splitQ, first 0, ascending, no block above blockM / blockQ). Empty:
    // equal blocks of blockM / blockQ, the last taking the remainder.
    std::vector<std::int64_t> rowStarts, colStarts;
};

// The plan with thinner first and last block rows (endRows > 0) and columns (endCols > 0): the
// first product's loads (fill) and the last block's store (drain) shrink; the blocks between
// are equal and no larger than the plan's, so the buffers and the cap stay as they are. Returns
// the plan unchanged along a dimension where the ends leave nothing between them or are not
// thinner than its blocks.
Plan withTaperedEnds(const Plan& plan, std::int64_t endRows, std::int64_t endCols);

// Chooses splits and block sizes so that the strategy's buffers fit in capBytes, preferring the
// fewest block products (largest blocks) and then the fewest bytes copied. Strategy None requires
// the whole problem to fit in one block. Throws InputError with a clear message (what was needed,
// what the cap allows) when nothing fits, or on a zero shape.
// gemm: the block products' GEMM (--gemm). Where it multiplies copies of the blocks (BF16 / FP16
// inputs, tf32x3) or leaves partial sums of C (kernels writing C's sums), each stream of products
// gets a workspace buffer for them, charged to the cap with the blocks (gemm/gemm_workspace.hpp).
Plan makePlan(const Shape& shape, Precision precision, StrategyKind strategy,
              std::uint64_t capBytes, bool abft, GemmVariant gemm = GemmVariant::Cublas);

// Bytes the strategy needs for the given block extents (the accounting makePlan uses).
std::size_t bytesForBlocks(StrategyKind strategy, Precision precision, bool abft,
                           std::int64_t blockM, std::int64_t blockN, std::int64_t blockQ,
                           GemmVariant gemm = GemmVariant::Cublas);

// Several devices (the cap is each device's): the C blocks are spread over `devices` devices in
// contiguous ranges of the row-major block order (S4: of its block pairs), the first ranges one
// block longer when they do not divide evenly. makePlan's plan is kept unless cutting the rows of C
// into `devices` strips first (a plan of the strip, its row blocks repeated down C) leaves the
// busiest device at least 5 % less work and no more block products: an in-core cap gives one
// block, which one device would do alone. devices <= 1: makePlan itself.
Plan makePlan(const Shape& shape, Precision precision, StrategyKind strategy, std::uint64_t capBytes, bool abft,
              int devices, GemmVariant gemm = GemmVariant::Cublas);
// The units a plan's C blocks are dealt out in (S4: pairs of blocks of one row), and the device
// that computes C block (i, j) over `devices` devices (contiguous ranges, as above).
int blockUnitCount(const Plan& plan);
int deviceOfBlock(const Plan& plan, int devices, int i, int j);

// The schedule of a plan with the plan beside it: the family's own data stays out of the
// family-neutral Schedule, yet every caller of buildSchedule still reads splits and extents.
// Its buffers and capBytes are the plan's.
struct GemmSchedule : Schedule {
    Plan plan;
};

// Builds the schedule of plan.strategy. Deterministic. Every ordering a backend must respect is
// an explicit dependency (stream numbers are only concurrency hints for the CUDA backend).
// withInjection: emit an Inject op after every block Product (a no-op when the FaultPlan has
// nothing for that product); runGemm passes FaultSpec::any(). The one-argument form emits them.
// With ABFT a Verify op follows every Product (and its Inject).
// A schedule holds ~7 operations per block product, ~1.2 KB with their deps (and a run keeps a
// span per operation): past this many products (~1.3 GB of schedule, plus spans) it would take
// gigabytes and a long wait before the first copy, so buildSchedule refuses such a plan
// (InputError: raise the memory cap).
inline constexpr std::int64_t kMaxScheduleProducts = std::int64_t(1) << 20;
GemmSchedule buildSchedule(const Plan& plan);
GemmSchedule buildSchedule(const Plan& plan, bool withInjection);
// The same over `devices` devices: each gets a copy of the plan's buffers (slots device * L + n,
// L = plan.buffers.size(), under the per-device cap), its C blocks (deviceOfBlock) built with the
// strategy as one device would, its own streams; the devices' ops are interleaved in issue order
// (each device's own order kept) so that no device waits for another's issue. devices = 1 is
// buildSchedule(plan, withInjection).
GemmSchedule buildSchedule(const Plan& plan, bool withInjection, int devices);

// validateOperations, then the blocked GEMM family's own invariants: queues match the kinds,
// every product is the next k step of its block, every C block is copied to the host exactly
// once, after its last product and verification; over several devices, every op works on buffers
// of its own device and all ops of a C block run on one device.
std::string validateSchedule(const GemmSchedule& schedule);

}  // namespace gigacheck
