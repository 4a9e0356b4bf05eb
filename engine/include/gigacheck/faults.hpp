// Fault specification (what the user asks for) and the concrete injections it expands to.
// Seed 000 section 4.3, extended: explicit positions, bit flips, checksum targets, block choice.
#pragma once

#include "gigacheck/schedule.hpp"
#include "gigacheck/types.hpp"

#include <optional>
#include <vector>

namespace gigacheck {

enum class FaultModel { Delta, BitFlip };
// Result: inside the m x q product block. ChecksumRow: the extra row of C (c_A B).
// ChecksumCol: the extra column of C (A r_B).
// The checker's own faults (CPU backend; gigacheck/fault_models.hpp): Check, one row / column
// check of the verification pass lies (reports a mismatch over a clean line: a corrupted residual
// or threshold); Correction, the value a correction writes is hit (with a fault in the cell that
// makes the correction); EncodingA / EncodingB, the checksum kernel's output (an entry of c_A / r_B)
// is hit after encoding.
enum class FaultTarget { Result, ChecksumRow, ChecksumCol, Check, Correction, EncodingA, EncodingB };
// How far one fault reaches: one cell; a segment of one row or one column of a block (a warp's
// worth: 32 cells by default); a square tile of cells (a tile's worth) -- clipped to the block.
enum class FaultExtent { Cell, RowSegment, ColSegment, Tile };
enum class Collinearity { Scattered, Row, Col };
// Which block products receive the random faults: one chosen from the seed, or every one.
enum class FaultScope { OneProduct, EveryProduct };

// Name tables (names.hpp); the labels are what the GUI lists.
template <> const EnumTable<FaultModel>& enumTable<FaultModel>();
template <> const EnumTable<FaultTarget>& enumTable<FaultTarget>();
template <> const EnumTable<Collinearity>& enumTable<Collinearity>();  // also reads "scattered", "column"
template <> const EnumTable<FaultScope>& enumTable<FaultScope>();
template <> const EnumTable<FaultExtent>& enumTable<FaultExtent>();  // "cell", "row", "col", "tile"

std::string_view toString(FaultModel);
std::string_view toString(FaultTarget);
std::string_view toString(Collinearity);
std::string_view toString(FaultScope);
FaultTarget faultTargetFromString(std::string_view);
Collinearity collinearityFromString(std::string_view);  // "row", "col", "none"
FaultScope faultScopeFromString(std::string_view);      // "one", "every"

// An explicit fault in global C coordinates (the GUI heatmap feeds these). Injected in the last
// k step of the block that holds it unless step is given.
struct FaultAt {
    std::int64_t row = 0, col = 0;
    std::optional<double> delta;  // default: a random delta as for count faults
    std::optional<int> step;      // k step of the block product; default: the last
    bool operator==(const FaultAt&) const = default;
};

struct FaultSpec {
    int count = 0;  // random faults per chosen block product
    Collinearity collinear = Collinearity::Scattered;
    std::vector<FaultAt> at;
    FaultModel model = FaultModel::Delta;
    int bit = -1;  // bit to flip; -1: the most significant exponent bit (30 for FP32, 62 for FP64)
    FaultTarget target = FaultTarget::Result;
    FaultScope scope = FaultScope::OneProduct;
    FaultExtent extent = FaultExtent::Cell;  // each fault's reach (random and --inject-at ones)
    int extentLength = 32;                   // segment length / tile side
    int bit2 = -1;                           // bit flips: a second bit of the same word (-1: none)
    std::uint64_t seed = 1;
    bool any() const { return count > 0 || !at.empty(); }
};

// One concrete corruption of one element of an augmented C block.
struct Injection {
    BlockIndex block;
    std::int64_t localRow = 0, localCol = 0;  // in the augmented block; == rows / cols: checksum
    std::int64_t globalRow = -1, globalCol = -1;  // in C; -1 on a checksum row/column
    FaultTarget target = FaultTarget::Result;
    FaultModel model = FaultModel::Delta;
    double delta = 0;  // Delta model
    int bit = 0;       // BitFlip model
    int bit2 = -1;     // BitFlip model: a second bit of the same word, -1 for none
    // Filled by the backend when applied:
    double before = 0, after = 0;
    bool applied = false;
};

struct FaultPlan {
    std::vector<Injection> injections;  // sorted by block product (i, j, k) order of the schedule
    // Indices into injections for one block product (empty when none).
    std::vector<std::size_t> forBlock(const BlockIndex& b) const;
};

// A blocked GEMM plan's injections for a spec: planFaults (gigacheck/blocked_gemm/plan_faults.hpp).

// What became of a run's injections and how its checks ended (a run record's fault report; every
// family's campaign run counts its faults in it).
struct FaultReport {
    int injected = 0;
    int detected = 0;        // injections whose row or column check mismatched
    int corrected = 0;       // injections whose cell was restored
    // injections not corrected by their verification whose block the repair pass made right by
    // recomputing rows / columns / the block from A and B
    int correctedByRecompute = 0;
    int uncorrectable = 0;   // injections in blocks left wrong (uncorrectable verdict, repair failed)
    int belowThreshold = 0;  // injections too small to detect (harmless round-off-sized flips)
    int missed = 0;          // injections above the threshold that no check caught (silent errors)
    int falsePositives = 0;  // mismatches in blocks with no injection, or corrections of clean cells
    int blocksClean = 0, blocksCorrected = 0, blocksUncorrectable = 0;
    double maxThreshold = 0;
    double maxCleanResidualRatio = 0;  // largest clean residual / its threshold (< 1 means no alarm)
};

// Applies one injection to a value (delta or bit flip in the stored precision).
double applyFault(const Injection& inj, double value, Precision p);

}  // namespace gigacheck
