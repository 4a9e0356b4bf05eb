// ABFT on the device, cheaply (the Gigacheck report's sections 2.1 and 4; the rules of gigacheck/abft.hpp and
// abft/verify.cpp, the host reference).
//
// The augmented blocks live in the plan's buffers, with padded leading dimensions:
//   A: (rows + 1) x depth, row `rows` = c_A (used by the CPU backend; the device keeps c_A in Aux);
//   B: depth x (cols + 1), column `cols` = r_B, column cols + 1 (room the plan leaves inside ldb)
//      = the 2-norm of each row of B_r;
//   C: (rows + 1) x (cols + 1).
// The main product C[rows x cols] goes to the chosen GEMM variant on the unaugmented shapes (no
// odd augmented GEMMs). Everything else is a memory-bound pass, four per block product in-core:
//   checksumB            one pass over B: r_B and the row norms of B_r (kept with the B block: every
//                        block product that uses it needs them)
//   checksumProducts     one pass over A (C[i, cols] += A r_B, rowScale, and c_A and the column
//                        norms of A into Aux: A's checksum needs no pass of its own), one pass over
//                        B_r (C[rows, j] += c_A B_r, colScale): the checksum column / row of C and
//                        the round-off bound.
//   verify               ONE pass over C for both row and column sums, then one block that finds
//                        mismatches, decides (seed figure 8) and corrects; only the small VerifyOut
//                        reaches the host, written straight into pinned memory.
// The fused K-major TF32 product (gemm/README.md) takes checksumBTransposed instead of checksumB (B^T
// from the same read of B), its passes round the operands in registers, and its verify reads only
// C's checksum row and column (the kernel's epilogue summed C).
// All scratch lives in the plan's Aux buffer of the C block (4 rows of doubles, ld >= max(rows,
// cols) + 1): row 0 rowScale, row 1 colScale, rows 2 and 3 per-step scratch (c_A and the column
// norms of A during checksumProducts, the control sums during verify). Nothing is allocated outside
// the plan, so the memory cap holds exactly.
#pragma once

#include "abft/operand_rounding.hpp"
#include "gigacheck/types.hpp"

#include <cuda_runtime.h>

