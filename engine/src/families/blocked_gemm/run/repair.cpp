// The repair pass after a run (abft README "Repair pass"). The device may have left a block
// uncorrectable (a mismatch on one axis it could not locate, non-collinear faults) or corrected a
// cell from a checksum difference, which is only as accurate as that checksum (TF32: a whole row
// of TF32 products). On the host, which holds all of A and B whatever the backend:
//   1. every cell a verification corrected is recomputed as one dot product over the full inner
//      dimension (as accurate as an untouched cell, in every precision);
//   2. the block is re-checked against checksums taken from A and B;
//   3. if that mismatches, the mismatching rows and columns (or the whole block, when cheaper or
//      when that did not suffice) are recomputed from A and B and the block is re-checked again.
#include "families/blocked_gemm/run/repair.hpp"

#include "core/parallel_for.hpp"

#include "gigacheck/input_rounding.hpp"
#include "gigacheck/tf32x3.hpp"

#include <cblas.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <memory>
#include <map>
#include <set>

namespace gigacheck {

std::string_view toString(RepairOutcome o)
{
    switch (o) {
    case RepairOutcome::Confirmed: return "confirmed";
    case RepairOutcome::CorrectedByRecompute: return "corrected-by-recompute";
    case RepairOutcome::Uncorrectable: return "uncorrectable";
    }
    return "?";
}

RepairOutcome repairOutcomeFromString(std::string_view s)
{
    for (RepairOutcome o :
         {RepairOutcome::Confirmed, RepairOutcome::CorrectedByRecompute, RepairOutcome::Uncorrectable})
        if (toString(o) == s)
            return o;
    throw InputError("unknown repair outcome '" + std::string(s) + "'");
}

namespace {

// Inner dimension handled per chunk by the re-check, so its scratch stays small for any depth.
constexpr std::int64_t kDepthChunk = 256;

// A block of the run's matrices: rows x cols at (rowOffset, colOffset) of C.
struct BlockRef {
    std::int64_t rowOffset = 0, colOffset = 0, rows = 0, cols = 0;
};

template <class T>
VerifyResult recheck(const HostMatrix& a, const HostMatrix& b, const HostMatrix& c, const BlockRef& blk,
                     const RoundoffModel& model, double lambda)
{
    const std::int64_t n = a.cols(), q = b.cols(), R = blk.rows, Q = blk.cols;
    const T* A = a.as<T>() + blk.rowOffset * n;
    const T* B = b.as<T>() + blk.colOffset;
    const T* C = c.as<T>() + blk.rowOffset * q + blk.colOffset;

    // Augmented copies of one depth chunk, as the backends hold them: A with c_A as row R,
    // B with r_B as column Q (stored in the run's precision, as the operands' checksums are).
    std::vector<T> aChunk(std::size_t((R + 1) * kDepthChunk)), bChunk(std::size_t(kDepthChunk * (Q + 1)));
    std::vector<double> checksumCol(std::size_t(R + 1), 0.0), checksumRow(std::size_t(Q), 0.0);
    BoundAccumulator acc;
    acc.reset(R, Q);
    for (std::int64_t k0 = 0; k0 < n; k0 += kDepthChunk) {
        const std::int64_t kn = std::min(kDepthChunk, n - k0);
        // Parallel over the host's cores; every sum keeps its own index order (core/parallel_for.hpp).
        std::vector<double> columnSum(std::size_t(kn), 0.0);  // c_A of this chunk, row by row (A is row-major)
        parallelFor(kn, R, [&](std::int64_t c0, std::int64_t c1) {
            for (std::int64_t i = 0; i < R; ++i)
                for (std::int64_t k = c0; k < c1; ++k) {
                    const T v = A[i * n + k0 + k];
                    aChunk[std::size_t(i * kn + k)] = v;
                    columnSum[std::size_t(k)] += double(v);
                }
        });
        for (std::int64_t k = 0; k < kn; ++k)
            aChunk[std::size_t(R * kn + k)] = T(columnSum[std::size_t(k)]);
        parallelFor(kn, Q, [&](std::int64_t c0, std::int64_t c1) {
            for (std::int64_t k = c0; k < c1; ++k) {
                double s = 0;
                for (std::int64_t j = 0; j < Q; ++j) {
                    const T v = B[(k0 + k) * q + j];
                    bChunk[std::size_t(k * (Q + 1) + j)] = v;
                    s += double(v);
                }
                bChunk[std::size_t(k * (Q + 1) + Q)] = T(s);
            }
        });
        const BlockView<const T> av{aChunk.data(), R, kn, kn};
        const BlockView<const T> bv{bChunk.data(), kn, Q, Q + 1};
        accumulateBound<T>(acc, av, bv);
        parallelFor(R + 1, kn, [&](std::int64_t i0, std::int64_t i1) {  // A_c r_B (corner c_A . r_B included)
            for (std::int64_t i = i0; i < i1; ++i)
                for (std::int64_t k = 0; k < kn; ++k)
                    checksumCol[std::size_t(i)] += double(av(i, k)) * double(bv(k, Q));
        });
        parallelFor(Q, kn, [&](std::int64_t j0, std::int64_t j1) {  // c_A B_r, over k in order per j
            for (std::int64_t k = 0; k < kn; ++k) {
                const double ca = double(av(R, k));
                for (std::int64_t j = j0; j < j1; ++j)
                    checksumRow[std::size_t(j)] += ca * double(bv(k, j));
            }
        });
    }

    // The augmented copy: uninitialised (every element is written below) and filled in parallel,
    // so that the first touch of its pages (1 GiB for a 16384^2 block) is spread over the cores.
    const std::unique_ptr<T[]> x(new T[std::size_t((R + 1) * (Q + 1))]);
    const BlockView<T> xv{x.get(), R, Q, Q + 1};
    parallelFor(R, Q, [&](std::int64_t i0, std::int64_t i1) {
        for (std::int64_t i = i0; i < i1; ++i) {
            std::memcpy(&xv(i, 0), C + i * q, std::size_t(Q) * sizeof(T));
            xv(i, Q) = T(checksumCol[std::size_t(i)]);
        }
    });
    xv(R, Q) = T(checksumCol[std::size_t(R)]);
    for (std::int64_t j = 0; j < Q; ++j)
        xv(R, j) = T(checksumRow[std::size_t(j)]);
    return verifyAndCorrect<T>(xv, thresholds(acc, model, lambda));  // corrects the copy only
}

// One cell of C as a dot product over the full inner dimension, accumulated in double.
template <class T>
void recomputeCell(const HostMatrix& a, const HostMatrix& b, HostMatrix& c, std::int64_t row, std::int64_t col)
{
    const std::int64_t n = a.cols(), q = b.cols();
    const T* A = a.as<T>() + row * n;
    const T* B = b.as<T>() + col;
    double s = 0;
    for (std::int64_t k = 0; k < n; ++k)
        s += double(A[k]) * double(B[k * q]);
    c.as<T>()[row * q + col] = T(s);
}

void gemv(bool transB, const float* m, int rows, int cols, int ld, const float* x, int incx, float* y, int incy)
{
    cblas_sgemv(CblasRowMajor, transB ? CblasTrans : CblasNoTrans, rows, cols, 1.0f, m, ld, x, incx, 0.0f, y, incy);
}
void gemv(bool transB, const double* m, int rows, int cols, int ld, const double* x, int incx, double* y, int incy)
{
    cblas_dgemv(CblasRowMajor, transB ? CblasTrans : CblasNoTrans, rows, cols, 1.0, m, ld, x, incx, 0.0, y, incy);
}
void gemm(const float* a, int lda, const float* b, int ldb, float* c, int ldc, int m, int n, int q)
{
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, q, n, 1.0f, a, lda, b, ldb, 0.0f, c, ldc);
}
void gemm(const double* a, int lda, const double* b, int ldb, double* c, int ldc, int m, int n, int q)
{
    cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, q, n, 1.0, a, lda, b, ldb, 0.0, c, ldc);
}

