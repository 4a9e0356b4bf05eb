// ABFT on a Strassen run (README "Fault tolerance"): the relation C = A*B holds whatever the
// algorithm did, so row and column checksums of C against checksums of A and B taken before
// stage 1 verify the final C; the same checksums of A and B, taken again after recovery, catch an
// operand corrupted inside the in-place stages. Host side, O(n^2) plus two matrix-vector products.
#pragma once

#include "families/strassen/run/leaf_rounding.hpp"

#include "gigacheck/schedule.hpp"
#include "gigacheck/strassen.hpp"

namespace gigacheck::strassen {

// Checksums of the operands before the run: row and column sums of A and B, A*(B e), e^T A * B,
// and what C's row and column thresholds are made of (cThresholds); the thresholds themselves
// follow C's own sums (thresholdsOverC) and are set at each verification.
struct OperandChecksums {
    std::vector<double> rowSumA, colSumA, rowSumB, colSumB;
    std::vector<double> rowAbsA, colAbsA, rowAbsB, colAbsB;
    std::vector<double> expectRow, expectCol;  // A (B e) and (e^T A) B
    // Per line, the sum of the squares of the products a_ik b_kj it sums (class-maxed over the
    // inner indices Strassen pairs), and a part added as is (TF32 leaves' operand rounding).
    std::vector<double> productRow, productCol, fixedRow, fixedCol;
    // Squared 2-norms of A's rows and B's columns: |C_ij| <= |a_i| |b_j| caps each cell's part
    // of its lines' thresholds, so that a faulty cell cannot raise them past any clean C.
    std::vector<double> rowNormA2, colNormB2;
    std::int64_t depth = 0, rows = 0, cols = 0;
    double uAccumulate = 0, sigmas = 0, growth = 1;  // sigmas 0: the fixed part only
    std::vector<double> thresholdRow, thresholdCol;  // of the last verification (thresholdsOverC)
    double sumFactor = 0;  // a check of sum S also allows sumFactor * |S| (abft.hpp)
};
// leaf: the TF32 leaves' rounding scales of the actual stage sums (leaf_rounding.hpp), or null.
OperandChecksums takeChecksums(const HostMatrix& a, const HostMatrix& b, const StrassenConfig& config, int levels,
                               const LeafRoundingScales* leaf = nullptr);

// Unit round-off of the leaves (the operands' rounding for TF32 leaves).
double leafRoundoff(Precision p, bool tf32);

// How much larger than a conventional product's the round-off of a Strassen C's line sums is at
// `levels` levels: each level combines seven products of sums of operand blocks, so the error grows
// by a constant factor per level: 3^L over the variance bound (f32 / f64, and TF32 leaves' FP32 part
// when their operands' rounding comes from the actual stage sums); 4^L over the conventional bound
// for the whole TF32 threshold when it cannot (the schedule's products not followed). Measured:
// resources/results/README.md.
double strassenGrowth(int levels, bool tf32);
// The same for one cell against the FP64 reference: 2^L, with TF32 leaves too, whose cell error
// is the rounding of the stage sums (measured: resources/results/README.md).
double referenceGrowth(int levels, bool tf32);

// What the thresholds of C's checks are made of, from the operands. The accumulation's part is
// abft.hpp varianceThreshold (V-ABFT: the round-off of the actual sums, the products' squares of
// each line and C's own squared cells, 0.75 lambda = 6 standard deviations at the default lambda)
// times strassenGrowth; Strassen mixes rows i, i + leafM, i + 2 leafM ... of the core (and
// columns j, j + leafQ ...), so a check takes the largest of its class. TF32 leaves with leaf
// scales: that FP32 part (growth 2^L) plus the rounding of the operands the leaves actually
// multiply, abft.hpp inputRoundingBound over leaf->rowQ / colQ. TF32 leaves whose stage sums the
// schedule does not let us follow: the conventional bound (abft.hpp thresholds()) times 4^L.
void cThresholds(const HostMatrix& a, const HostMatrix& b, const StrassenConfig& config, int levels,
                 OperandChecksums& sums, const LeafRoundingScales* leaf = nullptr);
// C's row and column thresholds from the parts above and C's squared cells per line (finite
// cells only: a NaN or Inf cell fails its own check through its residual). Each cell's square is
// capped at |a_i|^2 |b_j|^2 (Cauchy-Schwarz: no clean C exceeds it), so a huge fault raises its
// lines' thresholds -- and through the class maximum those of the lines Strassen mixes with them
// -- no further than a legitimate C could.
void thresholdsOverC(OperandChecksums& sums, const HostMatrix& c, int levels);

// The FP64 reference's verdict on C: per cell |C - C_ref| <= 2 * lambda * (u (n + 2) + 2 sqrt(2) u_in)
// * referenceGrowth * sqrt(sum_k a_ik^2 b_kj^2) + 4 u_in |C_ref| (abft.hpp cellTolerance; b_kj^2 the
// largest of its inner-index class, the sum the largest of the cell's row and column classes); NaN or
// Inf in C is beyond it. TF32 leaves with leaf->cellQ: the FP32 tolerance (growth 2^L) plus
// abft.hpp inputRoundingBound over the cell's own scale of the rounded stage sums (leaf_rounding.hpp),
// in place of the operands' rounding times 2^L over the class-maxed scale (kept when the
// schedule's products cannot be followed). With C's checks on, a cell beyond it takes the
// reference's value (repaired), so C ends right and the run says which cells the checks did not see.
// checksWeak (auto only): C's checks cannot see an error of kWeakCheckFraction of max |C| in one
// cell (checksTooWeak), so the reference runs past the auto size (2^34 multiply-adds) too: the
// only per-cell check of a whole C.
inline constexpr double kWeakCheckFraction = 0.01;
bool checksTooWeak(double detectionFloor, double maxAbsC);
// Host bytes the FP64 reference takes: A and B in FP64 twice (values and squares), C and each
// cell's scale in FP64.
double referenceHostBytes(const Shape& s);
// Why the reference cannot run in `availableBytes` of host memory ("" when it fits, or when the
// available memory is unknown: 0): with overcommit the allocation would be granted and the process
// killed when it touched the pages.
std::string referenceMemoryShortfall(const Shape& s, double availableBytes);
struct StrassenReference {
    bool ran = false, passed = true;
    std::string skipped;  // why a reference that was due did not run (referenceMemoryShortfall)
    std::int64_t mismatches = 0, nonFinite = 0;  // left beyond the tolerance; nonFinite: NaN / Inf cells
    std::int64_t repaired = 0;  // cells beyond it that took the reference's value (computed from A and B)
    double maxError = 0, maxRef = 0, worstRatio = 0;  // maxError over finite cells; worstRatio: max |C - C_ref| / tolerance
    double maxTolerance = 0;  // the largest per-cell tolerance: any one cell off by more is seen
};
StrassenReference checkAgainstReference(HostMatrix& c, const HostMatrix& originalA, const HostMatrix& originalB,
                                        const StrassenConfig& config, int levels, bool checksWeak = false,
                                        const LeafRoundingScales* leaf = nullptr);

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
// the checksums; corrects a single located cell by recomputing it from row i of A and column j of B
// (no cancellation against a huge fault), recomputes the rows
// (or columns) that disagree from the original operands otherwise, and verifies again. Returns
// false when errors remain.
// worstCleanRatio: the largest residual / threshold among the checks that passed on the first
// verification (how close round-off came to a false alarm).
// The smallest error of one cell that C's checks are sure to see: a cell (i, j) off by d shows in
// row i when d exceeds its threshold, in column j likewise; over every cell, the largest of the
// smaller of the two, i.e. min(largest row threshold, largest column threshold), the sum parts
// (sumFactor |expected sum|) included.
double cDetectionFloor(const OperandChecksums& sums);

bool verifyResult(HostMatrix& c, const HostMatrix& originalA, const HostMatrix& originalB, OperandChecksums& sums,
                  const StrassenConfig& config, int levels, const Suspects& suspects, std::vector<StrassenCheck>& checks,
                  double& worstCleanRatio);

}  // namespace gigacheck::strassen
