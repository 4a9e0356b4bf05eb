// The fused K-major TF32 product on operands prepared once, when they enter (gemm/README.md
// "Operands prepared at entry"): A's column checksum c_A, B's row checksum r_B and the weights of
// the round-off bound are taken over the TF32-rounded values and kept as vectors over the inner
// dimension, and B^T is laid out rounded. A product then makes one pass over A and one over B^T
// (the checksum column A r_B, the checksum row c_A B and the scales of their bounds) and reads no C
// (the kernel's epilogue sums C): two reads of N^2 floats instead of the three reads and one write
// of checksumBTransposed + checksumProducts. Because c_A and r_B are those of the operands as they
// entered, a fault that strikes A or B^T in device memory afterwards shows in the check as well.
#pragma once

#include "abft/cuda/abft_device.hpp"

#include <cstddef>

namespace gigacheck::cuda {

// B^T's rows after its last that carry r_B into the kernel when the kernel writes C's checksum
// column (in(storage, depth, rows) with rows > 0): r_B split into three TF32 parts, whose sum is r_B
// to about 2^-33 of it, and a zero row that keeps C's width a multiple of 4 (the kernel's TMA copies).
// The kernel then multiplies A by them beside B^T's other rows, and C's columns cols .. cols + 3 hold
// A r_B in parts, which its epilogue sums into C's checksum column (CutlassTf32Call::rowSumSplit).
inline constexpr Index kChecksumRowsOfBt = 4;

// Views into one device array of doublesFor(depth[, rows]) doubles (prepareOperands fills it).
struct PreparedOperands {
    double* rB = nullptr;         // r_B[k] = sum_j b_kj, as B's checksum column holds it
    double* rowWeight = nullptr;  // w_k = |b_k|^2 + r_k^2: the weight of a_ik^2 in rowScale (abft.hpp)
    double* cA = nullptr;         // c_A[k] = sum_i a_ik
    double* colWeight = nullptr;  // u_k = |a_k|^2 + 2 c_k^2: the weight of b_kj^2 in colScale
    // The checksum cells that depend on the operands alone: C's corner c_A r_B, rowScale[rows] =
    // sum_k c_k^2 w_k and colScale[cols] = sum_k u_k r_k^2.
    double* corner = nullptr;  // 3 doubles
    Index depth = 0;
    // rows > 0: ready for the checksum column by the kernel as well. prepareOperands then writes r_B's
    // parts into B^T's rows cols .. cols + 3 (bt must have them) and A's row scales rowScale[i] =
    // sum_k a_ik^2 w_k, which the pass over A otherwise takes in every product; rowDotsAtEntry is
    // where that pass's other output, A r_B, goes at entry (not read).
    double* rowScale = nullptr;
    float* rowDotsAtEntry = nullptr;
    Index rows = 0;

    static std::size_t doublesFor(Index depth, Index rows = 0) { return std::size_t(4 * depth + 3 + 2 * rows); }
    static PreparedOperands in(double* storage, Index depth, Index rows = 0);
};

// At entry: B's checksum column and row norms and B^T rounded (checksumBTransposed: ldb >= cols + 2,
// ldbt >= depth), A's column sums over its rounded values, then the vectors and corner of `out`.
// A and B's main part are not written.
void prepareOperands(const float* a, Index lda, Index rows, float* b, Index depth, Index cols, Index ldb, float* bt,
                     Index ldbt, const PreparedOperands& out, cudaStream_t s);

// Per product, before the fused GEMM: C's checksum column (A r_B) and row (c_A B, from B^T), the
// bound's scales, the corner from `prepared`, and the epilogue's sums (aux scratch rows) zeroed, so
// that verify with sumsFromProduct follows the GEMM. A and B^T are read rounded in registers.
void checksumProductsPrepared(const float* a, Index lda, const float* bt, Index ldbt, float* c, Index ldc, Index rows,
                              Index depth, Index cols, AuxView aux, const PreparedOperands& prepared, cudaStream_t s);
// Its two halves, for a caller that runs the pass on another stream than the reset (the pass must
// follow the reset, and the verification both): the checksum cells, scales and the epilogue's sums
// reset (C's corner from `prepared`), then the pass over A and B^T.
// columnByKernel: the kernel writes C's checksum column (B^T's checksum rows), so the reset takes A's
// row scales from `prepared` and zeroes the epilogue's column sums up to cols + kChecksumRowsOfBt
// (aux.ld must reach it), and the pass reads B^T alone.
void resetPreparedChecksums(float* c, Index ldc, Index rows, Index cols, AuxView aux, const PreparedOperands& prepared,
                            cudaStream_t s, bool columnByKernel = false);
void preparedChecksumDots(const float* a, Index lda, const float* bt, Index ldbt, float* c, Index ldc, Index rows,
                          Index depth, Index cols, AuxView aux, const PreparedOperands& prepared, cudaStream_t s,
                          bool columnByKernel = false);

// The same for a product on 16-bit operands (BF16 / FP16, as the CUTLASS 16-bit kernel reads them:
// A rows x depth and B depth x cols, row-major, no B^T). Beside the vectors, the bound's scales
// rowScale[i] = sum_k a_ik^2 w_k and colScale[j] = sum_k u_k b_kj^2 are kept too: they depend on the
// operands alone, and squaring every element in double in each product was what the passes spent
// their time on (H200: about 1.2 TB/s, against the bandwidth's 4).
struct Prepared16BitOperands {
    PreparedOperands vectors;
    double* rowScale = nullptr;  // rows
    double* colScale = nullptr;  // cols
    Index rows = 0, cols = 0;

