// The decisions of the online ABFT family's checks, on the host, shared by both backends: the CPU
// ops call them on their buffers; the CUDA ops' host-checked path (K >= 2 weighted checksums or a
// fault in A / B, cuda/op_table.cpp) calls the same functions on host copies, fetched from the
// device only when the device-computed residuals flag something. One implementation: the verdicts
// of both backends come from the same code.
#pragma once

#include "families/online_abft/inputs.hpp"

#include "gigacheck/weighted_checksums.hpp"

#include <functional>

namespace gigacheck::online_abft {

// Per run: the round-off bound so far, what the encoding kept of the inputs (plain sums in double,
// against which a later fault in A or B is located), and how much of the inner dimension the
// panel products have consumed.
struct CheckState {
    BoundAccumulator plainBound;  // K = 1: the blocked family's bound, same thresholds
    WeightedBound weightedBound;  // K >= 2
    std::vector<double> rowSumsA, colSumsA, rowSumsB, colSumsB;
    std::int64_t consumed = 0;
    void reset(const Shape& s, int k);  // bounds sized for the augmented block, sums cleared
};

// Plain row and column sums of a rows x cols matrix in double, row by row and each line summed in
// index order (s += x), so that two calls on the same values give the same bits: any difference is
// a changed element. The device's input sums (cuda/weighted_sums.cu) use exactly this order.
template <class T>
void plainSums(const T* x, std::int64_t rows, std::int64_t cols, std::int64_t ld, std::vector<double>& rowSums,
               std::vector<double>& colSums);

// Compares an input's sums with those kept when it was known good; locates single or collinear
// changed elements (row i, column j: the difference of column j's sum, or of row i's) and restores
// them.
struct Located {
    std::int64_t row, col;
    double delta;
};
struct OperandComparison {
    bool changed = false;  // a sum differed
    // Sums differed on one axis only, each by no more than the round-off of its line's sum
    // (operandSumThreshold with the double sums' unit round-off): an element moved in its last bits
    // and the other axis's sums absorbed it. Not locatable, and too small to change C beyond the
    // checks' threshold. A larger one-axis difference stays unlocatable (the run is not verified).
    bool belowRoundoff = false;
    std::vector<Located> located;  // restored elements with their deltas
    bool unlocatable() const { return changed && located.empty() && !belowRoundoff; }
};
template <class T>
OperandComparison locateAndRestore(T* x, std::int64_t rows, std::int64_t cols, std::int64_t ld,
                                   const std::vector<double>& goodRows, const std::vector<double>& goodCols);

// At encoding: an input as it arrived against its sums taken where it was made. A difference is an
// input corrupted before its checksums (it would otherwise give a self-consistent, wrong C): it is
// located, restored and reported (in.inputFaults). Returns the restored elements.
template <class T>
std::vector<Located> checkInputAtEncoding(OnlineInputs& in, T* x, std::int64_t rows, std::int64_t cols, std::int64_t ld,
                                          OnlineTarget operand, const std::vector<double>& goodRows,
                                          const std::vector<double>& goodCols);

// The thresholds of a check of the augmented block after st.consumed steps of depth: K = 1 those of
// the blocked family (thresholds(), FP32 / FP64), K >= 2 weightedThresholds.
Thresholds checkThresholds(const OnlineInputs& in, const CheckState& st);
// False when a threshold overflowed (Inf or NaN): such a check passes whatever C holds.
bool thresholdsFinite(const Thresholds& t);

// The operands of a check on the host. C_f is always there; A_c and B_r are asked for only when
// the check suspects an input fault (the CUDA path copies them from the device then).
template <class T> struct HostOperands {
    T* c = nullptr;
    std::int64_t ldc = 0;
    std::function<T*()> a, b;  // A_c ((m + K) x n), B_r (n x (q + K) at least)
    std::int64_t lda = 0, ldb = 0;
};

// One check of C_f with the host reference (verifyAndCorrect for K = 1, verifyWeighted for K >= 2),
// then, when a whole line of C is off, its cause looked for in the inputs (a fault in A after its
// checksums: result columns only mismatch; B: rows only), located against the encoding's sums,
// restored there and taken out of C (the line recomputed), and the check run again. Appends input
// fault reports to in.inputFaults. What the CPU check op does, and the CUDA check when flagged.
template <class T> VerifyResult checkOnHost(OnlineInputs& in, CheckState& st, HostOperands<T>& ops, int step);

// The verdict of a check whose K weighted residuals per line the device computed (row i, sum s at
// rowRes[i * k + s]; column j at colRes[j * k + s]), with the rule of verifyWeighted /
// verifyAndCorrect (FP32 / FP64): a line mismatches when one of its residuals exceeds its
// threshold or is not a number. Clean: the result (max clean ratio, thresholds) as the host
// verifier gives it; otherwise the lines that mismatch (the host verifier then decides on C).
struct ResidualVerdict {
    bool clean = true;
    std::vector<std::int64_t> badRows, badCols;
    VerifyResult result;  // verdict Clean, maxCleanResidualRatio, min / max threshold
};
ResidualVerdict classifyResiduals(const std::vector<double>& rowRes, const std::vector<double>& colRes, int k,
                                  const Thresholds& t);

}  // namespace gigacheck::online_abft
