// End-to-end operand checks of the blocked GEMM: checksums of A and B taken on the host where the
// data entered the program (generated, or read by --load-a / --load-b), before anything else
// touches it. Every device copy of an operand block is compared with them when it is encoded
// (before the product, on the CPU and the CUDA backend alike); when one differs, the host copy
// is checked too, a corrupted host element is put back from the entry sums, and the C blocks the copy fed are recomputed (repair pass).
// An operand corrupted after it entered the program -- in the host matrix, in transit, in device
// memory before its checksums -- is then repaired instead of multiplied. What they cannot see:
// data that was already wrong when it entered (the entry checksums describe it as it came).
#pragma once

#include "gigacheck/abft.hpp"
#include "gigacheck/matrix.hpp"
#include "gigacheck/blocked_gemm/plan.hpp"

#include <cstdint>
#include <mutex>
#include <utility>
#include <vector>

namespace gigacheck {

// The threshold of each line: operandSumThreshold (abft.hpp).

// The sum of n contiguous values in double, in four interleaved partial sums (a row sum is a
// dependency chain otherwise); the entry checksums and the host re-check use it alike, so a row
// re-summed from unchanged values gives the entry's sum bit for bit.
template <class T> double lineSum(const T* p, std::int64_t n)
{
    double s0 = 0, s1 = 0, s2 = 0, s3 = 0;
    std::int64_t i = 0;
    for (; i + 4 <= n; i += 4) {
        s0 += double(p[i]);
        s1 += double(p[i + 1]);
        s2 += double(p[i + 2]);
        s3 += double(p[i + 3]);
    }
    for (; i < n; ++i)
        s0 += double(p[i]);
    return (s0 + s1) + (s2 + s3);
}

// Sums of the lines of one operand block and their sums of squares (the threshold's scale).
struct LineSums {
    std::vector<double> sum, squares;
};

// The entry checksums in the plan's blocking (a few vectors: O(m n + n q) to take, (m + q)(1 +
// splits) doubles to keep):
//   A block (i, k): aColumns[i] holds, for every column of A, its sum over row block i (c_A, what
//                   the encoding of A(i, k) computes); aRows[k], for every row, its sum over depth block k.
//   B block (k, j): bRows[j] holds, for every row of B, its sum over column block j (r_B);
//                   bColumns[k], for every column, its sum over depth block k.
struct EntryChecksums {
    Plan plan;  // the blocking the sums follow
    std::vector<LineSums> aColumns, aRows, bRows, bColumns;
    double seconds = 0;  // time taken on the host
};
EntryChecksums takeEntryChecksums(const HostMatrix& a, const HostMatrix& b, const Plan& plan);

// An operand block copy whose encoding sums differed from the entry checksums.
struct OperandMismatch {
    char operand = 'a';                // 'a' (A block (i, k)) or 'b' (B block (k, j))
    int blockRow = 0, blockCol = 0;    // A: (i, k); B: (k, j)
    BlockIndex product;                // the block product the copy was loaded for
    std::vector<std::int64_t> lines;   // its mismatching columns (A) / rows (B), local to the block
    double maxResidualRatio = 0;       // largest |copy sum - entry sum| / threshold
};

// What the operand checks of one run saw and did (RunRecord::operandChecks).
struct OperandCheckReport {
    bool ran = false;               // the backend compared its copies with the entry checksums
    std::int64_t copiesChecked = 0; // operand block copies compared
    double maxCleanRatio = 0;       // largest residual / threshold of a copy that matched
    std::vector<OperandMismatch> mismatches;
    std::int64_t hostElementsRestored = 0;  // host operand elements put back from the entry sums
    // Host operand blocks found wrong that the entry sums could not locate (several elements off
    // their rows and columns, or one seen on one axis only): the run cannot be repaired (exit 1).
    std::int64_t hostBlocksUnrestorable = 0;
    double entrySeconds = 0;  // taking the entry checksums
};

// Shared between the ops of a run (any queue thread) and runGemm.
struct OperandCheckLog {
    std::mutex mutex;
    OperandCheckReport report;
    void add(OperandMismatch m, double cleanRatio);  // cleanRatio: of the lines that matched
    void addClean(double cleanRatio);
};

// Compares the sums of one operand block copy (A: its column sums, B: its row sums, taken in
// double over the copy as it arrived) with the entry checksums. block: the copy, rows x cols in
// row-major storage with leading dimension ld; (blockRow, blockCol): A (i, k) or B (k, j).
// Threshold per line: operandSumThreshold (abft) with the unit round-off of the precision.
template <class T>
OperandMismatch compareWithEntry(const EntryChecksums& entry, char operand, int blockRow, int blockCol, const T* block,
                                 std::int64_t ld, double lambda, double* cleanRatio);

// The same comparison for line sums taken elsewhere (the CUDA backend sums its device copies in
// double, into pinned memory): copySums holds one sum per column (A) or row (B) of the block.
OperandMismatch compareSumsWithEntry(const EntryChecksums& entry, char operand, int blockRow, int blockCol,
                                     const double* copySums, double lambda, double* cleanRatio);

// After the run (before the repair pass): the host blocks behind the mismatching copies are
// checked against the entry sums and a wrong element is restored (one per block line, located by
// its row and column sums); returns the C blocks to recompute (every C block that a mismatching
// A block's row strip or B block's column strip holds).
std::vector<std::pair<int, int>> repairOperands(const EntryChecksums& entry, HostMatrix& a, HostMatrix& b,
                                                OperandCheckReport& report, double lambda);

}  // namespace gigacheck