// Recomputes rows / columns (local) of the block, or all of it, from A and B in the run's
// precision (OpenBLAS, as the reference does). Returns the flops.
template <class T>
double recomputeLines(const HostMatrix& a, const HostMatrix& b, HostMatrix& c, const BlockRef& blk,
                      const std::vector<std::int64_t>& rows, const std::vector<std::int64_t>& cols, bool wholeBlock)
{
    const std::int64_t n = a.cols(), q = b.cols();
    const T* A = a.as<T>() + blk.rowOffset * n;
    const T* B = b.as<T>() + blk.colOffset;
    T* C = c.as<T>() + blk.rowOffset * q + blk.colOffset;
    if (wholeBlock) {
        gemm(A, int(n), B, int(q), C, int(q), int(blk.rows), int(n), int(blk.cols));
        return 2.0 * double(blk.rows) * double(blk.cols) * double(n);
    }
    for (std::int64_t r : rows)  // row r of the block: B_block^T a_r
        gemv(true, B, int(n), int(blk.cols), int(q), A + r * n, 1, C + r * q, 1);
    for (std::int64_t col : cols)  // column col of the block: A_block b_col
        gemv(false, A, int(blk.rows), int(n), int(n), B + col, int(q), C + col, int(q));
    return 2.0 * double(n) * (double(rows.size()) * double(blk.cols) + double(cols.size()) * double(blk.rows));
}