namespace gigacheck::cuda {

using Index = std::int64_t;

#ifdef __CUDACC__
#define GIGACHECK_HOST_DEVICE __host__ __device__
#else
#define GIGACHECK_HOST_DEVICE
#endif

struct AuxView {
    double* data = nullptr;
    Index ld = 0;  // >= max(rows, cols) + 1
    GIGACHECK_HOST_DEVICE double* rowScale() const { return data; }
    GIGACHECK_HOST_DEVICE double* colScale() const { return data + ld; }
    GIGACHECK_HOST_DEVICE double* scratch0() const { return data + 2 * ld; }
    GIGACHECK_HOST_DEVICE double* scratch1() const { return data + 3 * ld; }
};

// Up to this many mismatching rows / columns / corrections are listed; more is uncorrectable.
constexpr int kMaxListed = 64;

// kScreenedMismatch: screenChecks found a mismatch; never reported (the check then runs in full).
enum DeviceVerdict : int { kClean = 0, kCorrected = 1, kUncorrectable = 2, kScreenedMismatch = 3 };

// Written by the device into pinned host memory, once per verification.
struct VerifyOut {
    int verdict;
    int rowCount, colCount;  // mismatching rows / columns (may exceed kMaxListed)
    int correctionCount;
    int recomputed;          // checksums rebuilt after a fault in the checksum row / column
    int locatedByLargestResidual;  // one axis mismatched; the other's largest residual located it
    long long rows[kMaxListed], cols[kMaxListed];
    double rowResidual[kMaxListed], colResidual[kMaxListed];
    // 0: fixed from the row check, 1: from the column check, 2: checksum cell, recomputed
    int direction[kMaxListed];
    long long corrRow[kMaxListed], corrCol[kMaxListed];
    double before[kMaxListed], after[kMaxListed];
    double maxCleanRatio, minThreshold, maxThreshold;
};

// "clean", "corrected" or "uncorrectable": a verification's verdict as the benches and tests name it.
inline const char* verdictName(const VerifyOut& v)
{
    return v.verdict == kClean ? "clean" : v.verdict == kCorrected ? "corrected" : "uncorrectable";
}

// Writes r_B into column `cols` and the row 2-norms of B_r into column cols + 1 (needs ldb >= cols + 2).
// rounding (FP32 only; the TF32 / BF16 / FP16 product): B_r is rounded to that format in place in the
// same pass, and r_B and the norms are those of the rounded values (gigacheck/input_rounding.hpp);
// rounded in registers (abft/operand_rounding.hpp): of the rounded values, B_r not written.
void checksumB(Precision p, void* b, Index depth, Index cols, Index ldb, cudaStream_t s,
               OperandRounding rounding = {});

// checksumB with TF32 rounding in registers (kTf32InRegisters) and, from the same read of B, B^T
// rounded to TF32 into bt (cols x depth, row-major, ldbt >= depth): the K-major operand of the
// fused CUTLASS kernel (gemm/cutlass/cutlass_tf32_gemm.hpp, bTransposed). B's main part is not
// written; its columns cols and cols + 1 take r_B and the row norms (needs ldb >= cols + 2).
void checksumBTransposed(float* b, Index depth, Index cols, Index ldb, float* bt, Index ldbt, cudaStream_t s);
// The band of B's rows per block checksumBTransposed takes for these operands: 64 or 32 for its
// float4 kernel (aligned rows, depth and cols multiples of 4, a block per SM or more), 0 for the
// scalar one (tests and benches say which ran).
int checksumBTransposedBand(const float* b, Index depth, Index cols, Index ldb, const float* bt, Index ldbt);

// After checksumB of the B block; A's checksum row is not read (c_A is computed here).
// accumulate=false starts the checksum row/column of C and the bounds from zero (first k step).
// inputRounding (TF32 products): rowScale / colScale also take the checksum scales of abft.hpp
// (sum_k a_ik^2 r_k^2, sum_k c_k^2 b_kj^2), i.e. they hold Q_row / Q_col of the TF32 threshold.
// roundA (FP32 only; the TF32 / BF16 / FP16 product): the pass over A rounds A to that format in place as it reads it,
// and c_A, A r_B and the bounds are those of the rounded values; the GEMM must then run after
// this call (protected_product.cpp), and B must have been rounded by checksumB. Rounded in
// registers (kTf32InRegisters): both passes round A and B_r as they read them and write neither;
// B's checksum column must then come from checksumB / checksumBTransposed with the same model.
void checksumProducts(Precision p, void* a, Index lda, const void* b, Index ldb, void* c, Index ldc,
                      Index rows, Index depth, Index cols, AuxView aux, bool accumulate, cudaStream_t s,
                      bool inputRounding = false, OperandRounding roundA = {});

// Where panelChecksumIncrements writes each panel's share: lines + p ldLines holds its share of C's
// checksum column (rows floats), then of the checksum row with the corner (cols + 1); bounds + p
// ldBounds its share of rowScale (rows + 1), then of colScale (cols + 1); scratch + p ldScratch its
// c_A and column norms of A (depth each).
struct PanelIncrements {
    float* lines = nullptr;
    Index ldLines = 0;   // >= rows + cols + 1
    double* bounds = nullptr;
    Index ldBounds = 0;  // >= rows + cols + 2
    double* scratch = nullptr;
    Index ldScratch = 0;  // >= 2 depth
};

// checksumProducts for `panels` products C += A_p B_p at once (FP32; A_p: A's columns [p depth,
// (p + 1) depth), B_p those rows of B, with B's checksum column from checksumB / checksumBOf), one
// pass over A and one over B for all: each panel's share goes to its own place in `out`, added to
// what is there (the caller zeroes it), so that the shares can be summed up to any panel afterwards
// (the online family's step-sums kernel: every step's checksums made beside the kernel). roundA must
// not write A back (rounded in registers, or none).
void panelChecksumIncrements(const float* a, Index lda, const float* b, Index ldb, Index rows, Index depth, Index cols,
                             int panels, const PanelIncrements& out, cudaStream_t s, bool inputRounding,
                             OperandRounding roundA);

// The operands of a product C = A B given as A and B^T (FP32, multiplied rounded to nearest TF32),
// from which verify computes a located cell of C again (VerifyCall::cellsFrom).
struct CellOperands {
    const float* a = nullptr;
    Index lda = 0;
    const float* bt = nullptr;
    Index ldbt = 0;
    Index depth = 0;
};

// The sums of C after `steps` later steps (rows + cols doubles each: row sums, then column sums).
struct LaterSums {
    double* sums = nullptr;
    int steps = 0;
};

struct VerifyCall {
    Precision precision = Precision::F32;
    void* c = nullptr;
    Index rows = 0, cols = 0, ldc = 0;
    Index depth = 0;  // inner dimension accumulated so far
    AuxView aux;
    double u = 0, lambda = 4.0;  // u: RoundoffModel::uAccumulate
    double uInput = 0;           // RoundoffModel::uInput; needs checksumProducts(..., inputRounding)
    double truncationSumFactor = 0;  // truncationSumFactor(model, depth) of abft.hpp (TF32 operands)
    // Another stream's GEMM runs beside this check (the online family's column blocks): C is summed
    // by few-register blocks that fit beside its CTAs (abft_kernels.cu leanSumsKernel). Alone, the
    // wide sums read C faster.
    bool besideGemm = false;
    // The product's epilogue already wrote C's row and column sums into aux.scratch0 / scratch1
    // (a fused-sums GEMM, productWithChecksums): the check reads only C's checksum row and column,
    // not C.
    bool sumsFromProduct = false;
    // With sumsFromProduct, where C (the buffer) holds more than the product checked (the online
    // family's step-sums kernel: C is final, the check is of an earlier step): checksum cells found
    // faulty are rebuilt from these sums of the checked C (rows + cols doubles: row sums, then column
    // sums), less the cells this check corrects, instead of from C.
    const double* recomputeFrom = nullptr;
    // With recomputeFrom: a located cell is set to its dot product over these operands (all of the
    // depth C holds), not to its line's checksum less the line's other cells (which hold more than
    // the checked product).
    CellOperands cellsFrom;
    // With recomputeFrom: the later steps' sums of C, which this check's corrections are added into
    // (the step-sums path: a cell corrected at step k is off by as much in every later step's sums).
    LaterSums later;
    // A check that lies (fault model "check", gigacheck/fault_models.hpp): row check lieRow or
    // column check lieCol reports a mismatch whatever its residual, as if its threshold were
    // -1e300 (the CPU backend's emulation); its true threshold goes to *lieThreshold (pinned host).
    Index lieRow = -1, lieCol = -1;
    double* lieThreshold = nullptr;
};
// hostOut must be pinned host memory; it holds the result once the stream passes this call.
void verify(const VerifyCall& call, VerifyOut* hostOut, cudaStream_t s);

// A check of C's state after an earlier step, its lines kept apart from C (the online family's
// step-sums kernel, families/online_abft/cuda/step_sums.hpp): the stored checksums (C's checksum
// column, rows floats, then its checksum row with the corner, cols + 1), their round-off scales
// (rowScale, rows + 1 doubles, then colScale, cols + 1) and C's sums at that step (rows + cols
// doubles: row sums, then column sums). `call` is the VerifyCall verify would take after those were
// loaded into C and call.aux (F32, sumsFromProduct).
struct ScreenedCheck {
    VerifyCall call;
    const float* lines = nullptr;
    const double* bounds = nullptr;
    double* sums = nullptr;  // read only
    VerifyOut* out = nullptr;
};
constexpr int kScreenedMax = 8;

// Up to kScreenedMax such checks decided at once, each as verify would decide it, reading only the
// slots: a clean check's verdict is written into its `out` in full; one that mismatches gets
// kScreenedMismatch and must be run by verify (after its slots are loaded). One launch for all, where
// each verify is several; nothing is written but the `out`s. Every call must have the same rows and
// cols.
void screenChecks(const ScreenedCheck* checks, int count, cudaStream_t s);

// The first half of verify: rowSum[i] = sum_{j<cols} C[i,j] (i <= rows) and colSum[j] =
// sum_{i<rows} C[i,j] (j <= cols) of the augmented C in one read, both zeroed first; besideGemm as
// in VerifyCall. Alone, it is the least any check of C costs (`bench online`'s "panels + sums" row).
void sumsOfC(Precision p, const void* c, Index rows, Index cols, Index ldc, double* rowSum, double* colSum,
             bool besideGemm, cudaStream_t s);

// Zeroes the sums a fused-sums GEMM adds into: aux.scratch0 (rows + 1) and aux.scratch1 (cols + 1).
void zeroProductSums(AuxView aux, Index rows, Index cols, cudaStream_t s);

struct DeviceInjection {
    Index row = 0, col = 0;  // in the augmented block
    int bitFlip = 0;         // 0: add delta, 1: flip bit
    int bit = 0;
    int bit2 = -1;           // a second bit of the same word flipped at once (-1: none)
    double delta = 0;
};
// The sums a fused-sums GEMM wrote (VerifyCall::sumsFromProduct) of a C block of rows x cols.
struct ProductSums {
    double* rowSum = nullptr;
    double* colSum = nullptr;
    Index rows = 0, cols = 0;
};

// Applies the injections in order; beforeAfter (pinned host, 2 doubles per injection) gets the values.
// With productSums, a fault in C's main part is one of the product's arithmetic, which the epilogue
// that summed C saw too: its change is added to that row's and column's sums.
void inject(Precision p, void* c, Index ldc, const DeviceInjection* items, int count, double* beforeAfter,
            cudaStream_t s, ProductSums productSums = {});

// The checker's own faults (gigacheck/fault_models.hpp), as the CPU backend emulates them:
// A correction write that is hit: after verify, if `out` (that verification's pinned VerifyOut)
// lists a correction of cell (item.row, item.col), the corrected cell takes the fault;
// beforeAfterApplied (pinned host, 3 doubles) gets the values and 1 when it was applied, else 0.
void injectIntoCorrection(Precision p, void* c, Index ldc, const VerifyOut* out, const DeviceInjection& item,
                          double* beforeAfterApplied, cudaStream_t s);
// An entry c_A[k] (k = item.row) of A's column checksum hit as it is made: on the device c_A lives
// only inside a product's pass over A, so the fault goes where c_A goes -- the checksum row of C
// (row `rows`, columns 0..cols) takes (c_A'[k] - c_A[k]) B_r[k, :], c_A[k] taken again here.
// Call after checksumProducts (productWithChecksums) of that block; beforeAfter: 2 doubles.
void injectIntoEncodingA(Precision p, const void* a, Index lda, Index rows, const void* b, Index ldb, void* c,
                         Index ldc, Index cols, const DeviceInjection& item, double* beforeAfter, cudaStream_t s);

}  // namespace gigacheck::cuda
