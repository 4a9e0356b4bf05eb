// The ABFT-protected product with BF16 / FP16 inputs (FP32 accumulation and C), its checksum passes
// those of abft/cuda/checksums_16bit.hpp: they read each operand once, as the GEMM reads it.
//   run path (--gemm cublas-bf16 / cublas-f16, FP32 operands): B's checksum pass rounds in
//     registers and writes nothing; the products' passes write the 16-bit copies the GEMM reads (no
//     conversion pass, no in-place rounding of the FP32 operands);
//   16-bit operands (`bench abft-overhead`'s "protected, 16-bit operands"): every pass reads 2 bytes
//     per element and writes no operand.
// The verification is the FP32 one of every other path, with the thresholds of roundoffModel(F32, format).
#pragma once

#include "abft/cuda/checksums_16bit.hpp"
#include "abft/cuda/prepared_operands.hpp"
#include "gemm/cuda/protected_product.hpp"

namespace gigacheck::cuda {

// g: FP32 with --gemm cublas-bf16 / cublas-f16 (inputFormatOf is BF16 or FP16).
bool multipliesIn16Bit(const GemmCall& g);

// Run path, in place of checksumB: r_B and the row norms of B rounded into B's columns cols and
// cols + 1 (ldb >= cols + 2); B not written.
void checksumB16Of(const GemmCall& g, cudaStream_t s);
// Where the CUTLASS 16-bit kernel (BF16 or FP16) can multiply g's 16-bit copies (packed, 256-byte
// aligned in the stream's scratch) into g's C: a build with CUTLASS on a Hopper device (cutlass16BitRuns), the depth
// n and the width q multiples of 8, C's leading dimension a multiple of 4 and C 16-byte aligned.
bool writesSumsOfC16(const GemmCall& g);
// Run path, in place of productWithChecksums: the products' passes (A and B rounded in registers,
// their 16-bit copies written into the stream's scratch) and then cuBLAS on the copies, on s.
// sumsOfC (the online family's panel products): where writesSumsOfC16(g), the CUTLASS 16-bit kernel
// multiplies the copies instead and its epilogue writes C's row and column sums (of all of C after
// the accumulation) into aux's scratch rows, zeroed here once the passes are done with them
// (VerifyCall::sumsFromProduct then reads no C). Returns whether it did.
bool productWithChecksums16(const GemmCall& g, cublasHandle_t handle, cudaStream_t s, AuxView aux,
                            bool sumsOfC = false);

// One protected product of operands already in 16-bit storage.
struct Protected16BitBlocks {
    InputFormat format = InputFormat::Bf16;
    const void* a16 = nullptr;  // m x n, packed
    const void* b16 = nullptr;  // n x q, packed
    float* c = nullptr;         // (m + 1) x ldc, ldc >= q + 1: the checksum row and column beside C
    Index ldc = 0;
    Index m = 0, n = 0, q = 0;
    AuxView aux;                         // 4 x ld doubles, ld >= max(m, q) + 1
    float* rowChecksumsB = nullptr;      // 2 x n floats: r_B and B's row norms
    // Operands prepared at entry (prepare16BitOperands of a16 and b16, abft/cuda/prepared_operands.hpp):
    // the product then reads A once and B once for its checksums (checksumProductsPrepared16), not
    // B twice and A with its column sums; rowChecksumsB is not used.
    const Prepared16BitOperands* prepared = nullptr;
    RoundoffModel model;                 // roundoffModel(Precision::F32, format)
    const DeviceInjection* fault = nullptr;  // none when null
    double* faultBeforeAfter = nullptr;      // pinned, 2 doubles
    VerifyOut* out = nullptr;                // pinned
    // The CUTLASS sm_90a kernel whose epilogue writes C's sums (cutlass_16bit_gemm.hpp) instead of
    // cuBLAS, so the verification reads no C; throws BackendError where it cannot run.
    bool fusedSums = false;
    // With prepared and fusedSums: the prepared passes on the lane's side stream, launched after the
    // GEMM, in its last round of tiles (protectedProductPrepared's tail; the lane's side stream of
    // lower priority than s).
    bool preparedPassInTail = false;
    // With that, BF16: B with its checksum columns (prepare16BitChecksumColumns, leading dimension
    // ldbWithChecksumColumns). Where they fit (C's width a multiple of 128, room for 8 more columns in
    // C and aux) and pay (kernelChecksumColumnPaysHere), the kernel multiplies them as 8 more columns
    // of C and its epilogue makes C's checksum column, as the TF32 product's does
    // (ChecksumColumnBy::Kernel); the pass then reads B alone. Null: the pass over A takes it. The side
    // products below go first where they can run.
    const void* bWithChecksumColumns = nullptr;
    Index ldbWithChecksumColumns = 0;
    // With preparedPassInTail: c_A's and r_B's parts (prepare16BitChecksumParts, BF16 or FP16) and room
    // for the side products' parts (sideProductPartsFloats(m, q) floats, 256-byte aligned). Where the
    // kernel leaves SMs idle without a round of tiles more and cuBLASLt can run there
    // (checksum_side_products.hpp), C's checksum row and column are made on those SMs during the kernel
    // (Checksums16By::SideProducts) instead of by the kernel's column and the passes after it.
    const void* checksumParts = nullptr;
    float* sideProductParts = nullptr;
};

// How a prepared product's checksum row and column were made.
enum class Checksums16By {
    Passes,        // both by the double-precision passes (or by the passes before the kernel)
    KernelColumn,  // the column by the kernel (bWithChecksumColumns), the row by the pass over B
    SideProducts,  // both by the tensor-core products beside the kernel (checksumParts)
};
// B's checksum pass, then the products' passes (with `prepared`: the prepared passes alone) on the lane's side stream beside the GEMM (they
// write no operand, so the GEMM need not wait for them), the optional fault, the verification.
// fusedSums: the products' passes run before the GEMM on s (the epilogue's sums take the Aux rows
// they use).
// Returns how C's checksum row and column were made.
Checksums16By protectedProductOf16BitOperands(const Protected16BitBlocks& blocks, cublasHandle_t handle, cudaStream_t s,
                                     SideLane& lane);

}  // namespace gigacheck::cuda
