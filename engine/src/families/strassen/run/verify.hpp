// ABFT on a Strassen run (README "Fault tolerance"): the relation C = A*B holds whatever the
// algorithm did, so row and column checksums of C against checksums of A and B taken before
// stage 1 verify the final C; the same checksums of A and B, taken again after recovery, catch an
// operand corrupted inside the in-place stages. Host side, O(n^2) plus two matrix-vector products.
#pragma once

#include "gigacheck/schedule.hpp"
#include "gigacheck/strassen.hpp"

namespace gigacheck::strassen {

// Checksums of the operands before the run: row and column sums of A and B, and A*(B e), e^T A * B
// with their magnitudes (|A| (|B| e)) for the round-off threshold.
struct OperandChecksums {
    std::vector<double> rowSumA, colSumA, rowSumB, colSumB;
    std::vector<double> rowAbsA, colAbsA, rowAbsB, colAbsB;
    std::vector<double> expectRow, expectCol;  // A (B e) and (e^T A) B
    std::vector<double> boundRow, boundCol;    // |A| (|B| e) and (e^T |A|) |B|
};
OperandChecksums takeChecksums(const HostMatrix& a, const HostMatrix& b);

// Unit round-off of the leaves and the growth factor of the error with the levels.
double leafRoundoff(Precision p, bool tf32);
double strassenGrowth(std::int64_t n, int levels);

// Rows and columns of C that used a corrupted operand element: a fault at A(i, k) reaches, through
// the in-place sums and the recursion, only the C rows at the same offset i mod leafM inside each
// leaf tile (and row i itself, in the peeled fringe); B(k, j) likewise the columns j mod leafQ.
struct Suspects {
    std::vector<std::int64_t> rows, cols;
};

// Compares the operands after the run with their checksums; a mismatching (row, col) pair is an
// operand corrupted during the run, put back from the host copy (original). Appends its checks and
// returns the C rows and columns it may have corrupted.
Suspects verifyOperands(HostMatrix& a, HostMatrix& b, const HostMatrix& originalA, const HostMatrix& originalB,
                    const OperandChecksums& sums, const StrassenConfig& config, int levels,
                    std::vector<StrassenCheck>& checks);

// Repair from a caught leaf (--check-leaves): each leaf over its threshold whose column code names
// one column c of its C blocks (leaf_check.hpp) has its error in the columns of C it can reach --
// a core leaf's, moved by the C-block sums that follow it, only to the columns at the same place
// in the core's other leaf-wide blocks; a fringe leaf's stays at its own column. Those columns are
// recomputed from the original operands (one "recomputed" check per leaf), so that C's own checks
// then see the product right even where the error was under C's threshold. leafResults: the
// leaves' ratios, then their column codes. Leaves with several columns off are left unrepaired.
struct LeafRepair {
    std::vector<int> repaired, unrepaired;  // leaf numbers
    std::int64_t columns = 0;               // columns of C recomputed
};
LeafRepair repairFromLeaves(HostMatrix& c, const HostMatrix& originalA, const HostMatrix& originalB,
                            const Schedule& schedule, OpKind leafVerify, const std::vector<double>& leafResults,
                            const Shape& shape, int levels, std::vector<StrassenCheck>& checks);

// Recomputes the suspect rows and columns of C from the original operands, then verifies C against
// the checksums; corrects a single cell from its residual, recomputes the rows
// (or columns) that disagree from the original operands otherwise, and verifies again. Returns
// false when errors remain.
bool verifyResult(HostMatrix& c, const HostMatrix& originalA, const HostMatrix& originalB, const OperandChecksums& sums,
                  const StrassenConfig& config, int levels, const Suspects& suspects, std::vector<StrassenCheck>& checks);

}  // namespace gigacheck::strassen
