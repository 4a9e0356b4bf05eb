// The GEMM variants of the lab on row-major device views:
//   C[m x q] = A[m x n] * B[n x q]  (+ C when accumulate)
// naive: one thread per element; tiled: seed figure 7 with a T x T shared-memory tile;
// optimized: 128 x 128 block tile, 8 x 8 register tile per thread, 16-byte loads, double-buffered
// shared memory; cublas / cublas-tf32: the library (row-major through the transpose identity);
// cutlass-tf32: the CUTLASS TF32 kernel of Hopper (gemm/cutlass/), whose epilogue can write C's sums;
// tf32x3: cuBLAS TF32 products of the operands' big and small parts (gemm_tf32x3.hpp).
#pragma once

#include "gigacheck/types.hpp"

#include "gemm/cutlass/cutlass_tf32_gemm.hpp"

#include <cublas_v2.h>
#include <cuda_runtime.h>

namespace gigacheck::cuda {

struct GemmCall {
    GemmVariant variant = GemmVariant::Cublas;
    int tile = 32;        // tiled: 8, 16 or 32
    int optimizedBk = 16;  // optimized: k-depth of a shared-memory stage (8 or 16; FP64 always 8)
    Precision precision = Precision::F32;
    std::int64_t m = 0, n = 0, q = 0;
    const void* a = nullptr;
    std::int64_t lda = 0;
    const void* b = nullptr;
    std::int64_t ldb = 0;
    void* c = nullptr;
    std::int64_t ldc = 0;
    bool accumulate = false;
    bool tuned = false;  // cublas FP32: the configuration tuneGemm kept for this shape, if any (gemm_tuning.hpp)
    // cutlass-tf32 (FP32; FP64 runs cuBLAS): the epilogue adds C's row / column sums into these
    // (device, zeroed by the caller) when set, and the tile shape (-1: the default; bench kernels).
    double* rowSums = nullptr;
    double* colSums = nullptr;
    int cutlassConfig = -1;
    // cutlass-tf32: B^T (q x n floats, row-major, leading dimension n) for the K-major kernel. gemm()
    // reads it instead of b; in the protected product, checksumBOf lays it out from B, rounded to
    // TF32, in B's checksum pass (protected_product.hpp).
    void* bTransposed = nullptr;
    // cutlass-tf32: CutlassTf32Call::leavesIdleSms (a pass runs beside the kernel).
    bool leavesIdleSms = false;
    // cutlass-tf32 with rowSums: CutlassTf32Call::rowSumSplit (C's checksum column from the kernel).
    RowSumSplit rowSumSplit;
    // The caller's device memory for the GEMM's operand copies (operandCopyBytes: BF16 / FP16, tf32x3)
    // and C's row-sum partials (rowSumPartialBytes), gemm/gemm_workspace.hpp: the blocked family's
    // plan charges both to the memory cap. Empty, or smaller than a call needs: the stream's scratch.
    DeviceRegion operandCopies, rowSumPartials;
    // cutlass-tf32 with rowSums and colSums: CutlassTf32Call::fault.
    FaultAsComputed fault;
};

// The CUTLASS kernel's view of a call (gemm/cutlass/cutlass_tf32_gemm.hpp).
inline CutlassTf32Call cutlassCallOf(const GemmCall& g)
{
    CutlassTf32Call call;
    call.m = g.m;
    call.n = g.n;
    call.q = g.q;
    call.a = static_cast<const float*>(g.a);
    call.lda = g.lda;
    call.b = static_cast<const float*>(g.bTransposed ? g.bTransposed : g.b);
    call.ldb = g.bTransposed ? g.n : g.ldb;
    call.bTransposed = g.bTransposed != nullptr;
    call.c = static_cast<float*>(g.c);
    call.ldc = g.ldc;
    call.accumulate = g.accumulate;
    call.rowSums = g.rowSums;
    call.colSums = g.colSums;
    call.config = g.cutlassConfig;
    call.leavesIdleSms = g.leavesIdleSms;
    call.rowSumSplit = g.rowSumSplit;
    call.rowSumPartials = g.rowSumPartials;
    call.fault = g.fault;
    return call;
}

// cutlass-tf32 on FP32 where the CUTLASS kernel takes the shape: the kernel that writes C can also
// write its sums (GemmCall::rowSums). Other shapes (an inner dimension or a width not a multiple of
// 4) run cuBLAS TF32, checked by the passes over C as cublas-tf32 is.
inline bool writesSumsOfC(const GemmCall& g)
{
    return g.variant == GemmVariant::CutlassTf32 && g.precision == Precision::F32 && g.n > 0 &&
           cutlassTf32Fits(cutlassCallOf(g));
}

// Throws InputError for a tile other than 8/16/32, BackendError on CUDA/cuBLAS failure.
void gemm(const GemmCall& call, cublasHandle_t handle, cudaStream_t stream);

// FLOPs of one call (2 m n q), what every variant is credited with.
inline double gemmFlops(std::int64_t m, std::int64_t n, std::int64_t q) { return 2.0 * double(m) * double(n) * double(q); }

}  // namespace gigacheck::cuda
