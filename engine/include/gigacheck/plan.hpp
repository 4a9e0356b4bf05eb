// Blocking under a device-memory cap (seed 000 section 5): splits, block sizes, buffers.
#pragma once

#include "gigacheck/types.hpp"

#include <string>
#include <vector>

namespace gigacheck {

// C is cut into splitM x splitQ blocks; the common dimension n into splitN steps (the seed's
// num_split_common_dim). Block (i, j, k) multiplies A(i, k) by B(k, j) into C(i, j).
struct BlockIndex {
    int i = 0, j = 0, k = 0;
    bool operator==(const BlockIndex&) const = default;
};

enum class BufferRole { A, B, C, Aux };

// One device (or emulated) buffer. With ABFT on, A blocks carry one extra row (the column
// checksum c_A), B blocks one extra column (r_B) and C blocks both; Aux holds the small per-block
// vectors of the round-off bound and the control checksums.
struct BufferSpec {
    std::string name;  // "A", "A'", "B", "B'", "C", "C'", "auxC", ...
    BufferRole role = BufferRole::A;
    std::int64_t rows = 0, cols = 0;  // capacity in elements, augmentation included
    std::int64_t ld = 0;              // leading dimension (elements), >= cols
    std::size_t bytes = 0;            // rows * ld * elementSize, what the cap is charged
};

struct Plan {
    Shape shape;
    Precision precision = Precision::F32;
    StrategyKind strategy = StrategyKind::S1;
    bool abft = true;
    std::uint64_t capBytes = 0;  // the memory cap the plan was made for
    int splitM = 1, splitN = 1, splitQ = 1;
    std::int64_t blockM = 0, blockN = 0, blockQ = 0;  // largest block extents (edge blocks are smaller)
    std::vector<BufferSpec> buffers;
    std::size_t bytesNeeded = 0;  // sum of buffers
    std::string explanation;       // one paragraph for reports and the GUI

    int blockCount() const { return splitM * splitQ; }
    int productCount() const { return splitM * splitQ * splitN; }
    // Extents and offsets of block i / j / k (the last block takes the remainder).
    std::int64_t rowsOf(int i) const;
    std::int64_t colsOf(int j) const;
    std::int64_t depthOf(int k) const;
    std::int64_t rowOffset(int i) const;
    std::int64_t colOffset(int j) const;
    std::int64_t depthOffset(int k) const;
};

// Chooses splits and block sizes so that the strategy's buffers fit in capBytes, preferring the
// fewest block products (largest blocks) and then the fewest bytes copied. Strategy None requires
// the whole problem to fit in one block. Throws InputError with a clear message (what was needed,
// what the cap allows) when nothing fits, or on a zero shape.
Plan makePlan(const Shape& shape, Precision precision, StrategyKind strategy,
              std::uint64_t capBytes, bool abft);

// Bytes the strategy needs for the given block extents (the accounting makePlan uses).
std::size_t bytesForBlocks(StrategyKind strategy, Precision precision, bool abft,
                           std::int64_t blockM, std::int64_t blockN, std::int64_t blockQ);

}  // namespace gigacheck