// A copy of an FP32 matrix rounded to the input format (TF32, BF16, FP16) of the product (HostMatrix
// copies share their data: a new one).
HostMatrix roundedToInput(const HostMatrix& m, InputFormat f)
{
    HostMatrix out(m.precision(), m.rows(), m.cols());
    std::memcpy(out.data(), m.data(), m.bytes());
    roundBlockToInput(out.as<float>(), m.rows(), m.cols(), m.cols(), f);
    return out;
}

bool clean(const VerifyResult& v) { return v.mismatchRows.empty() && v.mismatchCols.empty(); }

// Cost of the re-check: checksums and bound over the block's A and B, plus the block's sums.
double recheckFlops(const BlockRef& blk, std::int64_t n)
{
    return 6.0 * double(n) * double(blk.rows + blk.cols + 2) + 4.0 * double(blk.rows + 1) * double(blk.cols + 1);
}

// What the run's verifications left for one C block.
struct Pending {
    BlockRef blk;
    std::set<std::pair<std::int64_t, std::int64_t>> correctedCells;  // result cells corrected from checksums
    std::set<std::int64_t> candidateRows, candidateCols;              // result lines of uncorrectable verdicts
    bool operandCopy = false;  // recompute it whole: an operand copy that fed it failed its entry check
};

template <class T>
RepairEvent repairBlock(const HostMatrix& a, const HostMatrix& b, HostMatrix& c, const Pending& p,
                        const RoundoffModel& model, double lambda)
{
    const BlockRef& blk = p.blk;
    const auto started = std::chrono::steady_clock::now();
    const std::int64_t n = a.cols();
    RepairEvent e;
    e.rowOffset = blk.rowOffset;
    e.colOffset = blk.colOffset;
    e.rows = blk.rows;
    e.cols = blk.cols;

    for (const auto& [row, col] : p.correctedCells) {
        recomputeCell<T>(a, b, c, blk.rowOffset + row, blk.colOffset + col);
        ++e.cellsRecomputed;
        e.flops += 2.0 * double(n);
    }

    VerifyResult v = recheck<T>(a, b, c, blk, model, lambda);
    e.flops += recheckFlops(blk, n);
    e.mismatchRows = v.mismatchRows;
    e.mismatchCols = v.mismatchCols;
    // An uncorrectable verdict's lines are recomputed even when the re-check is clean: its fault
    // may sit just below the re-check's threshold, and its cell was never restored.
    std::set<std::int64_t> rows = p.candidateRows, cols = p.candidateCols;
    for (std::int64_t r : v.mismatchRows)
        if (r < blk.rows)  // a checksum index alone names no result line
            rows.insert(r);
    for (std::int64_t col : v.mismatchCols)
        if (col < blk.cols)
            cols.insert(col);
    e.operandCopy = p.operandCopy;
    if (p.operandCopy)  // C was multiplied from a wrong operand: every line of it is suspect
        for (std::int64_t r = 0; r < blk.rows; ++r)
            rows.insert(r);
    if (clean(v) && rows.empty() && cols.empty()) {
        e.outcome = RepairOutcome::Confirmed;
    } else {
        e.recomputedRows.assign(rows.begin(), rows.end());
        e.recomputedCols.assign(cols.begin(), cols.end());
        const double lineCost = double(e.recomputedRows.size()) * double(blk.cols) +
                                double(e.recomputedCols.size()) * double(blk.rows);
        e.wholeBlock = lineCost == 0 || lineCost >= double(blk.rows) * double(blk.cols);
        if (e.wholeBlock) {
            e.recomputedRows.clear();
            e.recomputedCols.clear();
        }
        e.flops += recomputeLines<T>(a, b, c, blk, e.recomputedRows, e.recomputedCols, e.wholeBlock);
        v = recheck<T>(a, b, c, blk, model, lambda);
        e.flops += recheckFlops(blk, n);
        if (!clean(v) && !e.wholeBlock) {  // the lines did not suffice: the whole block
            e.wholeBlock = true;
            e.flops += recomputeLines<T>(a, b, c, blk, {}, {}, true);
            v = recheck<T>(a, b, c, blk, model, lambda);
            e.flops += recheckFlops(blk, n);
        }
        e.outcome = clean(v) ? RepairOutcome::CorrectedByRecompute : RepairOutcome::Uncorrectable;
    }
    e.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    return e;
}

}  // namespace