    static std::size_t doublesFor(Index rows, Index depth, Index cols)
    {
        return PreparedOperands::doublesFor(depth) + std::size_t(rows + cols);
    }
    static Prepared16BitOperands in(double* storage, Index rows, Index depth, Index cols);
};
// At entry: r_B and B's row norms into rowChecksums (2 x depth floats, checksumB16), c_A, the
// weights, the corner and the scales into `out`.
void prepare16BitOperands(InputFormat format, const void* a16, Index lda, Index rows, const void* b16, Index ldb,
                          Index depth, Index cols, float* rowChecksums, const Prepared16BitOperands& out, cudaStream_t s);
// Per product: one read of A (the checksum column A r_B) and one of B (the checksum row c_A B), the
// scales and the corner from `prepared`, the epilogue's sums zeroed.
void checksumProductsPrepared16(InputFormat format, const void* a16, Index lda, const void* b16, Index ldb, float* c,
                                Index ldc, Index rows, Index depth, Index cols, AuxView aux,
                                const Prepared16BitOperands& prepared, cudaStream_t s);
// Its two halves (as resetPreparedChecksums / preparedChecksumDots for TF32; columnByKernel likewise,
// the column sums zeroed up to cols + kChecksumColumnsOf16BitB).
void resetPrepared16Checksums(float* c, Index ldc, Index rows, Index cols, AuxView aux,
                              const Prepared16BitOperands& prepared, cudaStream_t s, bool columnByKernel = false);
void prepared16ChecksumDots(InputFormat format, const void* a16, Index lda, const void* b16, Index ldb, float* c,
                            Index ldc, Index rows, Index depth, Index cols, const Prepared16BitOperands& prepared,
                            cudaStream_t s, bool columnByKernel = false);

// The 16-bit kernel's counterpart of B^T's checksum rows: B's columns after its last that carry r_B
// into the kernel -- r_B split into four BF16 parts (their sum is r_B to about 2^-32 of it) and four
// zero columns, so that C's width stays a multiple of 8 (16 bytes, the kernel's TMA copies).
inline constexpr Index kChecksumColumnsOf16BitB = 8;
// At entry, BF16 only (FP16's range cannot hold r_B's parts in general, and the kernel adds the eight
// columns into one sum, so they cannot each carry a power of two as the side products' do): B (depth x
// cols, ldb) copied into out (ldOut >= cols + kChecksumColumnsOf16BitB) with its checksum columns after
// it, from the r_B of `prepared` (prepare16BitOperands first). The product then takes C's checksum column from the
// kernel (Protected16BitBlocks::bWithChecksumColumns).
void prepare16BitChecksumColumns(const void* b16, Index ldb, Index depth, Index cols,
                                 const Prepared16BitOperands& prepared, void* out, Index ldOut, cudaStream_t s);

// The checksums as tensor-core products beside the kernel (gemm/cuda/checksum_side_products.hpp): c_A
// and r_B each split into four 16-bit parts (as B's checksum columns carry r_B) and four zeros.
inline constexpr Index kChecksumPartsOf16Bit = 8;
// Where the second half of each buffer below starts (in elements): 256 bytes aligned, as cuBLASLt's
// kernels assume, when the first is.
inline Index rBPartsOffset(Index depth) { return (kChecksumPartsOf16Bit * depth + 127) / 128 * 128; }
inline Index columnPartsOffset(Index cols) { return (kChecksumPartsOf16Bit * cols + 63) / 64 * 64; }
// Where the parts' scales start in the prepared parts (16-bit elements; 16 bytes aligned): eight
// doubles, the factor that takes each of c_A's four parts back to c_A's scale, then r_B's.
inline Index partScalesOffset(Index depth) { return rBPartsOffset(depth) + kChecksumPartsOf16Bit * depth; }
// 16-bit elements of the prepared parts (their scales included), floats of the side products' parts.
inline Index checksumPartsElements(Index depth) { return partScalesOffset(depth) + 8 * 4; }
inline Index sideProductPartsFloats(Index rows, Index cols)
{
    return columnPartsOffset(cols) + kChecksumPartsOf16Bit * rows;
}
// At entry: out (checksumPartsElements(depth) elements of `format`, BF16 or FP16) = c_A's parts as 8
// rows of depth (row-major), then from rBPartsOffset(depth) r_B's as depth rows of 8, then from
// partScalesOffset(depth) their scales, from `prepared` (prepare16BitOperands first). BF16 holds the
// parts as they are (scales 1: its range is FP32's). FP16's cannot (it ends at 65504 and its normal
// numbers at 2^-14), so each part is the remainder of the ones before times a power of two that
// takes the vector's largest remainder into [2^14, 2^15): four parts hold every element to about
// 2^-44 of the vector's largest, and the scales are exact.
void prepare16BitChecksumParts(InputFormat format, const Prepared16BitOperands& prepared, Index depth, void* out,
                               cudaStream_t s);
// Per product: C's checksum row (c_A B) and column (A r_B) written from the side products' FP32
// parts -- `parts` (sideProductPartsFloats) holds the row's, cols x 8, then from
// columnPartsOffset(cols) the column's, 8 x rows (both column-major) -- each cell the sum of its four
// nonzero parts, each times its scale (`scales`: the eight doubles of the prepared parts), in double,
// rounded once.
void checksumsFromParts16(const float* parts, const double* scales, float* c, Index ldc, Index rows, Index cols,
                          cudaStream_t s);

}  // namespace gigacheck::cuda