VerifyResult recheckBlock(const HostMatrix& a, const HostMatrix& b, const HostMatrix& c, std::int64_t rowOffset,
                          std::int64_t colOffset, std::int64_t rows, std::int64_t cols, const RoundoffModel& model,
                          double lambda)
{
    const BlockRef blk{rowOffset, colOffset, rows, cols};
    if (c.precision() == Precision::F64)
        return recheck<double>(a, b, c, blk, model, lambda);
    if (model.tf32Operands)  // the operands the TF32 product multiplied
        return recheck<float>(roundedToInput(a, model.operands), roundedToInput(b, model.operands), c, blk, model, lambda);
    return recheck<float>(a, b, c, blk, model, lambda);
}

std::vector<RepairEvent> repairAfterRun(const HostMatrix& a, const HostMatrix& b, HostMatrix& c,
                                        const std::vector<VerifyEvent>& verifications, const RoundoffModel& model,
                                        double lambda, const std::vector<BlockToRecompute>& recompute)
{
    // C blocks with a verification that was not clean, the result cells corrected in them and the
    // result lines their uncorrectable verdicts named.
    std::map<std::pair<int, int>, Pending> pending;
    for (const VerifyEvent& v : verifications) {
        if (v.result.verdict == Verdict::Clean)
            continue;
        Pending& p = pending[{v.block.i, v.block.j}];
        p.blk = {v.rowOffset, v.colOffset, v.rows, v.cols};
        for (const Correction& corr : v.result.corrections)
            if (corr.row < v.rows && corr.col < v.cols)  // checksum cells are not part of C
                p.correctedCells.insert({corr.row, corr.col});
        if (v.result.verdict == Verdict::Uncorrectable) {
            for (std::int64_t r : v.result.mismatchRows)
                if (r < v.rows)
                    p.candidateRows.insert(r);
            for (std::int64_t col : v.result.mismatchCols)
                if (col < v.cols)
                    p.candidateCols.insert(col);
        }
    }
    for (const BlockToRecompute& r : recompute) {
        Pending& p = pending[{r.blockI, r.blockJ}];
        p.blk = {r.rowOffset, r.colOffset, r.rows, r.cols};
        p.operandCopy = true;
    }
    std::vector<RepairEvent> events;
    if (pending.empty())
        return events;
    // TF32: the product multiplied A and B rounded to TF32 and its checksums were taken over them;
    // the re-check, the recomputed cells and lines use the same operands (gigacheck/tf32.hpp), so
    // a recomputed cell is what an untouched cell is, up to FP32 accumulation.
    const bool rounded = model.tf32Operands && c.precision() == Precision::F32;
    const HostMatrix ra = rounded ? roundedToInput(a, model.operands) : a,
                     rb = rounded ? roundedToInput(b, model.operands) : b;
    for (const auto& [ij, p] : pending) {
        RepairEvent e = c.precision() == Precision::F64
                            ? repairBlock<double>(ra, rb, c, p, model, lambda)
                            : repairBlock<float>(ra, rb, c, p, model, lambda);
        e.blockI = ij.first;
        e.blockJ = ij.second;
        events.push_back(std::move(e));
    }
    return events;
}

void repairRun(RunRecord& record, const HostMatrix& a, const HostMatrix& b, HostMatrix& c, int scheduledOps,
               RunObserver* observer, const std::vector<BlockToRecompute>& recompute)
{
    // cublas-tf32 / -bf16 / -f16 on CUDA, and their emulation on the CPU (cpu/op_table.cpp); tf32x3
    // as the run's checks took it (gigacheck/tf32x3.hpp).
    record.repairs = repairAfterRun(a, b, c, record.verifications,
                                    roundoffModelOf(record.config.precision, record.config.gemm),
                                    record.config.thresholdLambda, recompute);
    double at = 0;
    for (const Span& s : record.spans)
        at = std::max(at, s.end);
    const double elem = double(elementSize(record.config.precision));
    const std::int64_t depth = record.config.shape.n;
    for (std::size_t n = 0; n < record.repairs.size(); ++n) {
        const RepairEvent& e = record.repairs[n];
        Span s;
        s.opId = scheduledOps + int(n);  // after the schedule's ids
        s.queue = Queue::Compute;
        s.kind = OpKind::Recompute;
        s.block = {e.blockI, e.blockJ, record.plan.splitN - 1};
        s.start = at;
        s.end = at + e.seconds;
        s.flops = e.flops;
        // A and B's block rows / columns read by the re-check, C's block read and written.
        s.bytes = elem * (double(depth) * double(e.rows + e.cols) + 2.0 * double(e.rows) * double(e.cols));
        at = s.end;
        record.spans.push_back(s);
        if (observer)
            observer->onSpan(s);
    }
}

}  // namespace gigacheck
